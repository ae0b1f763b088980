// The acceleration-search rows of `make bench`: the SKA-like trial (2^23 samples of 64 us,
// 1 Hz to Nyquist, 16 harmonics, zmax 100 and 200) on the GPU, and 2^20 samples on the CPU.
// "plane" is the f-fdot plane (normalisation, correlations, powers), "sums" the harmonic sums
// with thresholding and compaction, both as the engine measures them; "CG" is candidate
// generation (the engine: upload, normalisation, plane, harmonic sums, compaction); "full" adds
// de-duplication and the optimisation of every candidate (the (r, z) maxima on the row's device,
// the rest on host threads). "opt ms/cand" is that optimisation per candidate; GPU rows also
// optimise the same candidates on the CPU ("CPU opt ms/cand"). The batches run 100 trials of
// different series as accelgpu's run loop does, with as many searches in flight as the engine
// overlaps: "batch CG" is the wall time per trial of candidate generation alone, "batch" the
// trials per second with every trial's candidates optimised too. %HBM compares the least
// traffic a plane-based search needs (the plane written once and read 1 + sum_j (j/h)^2 =
// 5.84 times by ideal 16-harmonic sums; 4 bytes a power, 2 with fp16) at the batch CG rate
// with the measured device-to-device copy bandwidth. fp16 rows store the plane in half
// precision (--fp16).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <future>
#include <memory>
#include <random>
#include <thread>

#include "accel/accel_search.hpp"
#include "accel/rz_maximiser.hpp"
#include "accel/spectrum_input.hpp"
#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/bench/gpu_bench.hpp"
#endif

namespace rapt::bench {
namespace {

constexpr double kDt = 64e-6;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Gaussian noise with a weak accelerated pulsar, as a packed spectrum.
std::vector<std::complex<float>> trial_spectrum(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::vector<float> samples(static_cast<size_t>(n));
  const double T = n * kDt;
  for (int64_t j = 0; j < n; ++j) {
    const double t = j * kDt;
    const double phase = 211.7 * t + 0.5 * (30.0 / (T * T)) * t * t;
    const double cycle = phase - std::floor(phase);
    samples[size_t(j)] = noise(rng) + float(0.05 * std::exp(-0.5 * std::pow((cycle - 0.5) / 0.03, 2)));
  }
  return packed_real_fft(samples);
}

AccelSearchOptions trial_options(int zmax, bool fp16) {
  AccelSearchOptions o;
  o.zmax = zmax;
  o.plane_precision = fp16 ? PlanePrecision::Float16 : PlanePrecision::Float32;
  o.numharm = 16;
  o.fhi_hz = 1.0 / (2 * kDt);
  return o;
}

struct TrialTiming {
  double cg_s = 0.0, full_s = 0.0, plane_s = 0.0, sums_s = 0.0;
  size_t candidates = 0;
  double min_bytes = 0.0;
  double optimise_s_per_candidate = 0.0;      // with the row's maximiser
  double cpu_optimise_s_per_candidate = 0.0;  // GPU rows: the same candidates on the CPU
};

std::string per_candidate_ms(double seconds) {
  return seconds > 0.0 ? number_cell(seconds * 1e3) : "-";
}

TrialTiming time_trial(AccelEngine& engine, RzMaximiser& maximiser,
                       const std::vector<std::complex<float>>& spectrum, int64_t n, int zmax,
                       bool fp16, int repeats, int threads) {
  TrialTiming best;
  best.cg_s = best.full_s = 1e30;
  AccelSearchResult last;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    AccelSearchResult r = find_accel_candidates(spectrum, trial_options(zmax, fp16), n * kDt,
                                                false, engine);
    const double cg = seconds_since(start);
    optimise_accel_candidates(r, spectrum, "", threads, maximiser);
    const double full = seconds_since(start);
    const size_t count = std::max<size_t>(r.raw.size(), 1);
    const double per_candidate = r.optimise_s / double(count);
    if (i == 0 || per_candidate < best.optimise_s_per_candidate) {
      best.optimise_s_per_candidate = per_candidate;
    }
    if (cg < best.cg_s) {
      best.cg_s = cg;
      best.plane_s = r.engine_timings.plane_s;
      best.sums_s = r.engine_timings.harmsum_s;
    }
    best.full_s = std::min(best.full_s, full);
    best.candidates = r.accel.candidates.size();
    best.min_bytes =
        double(r.plan.numz) * double(r.plan.plane_columns()) * (fp16 ? 2.0 : 4.0) * (1.0 + 5.84);
    last = std::move(r);
  }
  if (maximiser.name().rfind("gpu", 0) == 0 && !last.raw.empty()) {
    const std::unique_ptr<RzMaximiser> cpu = make_cpu_rz_maximiser(threads);
    optimise_accel_candidates(last, spectrum, "", threads, *cpu);
    best.cpu_optimise_s_per_candidate = last.optimise_s / double(last.raw.size());
  }
  return best;
}

// `count` trials of the given series (taken in turn) through the engine with as many searches
// in flight as it overlaps, as accelgpu's run loop does; with a maximiser, each trial's
// candidates are optimised while the next ones are searched. Returns seconds per trial.
[[maybe_unused]] double batch_seconds_per_trial(AccelEngine& engine, RzMaximiser* maximiser,
                               const std::vector<std::vector<std::complex<float>>>& spectra,
                               int64_t n, int zmax, bool fp16, int threads, size_t count) {
  const auto start = std::chrono::steady_clock::now();
  const size_t in_flight = size_t(std::max(1, engine.concurrent_searches()));
  std::deque<std::future<AccelSearchResult>> searches;
  size_t next = 0;
  auto start_next = [&] {
    const auto& spectrum = spectra[next++ % spectra.size()];
    searches.push_back(std::async(std::launch::async, [&engine, &spectrum, n, zmax, fp16] {
      return find_accel_candidates(spectrum, trial_options(zmax, fp16), n * kDt, false, engine);
    }));
  };
  while (next < count && searches.size() < in_flight) start_next();
  for (size_t i = 0; i < count; ++i) {
    AccelSearchResult r = searches.front().get();
    searches.pop_front();
    if (next < count) start_next();
    if (maximiser) {
      optimise_accel_candidates(r, spectra[i % spectra.size()], "", threads, *maximiser);
    }
  }
  return seconds_since(start) / double(count);
}

void add_accel_gpu_rows(BenchTable& table, const BenchSettings& s, std::vector<std::string>& notes) {
#ifdef RAPT_WITH_CUDA
  if (!s.run_gpu) return;
  if (gpu_device_count() <= s.gpu) {
    table.add_row({"accel SKA", "2^23", "-", "skipped: no GPU"});
    return;
  }
  const gpu::DeviceLimits limits = gpu::measure_device_limits(s.gpu);
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  const int64_t n = int64_t(1) << 23;
  std::fprintf(stderr, "rapt_bench: accel, simulating 2^23-sample trials\n");
  std::vector<std::vector<std::complex<float>>> spectra;
  for (uint64_t seed = 0; seed < 4; ++seed) spectra.push_back(trial_spectrum(n, 40 + seed));
  auto engine = make_accel_engine("gpu:" + std::to_string(s.gpu), threads);
  auto maximiser = make_rz_maximiser("gpu:" + std::to_string(s.gpu), threads);
  constexpr size_t kBatchTrials = 100;
  double z100_batch_ms[2] = {0, 0}, z100_floor_ms[2] = {0, 0};  // float, half plane
  for (const int zmax : {100, 200}) {
    for (const bool fp16 : {false, true}) {
      std::fprintf(stderr, "rapt_bench: accel zmax %d%s, GPU\n", zmax, fp16 ? " fp16" : "");
      const TrialTiming t = time_trial(*engine, *maximiser, spectra[0], n, zmax, fp16,
                                       std::min(s.repeats, 3), threads);
      const double batch_cg = batch_seconds_per_trial(*engine, nullptr, spectra, n, zmax, fp16,
                                                      threads, kBatchTrials);
      const double batch_full = batch_seconds_per_trial(*engine, maximiser.get(), spectra, n,
                                                        zmax, fp16, threads, kBatchTrials);
      table.add_row({"accel SKA",
                     "2^23 z" + std::to_string(zmax) + " h16" + (fp16 ? " fp16" : ""),
                     engine->name(), number_cell(t.plane_s * 1e3), number_cell(t.sums_s * 1e3),
                     number_cell(t.cg_s * 1e3), number_cell(batch_cg * 1e3),
                     number_cell(t.full_s * 1e3), number_cell(1.0 / batch_full),
                     percent_cell(t.min_bytes / batch_cg / limits.copy_bytes_per_s),
                     std::to_string(t.candidates), per_candidate_ms(t.optimise_s_per_candidate),
                     per_candidate_ms(t.cpu_optimise_s_per_candidate)});
      if (zmax == 100) {
        z100_batch_ms[fp16] = batch_cg * 1e3;
        z100_floor_ms[fp16] = t.min_bytes / limits.copy_bytes_per_s * 1e3;
      }
    }
  }
  {
    // The longest kernels: zmax 800 correlates 10240-point segments. One trial (the best of
    // two: the first allocates the 27 GB plane), no batch.
    std::fprintf(stderr, "rapt_bench: accel zmax 800, GPU\n");
    const TrialTiming t = time_trial(*engine, *maximiser, spectra[0], n, 800, false,
                                     std::min(s.repeats, 2), threads);
    table.add_row({"accel SKA", "2^23 z800 h16", engine->name(), number_cell(t.plane_s * 1e3),
                   number_cell(t.sums_s * 1e3), number_cell(t.cg_s * 1e3), "-",
                   number_cell(t.full_s * 1e3), "-", "-", std::to_string(t.candidates),
                   per_candidate_ms(t.optimise_s_per_candidate), "-"});
  }
  const double best_ms = std::min(z100_batch_ms[0], z100_batch_ms[1]);
  char line[400];
  std::snprintf(line, sizeof line,
                "# accel: target on an H100 <= 8 ms batch CG per trial at zmax 100, 16 harmonics: "
                "%.3g ms (float plane), %.3g ms (--fp16): %s, %.0f%% of it (100%% = met); the "
                "traffic floor (%%HBM's bytes at the measured copy bandwidth) is %.3g ms and "
                "%.3g ms (CG ms: one trial alone; batch CG ms: per trial of a batch); ",
                z100_batch_ms[0], z100_batch_ms[1], best_ms <= 8.0 ? "met" : "missed",
                best_ms > 0 ? 8.0 / best_ms * 100.0 : 0.0, z100_floor_ms[0], z100_floor_ms[1]);
  notes.push_back(line + limits.device);
#else
  (void)s;
  (void)notes;
  table.add_row({"accel SKA", "2^23", "-", "skipped: built without CUDA"});
#endif
}

// On 2 threads (a small analysis machine), whatever this one has.
void add_accel_cpu_rows(BenchTable& table, const BenchSettings& s) {
  if (!s.run_cpu) return;
  const int threads = 2;
  const int64_t n = int64_t(1) << 20;
  const auto spectrum = trial_spectrum(n, 7);
  auto engine = make_cpu_accel_engine(threads);
  auto maximiser = make_cpu_rz_maximiser(threads);
  for (const int zmax : {100, 200}) {
    std::fprintf(stderr, "rapt_bench: accel zmax %d, CPU\n", zmax);
    const TrialTiming t = time_trial(*engine, *maximiser, spectrum, n, zmax, false, 1, threads);
    table.add_row({"accel", "2^20 z" + std::to_string(zmax) + " h16", engine->name(),
                   number_cell(t.plane_s * 1e3), number_cell(t.sums_s * 1e3),
                   number_cell(t.cg_s * 1e3), "-", number_cell(t.full_s * 1e3), "-", "-",
                   std::to_string(t.candidates), per_candidate_ms(t.optimise_s_per_candidate),
                   "-"});
  }
}

}  // namespace

void print_accel_tables(const BenchSettings& settings) {
  BenchTable table({"search", "trial", "engine", "plane ms", "sums ms", "CG ms",
                    "batch CG ms", "full ms", "batch trials/s", "%HBM", "cands", "opt ms/cand", "CPU opt ms/cand"});
  std::vector<std::string> notes;
  add_accel_gpu_rows(table, settings, notes);
  add_accel_cpu_rows(table, settings);
  std::printf("\n# acceleration search: per DM trial, 64 us sampling, 1 Hz to Nyquist, sigma 2\n");
  table.print(stdout);
  for (const auto& line : notes) std::printf("%s\n", line.c_str());
}

}  // namespace rapt::bench
