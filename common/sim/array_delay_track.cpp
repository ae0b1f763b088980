#include "sim/array_delay_track.hpp"

#include <algorithm>
#include <cmath>

namespace rapt {

ArrayDelayTrack::ArrayDelayTrack(const ArrayLayout& layout, const SkyDirection& direction,
                                 const UtcInstant& start, double duration_s, double interval_s)
    : nant_(layout.size()), interval_s_(interval_s), first_epoch_s_(-interval_s) {
  nepochs_ = static_cast<int64_t>(std::ceil(duration_s / interval_s)) + 3;
  delays_s_.resize(static_cast<size_t>(nepochs_) * nant_);
  for (int64_t e = 0; e < nepochs_; ++e) {
    UtcInstant when = start;
    when.seconds += first_epoch_s_ + e * interval_s_;
    const std::vector<double> delays = geometric_delays_s(layout, direction, when);
    std::copy(delays.begin(), delays.end(), delays_s_.begin() + e * nant_);
  }
}

int64_t ArrayDelayTrack::segment(double t_s) const {
  const int64_t e = static_cast<int64_t>(std::floor((t_s - first_epoch_s_) / interval_s_));
  return std::clamp<int64_t>(e, 0, nepochs_ - 2);
}

double ArrayDelayTrack::delay_s(int a, double t_s) const {
  const int64_t e = segment(t_s);
  const double u = (t_s - first_epoch_s_) / interval_s_ - static_cast<double>(e);
  const double d0 = delays_s_[e * nant_ + a];
  const double d1 = delays_s_[(e + 1) * nant_ + a];
  return d0 + u * (d1 - d0);
}

double ArrayDelayTrack::rate(int a, double t_s) const {
  const int64_t e = segment(t_s);
  return (delays_s_[(e + 1) * nant_ + a] - delays_s_[e * nant_ + a]) / interval_s_;
}

}  // namespace rapt
