// The CPU folding engine: the readable reference every other engine is compared with.
#include <algorithm>
#include <cmath>

#include "fold/fold_engine.hpp"

namespace rapt {
namespace {

// One sample's share of one bin.
struct BinShare {
  int bin;
  double fraction;
};

class CpuFoldEngine final : public FoldEngine {
 public:
  explicit CpuFoldEngine(const FoldLayout& layout)
      : FoldEngine(layout),
        sums_(layout.cells() * size_t(layout.nbins), 0.0),
        part_weights_(size_t(layout.npart) * size_t(layout.nbins), 0.0),
        count_(layout.cells(), 0),
        data_sum_(layout.cells(), 0.0),
        data_sumsq_(layout.cells(), 0.0) {}

  std::string name() const override { return "cpu"; }

 private:
  void do_fold(const float* in, size_t stride, int64_t first, size_t n) override;
  FoldCube do_cube() const override;
  void share_sample(int64_t sample);

  // Accumulated in double (a long part sums millions of samples per bin), handed out as float.
  std::vector<double> sums_;          // [part][sub][bin]
  std::vector<double> part_weights_;  // [part][bin]: the same for every subband
  std::vector<int64_t> count_;
  std::vector<double> data_sum_, data_sumsq_;
  // Scratch for one block: the shares of every sample, and where each sample's start.
  std::vector<BinShare> shares_;
  std::vector<size_t> share_begin_;
};

// Splits sample `sample`'s phase span among the bins it overlaps, appending to shares_.
void CpuFoldEngine::share_sample(int64_t sample) {
  const FoldLayout& l = layout();
  const double phase_lo = l.spin.phase(double(sample) * l.dt_s);
  const double phase_hi = l.spin.phase(double(sample + 1) * l.dt_s);
  const double span_bins = (phase_hi - phase_lo) * l.nbins;
  double pos = (phase_lo - std::floor(phase_lo)) * l.nbins;  // in [0, nbins]
  if (pos >= l.nbins) pos -= l.nbins;
  if (!(span_bins > 0.0)) {  // a stalled or reversed phase: the whole value to one bin
    shares_.push_back({std::min(int(pos), l.nbins - 1), 1.0});
    return;
  }
  const double end = pos + span_bins;
  while (pos < end) {
    const double bin_floor = std::floor(pos);
    const double next = std::min(bin_floor + 1.0, end);
    const int bin = int(std::fmod(bin_floor, double(l.nbins)));
    shares_.push_back({bin, (next - pos) / span_bins});
    pos = next;
  }
}

void CpuFoldEngine::do_fold(const float* in, size_t stride, int64_t first, size_t n) {
  const FoldLayout& l = layout();
  shares_.clear();
  share_begin_.assign(n + 1, 0);
  for (size_t k = 0; k < n; ++k) {
    share_begin_[k] = shares_.size();
    share_sample(first + int64_t(k));
  }
  share_begin_[n] = shares_.size();

  // Runs of samples that share a part, so each run knows its cells.
  size_t k = 0;
  while (k < n) {
    const int part = l.part_of(first + int64_t(k));
    const int64_t part_end = part + 1 < l.npart ? l.part_start(part + 1) : l.total_samples;
    const size_t run_end = size_t(std::min<int64_t>(part_end - first, int64_t(n)));
    double* weights = &part_weights_[size_t(part) * l.nbins];
    for (size_t s = share_begin_[k]; s < share_begin_[run_end]; ++s)
      weights[shares_[s].bin] += shares_[s].fraction;
    for (int sub = 0; sub < l.nsub; ++sub) {
      const size_t cell = size_t(part) * l.nsub + sub;
      double* prof = &sums_[cell * l.nbins];
      const float* x = in + size_t(sub) * stride;
      // Summed sample by sample (not per block) so the result cannot depend on the blocks.
      double& sum = data_sum_[cell];
      double& sumsq = data_sumsq_[cell];
      for (size_t j = k; j < run_end; ++j) {
        const float value = x[j];
        sum += value;
        sumsq += double(value) * value;
        for (size_t s = share_begin_[j]; s < share_begin_[j + 1]; ++s)
          prof[shares_[s].bin] += value * shares_[s].fraction;
      }
      count_[cell] += int64_t(run_end - k);
    }
    k = run_end;
  }
}

FoldCube CpuFoldEngine::do_cube() const {
  const FoldLayout& l = layout();
  FoldCube cube;
  cube.npart = l.npart;
  cube.nsub = l.nsub;
  cube.nbins = l.nbins;
  cube.sums.assign(sums_.begin(), sums_.end());
  cube.weights.resize(sums_.size());
  for (int part = 0; part < l.npart; ++part)
    for (int sub = 0; sub < l.nsub; ++sub)
      std::copy_n(&part_weights_[size_t(part) * l.nbins], l.nbins,
                  &cube.weights[cube.cell(part, sub) * l.nbins]);
  cube.count = count_;
  cube.data_sum = data_sum_;
  cube.data_sumsq = data_sumsq_;
  return cube;
}

}  // namespace

std::unique_ptr<FoldEngine> make_cpu_fold_engine(const FoldLayout& layout) {
  return std::make_unique<CpuFoldEngine>(layout);
}

}  // namespace rapt
