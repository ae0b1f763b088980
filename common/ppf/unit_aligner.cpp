#include "ppf/unit_aligner.hpp"

#include <algorithm>

#include "io/voltage_samples.hpp"

namespace rapt {

int64_t UnitAligner::align(const std::vector<float>& block, int64_t n,
                           const std::vector<float>** out) {
  const int64_t total = left_ + n;
  const int64_t usable = total - total % unit_;
  if (left_ == 0 && usable == n) {
    *out = &block;
    return n;
  }
  joined_.resize(size_t(rows_ * usable * per_time_));
  copy_joined(block, n, 0, usable, joined_.data(), usable);
  next_left_.resize(size_t(rows_ * (total - usable) * per_time_));
  copy_joined(block, n, usable, total, next_left_.data(), total - usable);
  left_samples_.swap(next_left_);
  left_ = total - usable;
  *out = &joined_;
  return usable;
}

// Samples [from, to) of (what was left, block) into rows of `dst_ntime` samples.
void UnitAligner::copy_joined(const std::vector<float>& block, int64_t n, int64_t from,
                              int64_t to, float* dst, int64_t dst_ntime) const {
  if (from < left_)
    copy_time_range(left_samples_.data(), left_, from, dst, dst_ntime, 0,
                    std::min(to, left_) - from, rows_, per_time_);
  if (to > left_) {
    const int64_t start = std::max(from, left_);
    copy_time_range(block.data(), n, start - left_, dst, dst_ntime, start - from, to - start,
                    rows_, per_time_);
  }
}

}  // namespace rapt
