#include "geometry/earth_orientation.hpp"

#include <erfa.h>

#include <cmath>
#include <string>

#include "cli/errors.hpp"

namespace rapt {

namespace {

constexpr double kSecondsPerDay = 86400.0;
constexpr double kMjdZeroJd = 2400000.5;

}  // namespace

EarthOrientationTimes earth_orientation_times(const UtcInstant& time) {
  if (!std::isfinite(time.seconds)) throw UsageError("UTC time: seconds of day are not finite");
  // Carry whole days out of `seconds` so the fraction handed to ERFA stays in [0, 1).
  const double whole_days = std::floor(time.seconds / kSecondsPerDay);
  const double utc1 = kMjdZeroJd + time.mjd_day + whole_days;
  const double utc2 = (time.seconds - whole_days * kSecondsPerDay) / kSecondsPerDay;
  EarthOrientationTimes out;
  double tai1 = 0, tai2 = 0;
  // Status +1 is a "dubious year" (before 1960, or years past the end of the leap-second
  // table, where its last TAI - UTC is kept); -1 is a year ERFA cannot handle at all.
  if (eraUtctai(utc1, utc2, &tai1, &tai2) < 0 || eraTaitt(tai1, tai2, &out.tt1, &out.tt2) != 0) {
    throw UsageError("UTC time: MJD " + std::to_string(time.mjd_day) +
                     " is outside the range ERFA's leap-second table accepts");
  }
  out.ut11 = utc1;
  out.ut12 = utc2;
  return out;
}

Matrix3 celestial_to_terrestrial(const UtcInstant& time) {
  const EarthOrientationTimes t = earth_orientation_times(time);
  double rc2t[3][3];
  eraC2t06a(t.tt1, t.tt2, t.ut11, t.ut12, 0.0, 0.0, rc2t);
  Matrix3 out{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out[i][j] = rc2t[i][j];
  }
  return out;
}

Vector3 rotate_transposed(const Matrix3& rotation, const Vector3& v) {
  Vector3 out{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out[i] += rotation[j][i] * v[j];
  }
  return out;
}

Vector3 rotate(const Matrix3& rotation, const Vector3& v) {
  Vector3 out{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out[i] += rotation[i][j] * v[j];
  }
  return out;
}

}  // namespace rapt
