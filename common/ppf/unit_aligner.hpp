// Blocks of canonical voltages, as a reader hands them over, cut into blocks of whole units
// (output samples' worth of input): what is left over waits for the next block. Rows are
// [channel][antenna] runs of time samples, `values_per_time` floats each (voltage_samples.hpp).
#pragma once
#include <cstdint>
#include <vector>

namespace rapt {

class UnitAligner {
 public:
  UnitAligner(int64_t unit, int64_t rows, int64_t values_per_time)
      : unit_(unit), rows_(rows), per_time_(values_per_time) {}

  // The whole units of (what was left, the `n` samples of `block`): points `out` at them (at
  // `block` itself when nothing was left and n is whole units) and returns their samples.
  int64_t align(const std::vector<float>& block, int64_t n, const std::vector<float>** out);
  // Samples waiting for the next block (fewer than a unit).
  int64_t left() const { return left_; }

 private:
  void copy_joined(const std::vector<float>& block, int64_t n, int64_t from, int64_t to,
                   float* dst, int64_t dst_ntime) const;

  int64_t unit_, rows_, per_time_;
  int64_t left_ = 0;
  std::vector<float> left_samples_, next_left_, joined_;
};

}  // namespace rapt
