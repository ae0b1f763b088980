// Folding engines: one interface, a CPU reference here, a CUDA engine in gpu/ (fold_gpu_factory).
//
// An engine folds the samples of `nsub` series (one per subband; nsub = 1 for a .dat) into a
// (npart x nsub x nbins) cube. Everything about a sample follows from its absolute index i in
// the observation, never from how the data were cut into blocks:
//   * its part: the one whose span [part_start(p), part_start(p+1)) holds i (parts split the
//     N samples as evenly as possible, so every sample is folded and none is dropped);
//   * its phase span: sample i covers times [i dt, (i+1) dt), i.e. pulse phases
//     [phi(i dt), phi((i+1) dt)) with phi(t) = f t + fdot t^2 / 2 + fddot t^3 / 6 (turns), t from
//     the start of the first sample;
//   * its bins: as in PRESTO's fold(), the value is shared among the bins that span overlaps,
//     in proportion to the overlap ("drizzling"); `weights` collects the same fractions, so
//     sums / weights is the mean per bin.
// So folding in blocks of any size gives the same cube as folding at once (bit for bit on the
// CPU when blocks come in order), and a GPU engine must agree with the CPU one within float
// rounding (relative 1e-5 of the bin sums).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rapt {

// Spin at the start of the first sample (t = 0): what the data are folded with.
struct FoldSpin {
  double f_hz = 0.0;
  double fdot = 0.0;    // Hz/s
  double fddot = 0.0;   // Hz/s^2
  double phase(double t_s) const { return t_s * (f_hz + t_s * (fdot / 2.0 + t_s * fddot / 6.0)); }
};

struct FoldLayout {
  int npart = 64;
  int nsub = 1;
  int nbins = 64;
  int64_t total_samples = 0;  // N: every one of them is folded
  double dt_s = 0.0;
  FoldSpin spin;

  // Throws UsageError naming the problem: npart, nsub or nbins < 1, npart > N, dt <= 0, f <= 0.
  void validate() const;
  int64_t part_start(int part) const { return int64_t(part) * total_samples / npart; }
  int part_of(int64_t sample) const;
  size_t cells() const { return size_t(npart) * size_t(nsub); }
};

// What an engine has folded so far. Cells are [part][sub]; bins the fastest index.
struct FoldCube {
  int npart = 0, nsub = 0, nbins = 0;
  std::vector<float> sums;        // [part][sub][bin]: drizzled sample values
  std::vector<float> weights;     // [part][sub][bin]: drizzled sample fractions
  std::vector<int64_t> count;     // [part][sub]: samples folded
  std::vector<double> data_sum;   // [part][sub]: sum of the samples
  std::vector<double> data_sumsq; // [part][sub]: sum of their squares

  size_t cell(int part, int sub) const { return size_t(part) * size_t(nsub) + size_t(sub); }
  float sum(int part, int sub, int bin) const { return sums[cell(part, sub) * nbins + bin]; }
};

class FoldEngine {
 public:
  virtual ~FoldEngine() = default;

  // Folds samples [first_sample, first_sample + nsamples) of every subband; subband s's samples
  // are in[s * stride + k]. Throws UsageError if the span leaves [0, N) or stride < nsamples.
  void fold(const float* in, size_t stride, int64_t first_sample, size_t nsamples);
  // The cube as folded so far (a copy).
  FoldCube cube() const { return do_cube(); }

  const FoldLayout& layout() const { return layout_; }
  virtual std::string name() const = 0;

 protected:
  explicit FoldEngine(const FoldLayout& layout);

 private:
  virtual void do_fold(const float* in, size_t stride, int64_t first_sample, size_t nsamples) = 0;
  virtual FoldCube do_cube() const = 0;
  FoldLayout layout_;
};

// `device`: "cpu", "auto", "gpu" or "gpu:N" (see gpu_device.hpp). In a build without CUDA
// (fold_gpu_factory.hpp), "auto" means the CPU and "gpu" is refused with a UsageError.
std::unique_ptr<FoldEngine> make_fold_engine(const FoldLayout& layout, const std::string& device);
std::unique_ptr<FoldEngine> make_cpu_fold_engine(const FoldLayout& layout);

}  // namespace rapt
