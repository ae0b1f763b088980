// The rotation between the terrestrial (ITRF) and celestial (GCRS, aligned with ICRS/J2000)
// frames at a UTC instant: IAU 2006/2000A precession-nutation and the Earth rotation angle
// from ERFA. UT1 - UTC and polar motion are taken as zero (see rapt(7)).
#pragma once
#include <array>

#include "geometry/interferometer_geometry.hpp"

namespace rapt {

using Matrix3 = std::array<std::array<double, 3>, 3>;

// Two-part Julian dates of one instant in the time scales the rotation needs.
struct EarthOrientationTimes {
  double tt1 = 0, tt2 = 0;    // Terrestrial Time
  double ut11 = 0, ut12 = 0;  // UT1 (= UTC here)
};

// UTC -> TT through ERFA's leap-second table (TAI - UTC) plus 32.184 s; UT1 = UTC.
// Throws UsageError for a non-finite time.
EarthOrientationTimes earth_orientation_times(const UtcInstant& time);

// Matrix R with r_terrestrial = R r_celestial (ERFA eraC2t06a, polar motion zero).
Matrix3 celestial_to_terrestrial(const UtcInstant& time);

// R^T v and R v for a rotation R.
Vector3 rotate_transposed(const Matrix3& rotation, const Vector3& v);
Vector3 rotate(const Matrix3& rotation, const Vector3& v);

}  // namespace rapt
