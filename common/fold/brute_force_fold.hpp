// Brute-force folding (Sclocco's pipeline, thesis ch. 6): every dedispersed series of a DM grid
// folded at every period of a grid into a few phase bins, and the S/N of each folded profile.
//
// Phase. Sample n (0 = the first sample given) of a fold at period P has phase n * tsamp / P
// turns, computed in 32-bit fixed point so that every engine bins every sample identically:
//   step  = round(2^32 * tsamp / P)                     (turns per sample, unsigned 32-bit)
//   phase = (n * step) mod 2^32,   bin = floor(phase * nbins / 2^32).
// The rounding of `step` moves the phase by at most n * 2^-33 turns (1.4e-4 turns after 10^6
// samples), far below a bin.
//
// S/N. With mu and sigma the mean and standard deviation of the whole series (one DM), and
// s_b, n_b the sum and the number of samples in bin b:
//   z_b = (s_b - n_b * mu) / (sigma * sqrt(n_b))   (each bin's excess in units of its noise)
//   S/N = max_b z_b - mean_b z_b                      (over the bins holding samples)
// For Gaussian noise the z_b are independent standard normals, so S/N is distributed as the
// largest of nbins standard normals minus their mean: for 32 bins its mean is 2.070 and its
// standard deviation 0.459 (16 bins: 1.766 and 0.482; 64 bins: 2.344 and 0.433). A pulse of
// one bin's width and amplitude A per sample (noise sigma) over N samples gives about
// A * sqrt(N / nbins) / sigma. Fewer than two non-empty bins (a period longer than the data
// with a short series) give S/N 0; a constant series (sigma 0) gives 0 everywhere.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rapt {

struct BruteForceFoldGrid {
  double tsamp_s = 0.0;            // sample interval of the dedispersed series
  std::vector<double> periods_s;   // the trial periods; each at least nbins samples long
  int nbins = 32;                  // 2 to kMaxBruteForceBins
};

constexpr int kMaxBruteForceBins = 64;

// Throws UsageError naming the first bad value (tsamp, nbins, a period).
void check_brute_force_grid(const BruteForceFoldGrid& grid);

// The fixed-point phase step of each period (see above).
std::vector<uint32_t> brute_force_phase_steps(const BruteForceFoldGrid& grid);

// Bin of sample n for a phase step: the one rule every engine follows.
inline int brute_force_bin(uint64_t n, uint32_t step, int nbins) {
  const uint32_t phase = uint32_t(n * uint64_t(step));
  return int((uint64_t(phase) * uint64_t(nbins)) >> 32);
}

// Sums and counts of one series folded at one period (a reference and for inspecting the
// best candidates): sums[b] of (x - mean), counts[b]; both resized to nbins.
void fold_series(const float* series, int64_t nsamples, double mean, uint32_t step, int nbins,
                 std::vector<double>& sums, std::vector<int64_t>& counts);

// The S/N defined above from the sums of (x - mean) and the counts of the bins.
double folded_profile_snr(const double* sums, const int64_t* counts, int nbins, double sigma);

// S/N for every (DM, period): snr[dm * nperiods + period].
struct BruteForceFoldResult {
  int ndm = 0, nperiods = 0;
  std::vector<float> snr;
  float at(int dm, int period) const { return snr[size_t(dm) * size_t(nperiods) + size_t(period)]; }
};

class BruteForceFoldEngine {
 public:
  virtual ~BruteForceFoldEngine() = default;
  // `series` holds ndm series of nsamples each, [dm][sample]. Throws UsageError for a bad grid
  // or sizes.
  BruteForceFoldResult fold(const float* series, int ndm, int64_t nsamples,
                            const BruteForceFoldGrid& grid);
  virtual std::string name() const = 0;

 private:
  virtual std::vector<float> compute_snr(const float* series, int ndm, int64_t nsamples,
                                         const BruteForceFoldGrid& grid,
                                         const std::vector<uint32_t>& steps) = 0;
};

std::unique_ptr<BruteForceFoldEngine> make_cpu_brute_force_engine(int threads);
// --device auto|cpu|gpu|gpu:N (choose_device's rules); `threads` for the CPU engine. Throws
// UsageError for "gpu" in a build without CUDA or without a device.
std::unique_ptr<BruteForceFoldEngine> make_brute_force_engine(const std::string& device,
                                                              int threads);

}  // namespace rapt
