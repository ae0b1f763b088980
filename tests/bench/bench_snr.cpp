// The single-pulse search rows of `make bench`, in a table of their own: the boxcar search of
// 2048 DMs x 2^20 samples on the GPU (one kernel over every DM and width, input on the GPU;
// %HBM = float input read per second over the measured device-to-device copy bandwidth), and
// on the CPU a reduced workload (32 DMs x 2^20 samples; times also scaled to 2048 DMs) for the
// boxcar engine alone and for the whole search (detrend, normalise, boxcars, events); and the
// fused mode on the D1 setup (1024 channels, 50 us, DMs 0, 0.25, ...; 8-bit random data
// written to a temporary filterbank), per second of data: with the series kept on the GPU
// ("fused D1 on GPU", snr's path on a GPU), and through host memory ("fused D1": dedispersion
// into host memory, then the search); and snr --realtime on the GPU over 32 s of D1 data.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <thread>

#include <cstdlib>
#include <unistd.h>

#include "bench_table.hpp"
#include "io/sigproc.hpp"
#include "snr/fused_search.hpp"
#include "snr/realtime_search.hpp"
#include "bench_workloads.hpp"
#include "gpu_device.hpp"
#include "snr/single_pulse_search.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/bench/gpu_bench.hpp"
#include "../../gpu/bench/snr_gpu_bench.hpp"
#endif

namespace rapt::bench {
namespace {

constexpr int64_t kLength = int64_t(1) << 20;
constexpr int kGpuDms = 2048;
constexpr int kCpuDms = 32;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void add_gpu_row(BenchTable& table, const BenchSettings& s, std::vector<std::string>& notes) {
  const std::string what = std::to_string(kGpuDms) + " x 2^20";
#ifdef RAPT_WITH_CUDA
  if (gpu_device_count() > s.gpu) {
    std::fprintf(stderr, "rapt_bench: snr boxcars, %d DMs\n", kGpuDms);
    const SnrSettings settings;
    const gpu::GpuBoxcarTiming t = gpu::time_gpu_boxcar(
        kGpuDms, kLength, settings.widths, float(settings.threshold), s.gpu, s.repeats);
    const gpu::DeviceLimits limits = gpu::measure_device_limits(s.gpu);
    const double rate = double(t.input_bytes) / t.kernel_s;
    const std::string check = t.mismatched_hits == 0
        ? "ok (" + std::to_string(t.checked_hits) + ")"
        : "FAIL " + std::to_string(t.mismatched_hits) + "/" + std::to_string(t.checked_hits);
    table.add_row({"boxcar 1-30", what, "gpu:" + std::to_string(s.gpu),
                   number_cell(t.kernel_s * 1e3), number_cell(t.kernel_s * 1e3), "-",
                   number_cell(rate / 1e9), percent_cell(rate / limits.copy_bytes_per_s), check});
    notes.push_back("# snr: " + std::to_string(t.hits) + " hits on the GPU; target >= 50% HBM; " +
                    limits.device);
    return;
  }
#endif
  (void)s;
  (void)notes;
  table.add_row({"boxcar 1-30", what, "gpu", "skipped: no GPU"});
}

void add_cpu_rows(BenchTable& table, std::vector<std::string>& notes) {
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  std::fprintf(stderr, "rapt_bench: snr on the CPU, %d DMs\n", kCpuDms);
  std::vector<SeriesInput> batch(kCpuDms);
  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  std::vector<float> packed;
  for (int d = 0; d < kCpuDms; ++d) {
    SeriesInput& s = batch[size_t(d)];
    s.path = "bench";
    s.dm = d;
    s.dt_s = 1e-4;
    s.samples.resize(size_t(kLength));
    for (float& v : s.samples) v = normal(rng);
    s.total_samples = s.usable_samples = kLength;
    packed.insert(packed.end(), s.samples.begin(), s.samples.end());
  }
  const SnrSettings settings;
  auto engine = make_cpu_boxcar_engine(settings.widths, float(settings.threshold), threads);
  auto start = std::chrono::steady_clock::now();
  const size_t hits = engine->find_hits(packed, kCpuDms, kLength).size();
  const double boxcar_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  size_t events = 0;
  for (const auto& e : search_batch(batch, settings, *engine, threads)) events += e.size();
  const double search_s = seconds_since(start);
  const std::string what = std::to_string(kCpuDms) + " x 2^20";
  const double scale = double(kGpuDms) / kCpuDms;
  const double bytes = double(packed.size()) * sizeof(float);
  table.add_row({"boxcar 1-30", what, "cpu x" + std::to_string(threads),
                 number_cell(boxcar_s * 1e3), number_cell(boxcar_s * scale * 1e3), "-",
                 number_cell(bytes / boxcar_s / 1e9), "-", std::to_string(hits) + " hits"});
  table.add_row({"whole search", what, "cpu x" + std::to_string(threads),
                 number_cell(search_s * 1e3), number_cell(search_s * scale * 1e3), "-",
                 number_cell(bytes / search_s / 1e9), "-", std::to_string(events) + " events"});
  notes.push_back("# snr: host copy bandwidth " + number_cell(host_copy_bandwidth() / 1e9) +
                  " GB/s (read + write)");
}


void add_fused_row(BenchTable& table, const std::string& device, int ndm, double seconds) {
  std::fprintf(stderr, "rapt_bench: snr fused D1, %d DMs on %s\n", ndm, device.c_str());
  const TemporaryFilterbank fil(seconds);
  const auto start = std::chrono::steady_clock::now();
  std::vector<SeriesInput> series = dedisperse_in_memory({fil.path(), 0.0, 0.25, ndm, device, 0});
  const SnrSettings settings;
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  auto engine = device == "cpu"
      ? make_cpu_boxcar_engine(settings.widths, float(settings.threshold), threads)
      : make_gpu_boxcar_engine(settings.widths, float(settings.threshold), std::atoi(device.c_str() + 4));
  size_t events = 0;
  for (const auto& e : search_batch(series, settings, *engine, threads)) events += e.size();
  const double total_s = seconds_since(start);
  const double per_second = total_s / seconds;
  table.add_row({"fused D1", std::to_string(ndm) + " x " + number_cell(seconds) + " s", device,
                 number_cell(total_s * 1e3),
                 number_cell(total_s * 1e3 * 2048.0 / double(ndm)), number_cell(per_second * 1e3),
                 number_cell(double(apertif_plan(1).nchans) * kSampleRateHz * seconds / total_s / 1e9),
                 "-", std::to_string(events) + " events"});
}

// The fused search with the series kept on the GPU, end to end from the 8-bit file: header,
// dedispersion, normalisation, boxcars, events.
void add_gpu_resident_row(BenchTable& table, int gpu, int ndm, double seconds,
                          std::vector<std::string>& notes) {
  std::fprintf(stderr, "rapt_bench: snr fused D1 on the GPU, %d DMs\n", ndm);
  const TemporaryFilterbank fil(seconds);
  const FusedDedispPlan plan{fil.path(), 0.0, 0.25, ndm, "gpu:" + std::to_string(gpu), 0};
  const SnrSettings settings;
  double best = 1e300;
  size_t events = 0;
  FusedSearchTiming parts;
  for (int repeat = 0; repeat < 3; ++repeat) {  // the first also tunes the dedispersion kernel
    const auto start = std::chrono::steady_clock::now();
    const std::vector<SeriesInput> series = describe_fused_series(plan);
    events = 0;
    FusedSearchTiming timing;
    for (const auto& e : search_fused_on_gpu(plan, series, settings, gpu, &timing))
      events += e.size();
    const double total = seconds_since(start);
    if (repeat > 0 && total < best) best = total, parts = timing;
  }
  const double per_second = best / seconds;
  table.add_row({"fused D1 on GPU", std::to_string(ndm) + " x " + number_cell(seconds) + " s",
                 "gpu:" + std::to_string(gpu), number_cell(best * 1e3),
                 number_cell(best * 1e3 * 2048.0 / double(ndm)), number_cell(per_second * 1e3),
                 number_cell(double(apertif_plan(1).nchans) * kSampleRateHz * seconds / best / 1e9),
                 "-", std::to_string(events) + " events"});
  notes.push_back("# snr: fused D1 on GPU = series kept on the device; target <= 20 ms per s of "
                  "data: " + percent_cell(0.020 / per_second) + " of it (100% = met); per s of "
                  "data: read + dedisperse " + number_cell(parts.dedisperse_s / seconds * 1e3) +
                  " ms (setup " + number_cell(parts.setup_s / seconds * 1e3) + " ms, reading " +
                  number_cell(parts.read_s / seconds * 1e3) + " ms), normalise " + number_cell(parts.normalise_s / seconds * 1e3) +
                  " ms, boxcars " + number_cell(parts.search_s / seconds * 1e3) + " ms, events " +
                  number_cell(parts.events_s / seconds * 1e3) + " ms");
}

// Real-time mode on the GPU over a longer D1 file (its chunks of about 3.3 s stream through as
// they would from a recorder): processing time per second of data (reading overlaps it), and
// the whole call's wall time, setup and reading included. With `plan_dm_max` > 0, over a DM
// plan to that DM (its downsampled ranges) instead of `ndm` DMs 0.25 apart.
void add_realtime_row(BenchTable& table, int gpu, int ndm, double seconds,
                      std::vector<std::string>& notes, double plan_dm_max = 0.0) {
  const bool planned = plan_dm_max > 0.0;
  std::fprintf(stderr, "rapt_bench: snr real time D1 on the GPU, %s, %g s\n",
               planned ? ("a plan to DM " + number_cell(plan_dm_max)).c_str()
                       : (std::to_string(ndm) + " DMs").c_str(),
               seconds);
  const TemporaryFilterbank fil(seconds);
  RealtimePlan plan;
  plan.input = fil.path();
  if (planned) {
    plan.dm_plan.enabled = true;
    plan.dm_plan.dm_max = plan_dm_max;
  } else {
    for (int i = 0; i < ndm; ++i) plan.dms.push_back(0.25 * i);
  }
  plan.device = "gpu:" + std::to_string(gpu);
  RealtimeResult best;
  double best_wall = 1e300;
  for (int repeat = 0; repeat < 2; ++repeat) {  // the first also tunes the dedispersion kernel
    const auto start = std::chrono::steady_clock::now();
    RealtimeResult result = run_realtime_search(
        plan, [](const std::vector<PulseCandidate>&) {}, [](const RealtimeProgress&) {});
    const double wall = seconds_since(start);
    if (repeat > 0) best = std::move(result), best_wall = wall;
  }
  const RealtimeProgress& p = best.progress;
  size_t events = 0;
  for (const auto& e : best.events) events += e.size();
  const size_t trials = best.dms.size();
  table.add_row({planned ? "real time D1 plan" : "real time D1 on GPU",
                 std::to_string(trials) + " x " + number_cell(p.data_s) + " s",
                 "gpu:" + std::to_string(gpu), number_cell(best_wall * 1e3),
                 planned ? "-" : number_cell(best_wall * 1e3 * 2048.0 / double(trials)),
                 number_cell(p.busy_s / p.data_s * 1e3),
                 number_cell(double(apertif_plan(1).nchans) * kSampleRateHz * p.data_s / best_wall / 1e9),
                 "-", std::to_string(events) + " events"});
  if (planned) {
    notes.push_back("# snr: real time D1 plan: a DM plan from 0 to " + number_cell(plan_dm_max) +
                    " (dedisp --plan's, downsampled ranges: " + std::to_string(trials) +
                    " trials), on the GPU; processing " + number_cell(p.busy_s / p.data_s * 1e3) +
                    " ms per s of data, wall " + number_cell(best_wall / p.data_s * 1e3) +
                    " ms per s");
    return;
  }
  notes.push_back("# snr: real time D1 on GPU: ms per s of data = processing (reading the next "
                  "chunk overlaps it; " + number_cell(p.read_s / p.data_s * 1e3) + " ms per s); "
                  "wall, setup and reading included: " + number_cell(best_wall / p.data_s * 1e3) +
                  " ms per s; target <= 20 ms per s: " +
                  percent_cell(0.020 / (p.busy_s / p.data_s)) + " of it (100% = met)");
}

}  // namespace

void print_snr_tables(const BenchSettings& settings) {
  BenchTable table({"snr", "DMs x samples", "engine", "ms", "ms at 2048 DMs",
                    "ms per s of data", "GB/s in", "%HBM", "check"});
  std::vector<std::string> notes;
  if (settings.run_gpu) add_gpu_row(table, settings, notes);
  if (settings.run_gpu) {
    if (gpu_device_count() > settings.gpu) {
      add_gpu_resident_row(table, settings.gpu, 2048, 8, notes);
      add_realtime_row(table, settings.gpu, 2048, 32, notes);
      add_realtime_row(table, settings.gpu, 0, 32, notes, 2000.0);
      add_fused_row(table, "gpu:" + std::to_string(settings.gpu), 2048, 8);
    } else {
      table.add_row({"fused D1", "2048 x 8 s", "gpu", "skipped: no GPU"});
    }
  }
  if (settings.run_cpu) add_cpu_rows(table, notes);
  if (settings.run_cpu) add_fused_row(table, "cpu", 256, 2);
  std::printf("\n# single-pulse search: boxcars 1, 2, 3, 4, 6, 9, 14, 20, 30 at S/N 5; fused D1 on"
              " GPU = dedispersion, normalisation and boxcars with the series on the GPU; fused D1"
              " = dedispersion into host memory, then the search\n");
  table.print(stdout);
  for (const auto& line : notes) std::printf("%s\n", line.c_str());
}

}  // namespace rapt::bench
