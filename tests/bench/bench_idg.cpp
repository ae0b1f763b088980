// The image-domain gridding rows of `make bench`:
//   I1 B2-like: 60 stations, 1024 time steps, 16 channels, 4 polarisations, N = 4096,
//      N-bar = 32, T-bar = 128, C-bar = 16 (digest 002 §11: B2 has 2048 steps; half keeps the
//      host's share of the table, generating and packing the data, near 10 s), GPU only.
//   I2 small: 16 stations, 256 steps, 16 channels, N = 1024, on the CPU engine (all threads)
//      and the GPU engine, whose image is checked against the CPU's.
// Synthetic tracks: antennas on a plane, observed from the pole, so baselines turn in the uv
// plane with w = 0 and every visibility is placed on the one w-layer; the time step and
// channel width let the longest tracks fill T-bar = 128 steps per subgrid. The plan is made
// once, outside the timings (its own column, on all host threads). GVis/s counts visibilities
// of 4 polarisations; %bound is the gridder or degridder kernel's rate, and the whole engine
// call's, over the digest's issue bound of 1.63 GVis/s at N-bar = 32 (GH100, 132 SMs at
// 1.98 GHz). That bound assumes 20 instructions per pixel and visibility; the kernels for
// evenly spaced channels take them in pairs (idg_kernels.cu) at about 12, so they may pass
// it. host ms is the host's work inside an engine call (weight sums, zeroing,
// normalisation, packing and unpacking batches), most of it overlapped with the device.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "gpu_device.hpp"
#include "idg/idg_engine.hpp"
#include "idg/idg_taper.hpp"

#ifdef RAPT_WITH_CUDA
#include <exception>
#include <memory>
#include <stdexcept>

#include "../../gpu/bench/idg_gpu_bench.hpp"
#include "power/nvml_source.hpp"
#include "power/power_sampler.hpp"
#include "power/power_trace.hpp"
#endif

namespace rapt::bench {
namespace {

constexpr double kIssueBoundVisPerS = 1.63e9;

struct IdgWorkload {
  const char* name;
  int nant, ntimes, grid_size;
};

constexpr IdgWorkload kB2{"I1 B2-like", 60, 1024, 4096};
constexpr IdgWorkload kSmall{"I2 small", 16, 256, 1024};

// Owns what the IdgVisibilities view points at.
struct BenchObservation {
  std::vector<int> antenna1, antenna2;
  std::vector<std::array<double, 3>> uvw_m;
  std::vector<double> freq_hz;
  std::vector<std::complex<float>> vis;
  std::vector<float> weight;
  IdgVisibilities view() const {
    IdgVisibilities v;
    v.nrows = antenna1.size();
    v.nchan = freq_hz.size();
    v.products = 4;
    v.antenna1 = antenna1.data();
    v.antenna2 = antenna2.data();
    v.uvw_m = uvw_m.data();
    v.freq_hz = freq_hz.data();
    v.vis = vis.data();
    v.weight = weight.data();
    return v;
  }
};

// Antennas within 2 km at 150 MHz: baselines up to about 2000 wavelengths, 1600 grid pixels
// at S = 0.8; 5e-5 rad of hour angle per step moves the longest track 10 pixels in 128 steps
// and 16 channels of 30 kHz spread it 5 more, inside N-bar - N_W = 23.
BenchObservation make_observation(const IdgWorkload& w) {
  BenchObservation obs;
  std::vector<double> x, y;
  for (int a = 0; a < w.nant; ++a) {
    const double r = 2000.0 * std::sqrt(std::fmod(0.618034 * (a + 1), 1.0));
    x.push_back(r * std::cos(2.399963 * a));
    y.push_back(r * std::sin(2.399963 * a));
  }
  for (int c = 0; c < 16; ++c) obs.freq_hz.push_back(150e6 + 30e3 * c);
  for (int t = 0; t < w.ntimes; ++t) {
    const double h = 5e-5 * t, ch = std::cos(h), sh = std::sin(h);
    for (int a1 = 0; a1 < w.nant; ++a1)
      for (int a2 = a1 + 1; a2 < w.nant; ++a2) {
        const double bx = x[a1] - x[a2], by = y[a1] - y[a2];
        obs.antenna1.push_back(a1);
        obs.antenna2.push_back(a2);
        obs.uvw_m.push_back({bx * ch - by * sh, bx * sh + by * ch, 0.0});
      }
  }
  const size_t n = obs.antenna1.size() * obs.freq_hz.size() * 4;
  // A few distinct values: the rates do not depend on them, and filling stays cheap.
  obs.vis.resize(n);
  for (size_t i = 0; i < n; ++i) obs.vis[i] = {float(i % 7) * 0.25f, float(i % 5) * -0.125f};
  obs.weight.assign(n, 1.0f);
  return obs;
}

IdgSettings settings_of(const IdgWorkload& w) {
  IdgSettings s;
  s.grid_size = w.grid_size;
  s.image_size = 0.8 * w.grid_size / 4096.0;  // same uv pixel spread for the smaller grid
  s.subgrid_size = 32;
  s.max_timesteps_per_subgrid = 128;
  s.max_channels_per_subgrid = 16;
  s.npol = 4;
  return s;
}

std::string size_text(const IdgWorkload& w) {
  return std::to_string(w.nant) + " x " + std::to_string(w.ntimes) + " x 16, N=" +
         std::to_string(w.grid_size);
}

double seconds_of(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

#ifdef RAPT_WITH_CUDA
// Largest |a - b| taper(x) taper(y) over the peak of |a|: the images as the engines had them
// before dividing by the taper, whose outermost pixels amplify FP32 rounding up to 1e6 times.
double max_relative_difference(const IdgSettings& s, const IdgImage& a, const IdgImage& b) {
  const std::vector<double> taper = idg_image_taper(s.subgrid_size, s.grid_size);
  const size_t n = size_t(s.grid_size);
  double peak = 0, diff = 0;
  for (size_t i = 0; i < a.pixels.size() && i < b.pixels.size(); ++i) {
    const double t = taper[i % n] * taper[(i / n) % n];
    peak = std::max(peak, double(std::abs(a.pixels[i])));
    diff = std::max(diff, double(std::abs(a.pixels[i] - b.pixels[i])) * t);
  }
  return peak > 0 ? diff / peak : 0.0;
}

// Board energy of back-to-back engine calls (host arrays to host arrays, as "engine ms"), from
// NVML's energy counter (or its power sampled every 10 ms), per op; empty where not measured.
struct IdgEnergy {
  std::unique_ptr<NvmlSource> nvml;
  std::unique_ptr<EnergyIntegrator> integrator[3];
  std::unique_ptr<PowerSampler> sampler[3];
  std::string failure;
};

void add_gpu_rows(BenchTable& table, const IdgWorkload& w, const IdgSettings& s,
                  const IdgPlan& plan, double plan_s, const BenchObservation& obs,
                  const BenchSettings& settings, const IdgImage* cpu_image, bool energy) {
  std::fprintf(stderr, "rapt_bench: idg gpu %s\n", size_text(w).c_str());
  IdgEnergy e;
  gpu::IdgGpuSustainedRun run;
  if (energy) {
    try {
      e.nvml = std::make_unique<NvmlSource>();
      if (size_t(settings.gpu) >= e.nvml->sensors().size()) throw std::runtime_error("no sensor");
      for (int op = 0; op < 3; ++op) {
        e.integrator[op] = std::make_unique<EnergyIntegrator>(e.nvml->sensors());
        e.sampler[op] = std::make_unique<PowerSampler>(std::vector<PowerSource*>{e.nvml.get()}, 10.0,
                                                       std::vector<TraceSink*>{e.integrator[op].get()});
      }
      run.begin = [&](int op) { e.sampler[op]->start(); };
      run.end = [&](int op) { e.sampler[op]->stop(); };
    } catch (const std::exception& x) {
      e.failure = x.what();
      energy = false;
    }
  }
  const gpu::IdgGpuBenchTiming t = gpu::time_gpu_idg(
      s, plan, obs.view(), settings.gpu, std::min(settings.repeats, 2), energy ? &run : nullptr);
  const double nvis = double(plan.visibilities_placed);
  std::string check = "-";
  if (cpu_image) {
    const double err = max_relative_difference(s, *cpu_image, t.image);
    check = std::string(err <= 1e-5 ? "ok" : "FAIL") + " err " + number_cell(err);
  }
  std::string joules[3] = {"-", "-", "-"};
  for (int op = 0; energy && op < 3; ++op) {
    if (!e.sampler[op]->failure().empty()) {
      e.failure = e.sampler[op]->failure();
      continue;
    }
    const SensorSummary sensor = e.integrator[op]->summaries().at(size_t(settings.gpu));
    if (sensor.energy_j > 0 && t.sustained_runs[op] > 0)
      joules[op] = number_cell(sensor.energy_j / t.sustained_runs[op] / nvis * 1e9) +
                   (sensor.from_counter ? "" : " (sampled)");
  }
  if (!e.failure.empty())
    std::fprintf(stderr, "rapt_bench: idg energy not measured: %s\n", e.failure.c_str());
  // The held cycles as one op each: GVis/s = visibilities / (subtract + grid), as the thesis
  // counts an imaging cycle's rate; with whole images, and as CLEAN's major cycle makes them.
  const auto sum = [](const gpu::IdgGpuOpTiming& a, const gpu::IdgGpuOpTiming& b) {
    gpu::IdgGpuOpTiming c;
    c.engine_s = a.engine_s + b.engine_s, c.device_s = a.device_s + b.device_s;
    c.kernel_s = a.kernel_s + b.kernel_s, c.host_s = a.host_s + b.host_s;
    return c;
  };
  const gpu::IdgGpuOpTiming cycle = sum(t.subtract_held, t.grid_held);
  const gpu::IdgGpuOpTiming clean_cycle = sum(t.subtract_points, t.grid_real);
  struct Row {
    const char* op;
    const gpu::IdgGpuOpTiming& o;
    std::string joules, check;
  };
  for (const Row& r : {Row{"grid", t.grid, joules[0], check}, Row{"degrid", t.degrid, joules[1], "-"},
                       Row{"hold", t.hold, "-", "-"}, Row{"subtract held", t.subtract_held, "-", "-"},
                       Row{"grid held", t.grid_held, joules[2], "-"}, Row{"cycle held", cycle, "-", "-"},
                       Row{"subtract points", t.subtract_points, "-", "-"},
                       Row{"grid held real", t.grid_real, "-", "-"},
                       Row{"CLEAN cycle", clean_cycle, "-", "-"}}) {
    const double n = nvis;
    const bool kernel = r.o.kernel_s > 0;
    table.add_row({w.name, size_text(w), "gpu", r.op, std::to_string(plan.subgrids.size()),
                   number_cell(plan_s * 1e3), kernel ? number_cell(r.o.kernel_s * 1e3) : "-",
                   kernel ? number_cell(r.o.device_s * 1e3) : "-", number_cell(r.o.host_s * 1e3),
                   number_cell(r.o.engine_s * 1e3), kernel ? number_cell(n / r.o.kernel_s * 1e-9) : "-",
                   kernel ? number_cell(n / r.o.device_s * 1e-9) : "-",
                   number_cell(n / r.o.engine_s * 1e-9),
                   kernel ? percent_cell(n / r.o.kernel_s / kIssueBoundVisPerS) : "-",
                   percent_cell(n / r.o.engine_s / kIssueBoundVisPerS), r.joules, r.check});
  }
  std::fprintf(stderr,
               "rapt_bench: idg %s engine ms grid %.1f (GPU engine's part %.1f, host work %.1f, "
               "of it copying the image %.1f), degrid %.1f (%.1f, %.1f, %.1f)\n",
               w.name, t.grid.engine_s * 1e3, t.grid.call_s * 1e3, t.grid.host_s * 1e3,
               t.grid.image_s * 1e3, t.degrid.engine_s * 1e3, t.degrid.call_s * 1e3,
               t.degrid.host_s * 1e3, t.degrid.image_s * 1e3);
  const double cycle_s = t.grid.engine_s + t.degrid.engine_s;
  std::fprintf(stderr,
               "rapt_bench: idg %s imaging cycle: grid + degrid engine calls %.3g GVis/s, on held "
               "visibilities (subtract_held + grid_held) %.3g GVis/s, as CLEAN makes it "
               "(subtract_held_points + grid_held_real) %.3g GVis/s (target 0.5)\n",
               w.name, nvis / cycle_s * 1e-9, nvis / cycle.engine_s * 1e-9,
               nvis / clean_cycle.engine_s * 1e-9);
}
#endif

}  // namespace

void print_idg_tables(const BenchSettings& settings) {
  BenchTable table({"idg", "stations x steps x chans", "engine", "op", "subgrids", "plan ms",
                    "kernel ms", "device ms", "host ms", "engine ms", "GVis/s kernel",
                    "GVis/s device", "GVis/s engine", "%bound kernel", "%bound engine", "J/GVis",
                    "check"});
  const int host_threads = int(std::max(1u, std::thread::hardware_concurrency()));
#ifdef RAPT_WITH_CUDA
  const bool gpu = settings.run_gpu && gpu_device_count() > settings.gpu;
#endif
  IdgImage cpu_image;
  {
    const IdgSettings s = settings_of(kSmall);
    const BenchObservation obs = make_observation(kSmall);
    IdgPlan plan;
    const double plan_s = seconds_of([&] { plan = make_idg_plan(s, obs.view(), host_threads); });
    if (settings.run_cpu) {
      std::fprintf(stderr, "rapt_bench: idg cpu %s\n", size_text(kSmall).c_str());
      const int threads = host_threads;
      auto engine = make_cpu_idg_engine(s, threads);
      const double grid_s = seconds_of([&] { cpu_image = engine->grid(plan, obs.view()); });
      std::vector<std::complex<float>> predicted(obs.vis.size());
      const double degrid_s =
          seconds_of([&] { engine->degrid(plan, cpu_image, obs.view(), predicted.data()); });
      const double nvis = double(plan.visibilities_placed);
      const std::string engine_name = "cpu x" + std::to_string(threads);
      for (const auto& [op, op_s] : {std::pair<const char*, double>{"grid", grid_s},
                                     {"degrid", degrid_s}})
        table.add_row({kSmall.name, size_text(kSmall), engine_name, op,
                       std::to_string(plan.subgrids.size()), number_cell(plan_s * 1e3), "-", "-",
                       "-", number_cell(op_s * 1e3), "-", "-", number_cell(nvis / op_s * 1e-9), "-",
                       percent_cell(nvis / op_s / kIssueBoundVisPerS), "-", "reference"});
    }
#ifdef RAPT_WITH_CUDA
    if (gpu)
      add_gpu_rows(table, kSmall, s, plan, plan_s, obs, settings,
                   settings.run_cpu ? &cpu_image : nullptr, false);
#endif
  }
  if (settings.run_gpu) {
#ifdef RAPT_WITH_CUDA
    if (gpu) {
      const IdgSettings s = settings_of(kB2);
      const BenchObservation obs = make_observation(kB2);
      IdgPlan plan;
      const double plan_s = seconds_of([&] { plan = make_idg_plan(s, obs.view(), host_threads); });
      add_gpu_rows(table, kB2, s, plan, plan_s, obs, settings, nullptr, true);
    } else {
      table.add_row({kB2.name, size_text(kB2), "gpu", "skipped: no GPU"});
    }
#else
    table.add_row({kB2.name, size_text(kB2), "gpu", "skipped: built without CUDA"});
#endif
  }
  std::printf("\n# image-domain gridding: 4 polarisations, N-bar = 32, one w-layer; plan = "
              "make_idg_plan on all host threads, once, beforehand; kernel = gridder or degridder "
              "alone, device = subgrid passes + grid FFTs and taper (events), engine = the whole "
              "IdgEngine call from host arrays to host arrays (grid into the image of the call "
              "before, as idg-grid does), host = the host's work inside it "
              "(weight sums, zeroing, normalisation, packing; mostly overlapped with the device); "
              "GVis/s = placed visibilities (4 pols) per second; %%bound = kernel or engine rate / "
              "1.63 GVis/s (digest 002 §11, GH100 at 1.98 GHz); J/GVis = board energy "
              "(NVML counter) of back-to-back engine calls per 1e9 visibilities; check = GPU image vs the CPU "
              "engine's, largest difference times the taper over the peak (tolerance 1e-5); "
              "held = major-cycle calls on visibilities held in device memory (hold once, then "
              "subtract_held of the grid image = degrid and subtract, grid_held = grid the "
              "residuals); cycle held = subtract held + grid held, GVis/s = visibilities per "
              "cycle time (target 0.5); CLEAN cycle = the major cycle as CLEAN makes it: "
              "subtract points = subtract_held_points of 1000 components (XX and YY), grid held "
              "real = grid_held_real of the first plane, only the real plane leaving the device\n");
  table.print(stdout);
}

}  // namespace rapt::bench
