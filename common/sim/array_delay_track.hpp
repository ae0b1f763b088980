// Geometric delays of every antenna towards one direction over an observation, as the Earth
// turns: computed (geometric_delays_s) at epochs every `interval_s` from the start and
// interpolated linearly in between. Linear interpolation over 1 s errs by about
// (omega_E^2 |b| / c) (1 s)^2 / 8 < 1e-13 s on a 10 km baseline.
#pragma once
#include <cstdint>
#include <vector>

#include "geometry/interferometer_geometry.hpp"

namespace rapt {

class ArrayDelayTrack {
 public:
  // Epochs at 0, interval, 2 interval, ... up to and past `duration_s` (plus one, so that any
  // time in [-interval, duration + interval] interpolates).
  ArrayDelayTrack(const ArrayLayout& layout, const SkyDirection& direction,
                  const UtcInstant& start, double duration_s, double interval_s);

  int nant() const { return nant_; }
  // Delay of antenna `a` at `t_s` seconds after the start, and its rate (s/s) there.
  double delay_s(int a, double t_s) const;
  double rate(int a, double t_s) const;

 private:
  int64_t segment(double t_s) const;

  int nant_;
  double interval_s_;
  double first_epoch_s_;
  int64_t nepochs_;
  std::vector<double> delays_s_;  // [epoch][antenna]
};

}  // namespace rapt
