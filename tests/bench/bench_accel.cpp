// The acceleration-search rows of `make bench`: the SKA-like trial (2^23 samples of 64 us,
// 1 Hz to Nyquist, 16 harmonics, zmax 100 and 200) on the GPU, and 2^20 samples on the CPU.
// "plane" is the f-fdot plane (normalisation, correlations, powers), "sums" the harmonic sums
// with thresholding and compaction, both as the engine measures them; "CG" is candidate
// generation (the engine: upload, normalisation, plane, harmonic sums, compaction); "full" adds
// de-duplication and the optimisation of every candidate (the (r, z) maxima on the row's device,
// the rest on host threads). "opt ms/cand" is that optimisation per candidate; GPU rows also
// optimise the same candidates on the CPU ("CPU opt ms/cand"). "batch" runs a 20-trial batch of
// different series through the pipelined run loop and gives trials per second. %HBM compares
// the least traffic a plane-based search needs (the fp32 plane written once and read
// 1 + sum_j (j/h)^2 = 5.84 times by ideal 16-harmonic sums) with the measured device-to-device
// copy bandwidth.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
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
#include "../../gpu/gpu_bench.hpp"
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

AccelSearchOptions trial_options(int zmax) {
  AccelSearchOptions o;
  o.zmax = zmax;
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
                       int repeats, int threads) {
  TrialTiming best;
  best.cg_s = best.full_s = 1e30;
  AccelSearchResult last;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    AccelSearchResult r = find_accel_candidates(spectrum, trial_options(zmax), n * kDt, false,
                                                engine);
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
      best.plane_s = engine.last_timings().plane_s;
      best.sums_s = engine.last_timings().harmsum_s;
    }
    best.full_s = std::min(best.full_s, full);
    best.candidates = r.accel.candidates.size();
    best.min_bytes = double(r.plan.numz) * double(r.plan.plane_columns()) * 4.0 * (1.0 + 5.84);
    last = std::move(r);
  }
  if (maximiser.name().rfind("gpu", 0) == 0 && !last.raw.empty()) {
    const std::unique_ptr<RzMaximiser> cpu = make_cpu_rz_maximiser(threads);
    optimise_accel_candidates(last, spectrum, "", threads, *cpu);
    best.cpu_optimise_s_per_candidate = last.optimise_s / double(last.raw.size());
  }
  return best;
}

double batch_trials_per_s(AccelEngine& engine, RzMaximiser& maximiser,
                          const std::vector<std::vector<std::complex<float>>>& spectra, int64_t n,
                          int zmax, int threads) {
  const auto start = std::chrono::steady_clock::now();
  AccelSearchResult previous;
  bool have_previous = false;
  for (const auto& spectrum : spectra) {
    AccelSearchResult r = find_accel_candidates(spectrum, trial_options(zmax), n * kDt, false,
                                                engine);
    if (have_previous) optimise_accel_candidates(previous, spectrum, "", threads, maximiser);
    previous = std::move(r);
    have_previous = true;
  }
  if (have_previous) optimise_accel_candidates(previous, spectra.back(), "", threads, maximiser);
  return double(spectra.size()) / seconds_since(start);
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
  for (const int zmax : {100, 200}) {
    std::fprintf(stderr, "rapt_bench: accel zmax %d, GPU\n", zmax);
    const TrialTiming t =
        time_trial(*engine, *maximiser, spectra[0], n, zmax, std::min(s.repeats, 3), threads);
    std::vector<std::vector<std::complex<float>>> batch;
    for (int i = 0; i < 20; ++i) batch.push_back(spectra[size_t(i) % spectra.size()]);
    const double rate = batch_trials_per_s(*engine, *maximiser, batch, n, zmax, threads);
    table.add_row({"accel SKA", "2^23 z" + std::to_string(zmax) + " h16", engine->name(),
                   number_cell(t.plane_s * 1e3), number_cell(t.sums_s * 1e3),
                   number_cell(t.cg_s * 1e3), number_cell(t.full_s * 1e3), number_cell(rate),
                   percent_cell(t.min_bytes / t.cg_s / limits.copy_bytes_per_s),
                   std::to_string(t.candidates), per_candidate_ms(t.optimise_s_per_candidate),
                   per_candidate_ms(t.cpu_optimise_s_per_candidate)});
  }
  notes.push_back("# accel: target on an H100 <= 15 ms CG per trial at zmax 100, 16 harmonics; " +
                  limits.device);
#else
  (void)s;
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
    const TrialTiming t = time_trial(*engine, *maximiser, spectrum, n, zmax, 1, threads);
    table.add_row({"accel", "2^20 z" + std::to_string(zmax) + " h16", engine->name(),
                   number_cell(t.plane_s * 1e3), number_cell(t.sums_s * 1e3),
                   number_cell(t.cg_s * 1e3), number_cell(t.full_s * 1e3), "-", "-",
                   std::to_string(t.candidates), per_candidate_ms(t.optimise_s_per_candidate),
                   "-"});
  }
}

}  // namespace

void print_accel_tables(const BenchSettings& settings) {
  BenchTable table({"search", "trial", "engine", "plane ms", "sums ms", "CG ms", "full ms",
                    "batch trials/s", "%HBM", "cands", "opt ms/cand", "CPU opt ms/cand"});
  std::vector<std::string> notes;
  add_accel_gpu_rows(table, settings, notes);
  add_accel_cpu_rows(table, settings);
  std::printf("\n# acceleration search: per DM trial, 64 us sampling, 1 Hz to Nyquist, sigma 2\n");
  table.print(stdout);
  for (const auto& line : notes) std::printf("%s\n", line.c_str());
}

}  // namespace rapt::bench
