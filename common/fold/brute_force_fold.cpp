#include "fold/brute_force_fold.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/errors.hpp"
#include "dedisp/parallel_for.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "fold/brute_force_gpu_factory.hpp"
#endif

namespace rapt {
namespace {

std::string number_text(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

struct SeriesMoments {
  double mean = 0.0, sigma = 0.0;
};

// Mean and standard deviation, accumulated about the first sample so that a large offset
// costs no precision.
SeriesMoments series_moments(const float* x, int64_t n) {
  SeriesMoments m;
  if (n <= 0) return m;
  const double origin = x[0];
  double sum = 0.0, sum2 = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = double(x[i]) - origin;
    sum += d;
    sum2 += d * d;
  }
  const double mean = sum / double(n);
  m.mean = origin + mean;
  m.sigma = std::sqrt(std::max(0.0, sum2 / double(n) - mean * mean));
  return m;
}

class CpuBruteForceEngine final : public BruteForceFoldEngine {
 public:
  explicit CpuBruteForceEngine(int threads) : threads_(std::max(1, threads)) {}
  std::string name() const override { return "cpu x" + std::to_string(threads_); }

 private:
  std::vector<float> compute_snr(const float* series, int ndm, int64_t nsamples,
                                 const BruteForceFoldGrid& grid,
                                 const std::vector<uint32_t>& steps) override {
    const int nperiods = int(steps.size());
    std::vector<float> snr(size_t(ndm) * size_t(nperiods), 0.0f);
    std::vector<std::vector<double>> sums(static_cast<size_t>(threads_));
    std::vector<std::vector<int64_t>> counts(static_cast<size_t>(threads_));
    parallel_for(threads_, size_t(ndm), [&](size_t dm, int worker) {
      const float* x = series + dm * size_t(nsamples);
      const SeriesMoments m = series_moments(x, nsamples);
      for (int p = 0; p < nperiods; ++p) {
        fold_series(x, nsamples, m.mean, steps[size_t(p)], grid.nbins, sums[size_t(worker)],
                    counts[size_t(worker)]);
        snr[dm * size_t(nperiods) + size_t(p)] = float(folded_profile_snr(
            sums[size_t(worker)].data(), counts[size_t(worker)].data(), grid.nbins, m.sigma));
      }
    });
    return snr;
  }

  int threads_;
};

}  // namespace

void check_brute_force_grid(const BruteForceFoldGrid& grid) {
  if (!(grid.tsamp_s > 0.0) || !std::isfinite(grid.tsamp_s))
    throw UsageError("brute-force fold: sample interval " + number_text(grid.tsamp_s) +
                     " s is not positive");
  if (grid.nbins < 2 || grid.nbins > kMaxBruteForceBins)
    throw UsageError("brute-force fold: " + std::to_string(grid.nbins) +
                     " bins; supported: 2 to " + std::to_string(kMaxBruteForceBins));
  if (grid.periods_s.empty()) throw UsageError("brute-force fold: no trial periods");
  for (double p : grid.periods_s)
    if (!std::isfinite(p) || p < grid.nbins * grid.tsamp_s)
      throw UsageError("brute-force fold: period " + number_text(p) + " s is shorter than " +
                       std::to_string(grid.nbins) + " samples of " + number_text(grid.tsamp_s) +
                       " s");
}

std::vector<uint32_t> brute_force_phase_steps(const BruteForceFoldGrid& grid) {
  check_brute_force_grid(grid);
  std::vector<uint32_t> steps;
  for (double p : grid.periods_s)
    steps.push_back(uint32_t(std::llround(std::ldexp(grid.tsamp_s / p, 32))));
  return steps;
}

void fold_series(const float* series, int64_t nsamples, double mean, uint32_t step, int nbins,
                 std::vector<double>& sums, std::vector<int64_t>& counts) {
  sums.assign(size_t(nbins), 0.0);
  counts.assign(size_t(nbins), 0);
  // A bin holds runs of consecutive samples; add a run in a register, store it when it ends.
  uint32_t phase = 0;
  int current = 0;
  double run = 0.0;
  int64_t run_count = 0;
  for (int64_t n = 0; n < nsamples; ++n, phase += step) {
    const int bin = int((uint64_t(phase) * uint64_t(nbins)) >> 32);
    if (bin != current) {
      sums[size_t(current)] += run;
      counts[size_t(current)] += run_count;
      run = 0.0;
      run_count = 0;
      current = bin;
    }
    run += double(series[n]) - mean;
    ++run_count;
  }
  sums[size_t(current)] += run;
  counts[size_t(current)] += run_count;
}

double folded_profile_snr(const double* sums, const int64_t* counts, int nbins, double sigma) {
  if (!(sigma > 0.0)) return 0.0;
  double best = -1e300, total = 0.0;
  int filled = 0;
  for (int b = 0; b < nbins; ++b) {
    if (counts[b] <= 0) continue;
    const double z = sums[b] / (sigma * std::sqrt(double(counts[b])));
    best = std::max(best, z);
    total += z;
    ++filled;
  }
  return filled < 2 ? 0.0 : best - total / filled;
}

BruteForceFoldResult BruteForceFoldEngine::fold(const float* series, int ndm, int64_t nsamples,
                                                const BruteForceFoldGrid& grid) {
  const std::vector<uint32_t> steps = brute_force_phase_steps(grid);
  if (ndm < 1) throw UsageError("brute-force fold: no DMs");
  if (nsamples < 2) throw UsageError("brute-force fold: fewer than 2 samples per series");
  if (nsamples > (int64_t(1) << 40)) throw UsageError("brute-force fold: series too long");
  BruteForceFoldResult result;
  result.ndm = ndm;
  result.nperiods = int(steps.size());
  result.snr = compute_snr(series, ndm, nsamples, grid, steps);
  return result;
}

std::unique_ptr<BruteForceFoldEngine> make_cpu_brute_force_engine(int threads) {
  return std::make_unique<CpuBruteForceEngine>(threads);
}

std::unique_ptr<BruteForceFoldEngine> make_brute_force_engine(const std::string& device,
                                                              int threads) {
  const DeviceChoice choice = choose_device(device);
  if (!choice.use_gpu) return make_cpu_brute_force_engine(threads);
#ifdef RAPT_WITH_CUDA
  return make_gpu_brute_force_engine(choice.gpu_index);
#else
  throw UsageError("--device " + device + ": this build of rapt has no CUDA support");
#endif
}

}  // namespace rapt
