// The brute-force folding rows of `make bench`, in a table of their own: one second of
// Apertif-like data (40.96 us samples, 24,414 per DM) for 2048 DMs x 2048 periods x 32 bins
// on the GPU (unit noise made on the GPU; moments, bin counts, fold and S/N, input already on
// the GPU), for the thesis's period grid (1.6 ms + k x 1.3 ms) and for a grid of short periods
// (1.6 to 3.2 ms: a bin change every ~1-3 samples, the kernel's slow path); on the CPU a reduced
// case (64 DMs x 256 periods of the thesis grid; times also scaled to 2048 x 2048).
// %FADD = folds per second over the device's FP32 add rate (SMs x FP32 lanes x peak clock): one
// add per sample and trial is the least any fold does, so it is the hardware limit.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>

#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "fold/brute_force_fold.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/bench/brute_force_fold_bench.hpp"
#endif

namespace rapt::bench {
namespace {

constexpr double kTsamp = 40.96e-6;
constexpr int64_t kSamples = 24414;
constexpr int kBins = 32;
constexpr int kGpuSide = 2048;
constexpr int kCpuDms = 64, kCpuPeriods = 256;

BruteForceFoldGrid thesis_grid(int nperiods) {
  BruteForceFoldGrid grid;
  grid.tsamp_s = kTsamp;
  grid.nbins = kBins;
  for (int k = 0; k < nperiods; ++k) grid.periods_s.push_back(1.6e-3 + 1.3e-3 * k);
  return grid;
}

[[maybe_unused]] BruteForceFoldGrid short_grid(int nperiods) {
  BruteForceFoldGrid grid;
  grid.tsamp_s = kTsamp;
  grid.nbins = kBins;
  for (int k = 0; k < nperiods; ++k) grid.periods_s.push_back(1.6e-3 * (1.0 + double(k) / nperiods));
  return grid;
}

std::string what(int ndm, int nperiods) {
  return std::to_string(ndm) + " x " + std::to_string(nperiods) + " x " + std::to_string(kBins);
}

void add_gpu_rows(BenchTable& table, const BenchSettings& s, std::vector<std::string>& notes) {
#ifdef RAPT_WITH_CUDA
  if (gpu_device_count() > s.gpu) {
    const double folds = double(kGpuSide) * kGpuSide * double(kSamples);
    for (const auto& [name, grid] : {std::pair<std::string, BruteForceFoldGrid>{
                                         "thesis P grid", thesis_grid(kGpuSide)},
                                     {"P 1.6-3.2 ms", short_grid(kGpuSide)}}) {
      std::fprintf(stderr, "rapt_bench: brute-force fold, %s\n", name.c_str());
      const gpu::GpuBruteForceTiming t = gpu::time_gpu_brute_force(
          kGpuSide, kSamples, brute_force_phase_steps(grid), kBins, s.gpu, s.repeats);
      const std::string check = t.mismatches == 0
          ? "ok (" + std::to_string(t.checked) + ")"
          : "FAIL " + std::to_string(t.mismatches) + "/" + std::to_string(t.checked);
      table.add_row({name, what(kGpuSide, kGpuSide), "gpu:" + std::to_string(s.gpu),
                     number_cell(t.kernel_s * 1e3), number_cell(t.kernel_s * 1e3),
                     number_cell(folds / t.kernel_s * 1e-9),
                     percent_cell(t.fadd_per_s > 0 ? folds / t.kernel_s / t.fadd_per_s : -1.0),
                     check});
      if (name == "thesis P grid") {
        char line[160];
        std::snprintf(line, sizeof line,
                      "# target: 2048 x 2048 x 32, one second of data, <= 10 ms: %.2f ms: %s",
                      t.kernel_s * 1e3, t.kernel_s <= 10e-3 ? "met" : "missed");
        notes.push_back(line);
      }
    }
    notes.push_back("# fold: " + gpu_device_description(s.gpu));
    return;
  }
#endif
  (void)s;
  (void)notes;
  table.add_row({"thesis P grid", what(kGpuSide, kGpuSide), "gpu", "skipped: no GPU"});
}

void add_cpu_row(BenchTable& table) {
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  std::fprintf(stderr, "rapt_bench: brute-force fold on the CPU, %d DMs x %d periods\n", kCpuDms,
               kCpuPeriods);
  std::vector<float> series(size_t(kCpuDms) * size_t(kSamples));
  std::mt19937 rng(9);
  std::normal_distribution<float> normal;
  for (float& v : series) v = normal(rng);
  const BruteForceFoldGrid grid = thesis_grid(kCpuPeriods);
  auto engine = make_cpu_brute_force_engine(threads);
  const auto start = std::chrono::steady_clock::now();
  const BruteForceFoldResult r = engine->fold(series.data(), kCpuDms, kSamples, grid);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double folds = double(kCpuDms) * kCpuPeriods * double(kSamples);
  const double scale = double(kGpuSide) * kGpuSide / (double(kCpuDms) * kCpuPeriods);
  const float best = *std::max_element(r.snr.begin(), r.snr.end());
  table.add_row({"thesis P grid", what(kCpuDms, kCpuPeriods), "cpu x" + std::to_string(threads),
                 number_cell(s * 1e3), number_cell(s * scale * 1e3),
                 number_cell(folds / s * 1e-9), "-", "max S/N " + number_cell(best)});
}

}  // namespace

void print_brute_force_tables(const BenchSettings& settings) {
  BenchTable table({"brute-force fold", "DMs x periods x bins", "engine", "ms",
                    "ms at 2048 x 2048", "Gfold/s", "%FADD", "check"});
  std::vector<std::string> notes;
  if (settings.run_gpu) add_gpu_rows(table, settings, notes);
  if (settings.run_cpu) add_cpu_row(table);
  std::printf("\n# brute-force folding: one second of 40.96 us samples (24,414 per DM), S/N of "
              "every (DM, period); input already in memory\n");
  table.print(stdout);
  for (const auto& line : notes) std::printf("%s\n", line.c_str());
}

}  // namespace rapt::bench
