// Where an array's antennas are, as seen from a direction on the sky at an instant: geometric
// delays, baseline (u, v, w) and direction cosines. Earth rotation, precession and nutation come
// from ERFA (IAU 2006/2000A). UT1 - UTC and polar motion are taken as zero: |UT1 - UTC| < 0.9 s
// turns the Earth by up to 6.6e-5 rad (up to 6.6 cm of w, 220 ps of delay, on a 1 km baseline,
// and up to 0.9 s of right ascension), and polar motion (< 0.5 arcsec) tilts the array by less
// than that. rapt(7) states what is neglected.
//
// Conventions (rapt(7), pinned by tests):
//   * Geometric delay of antenna a towards unit direction s (apparent, in the terrestrial
//     frame): tau_a = -(r_a - r_ref) . s / c. Positive tau: the wavefront reaches the antenna
//     after it reaches the array reference position.
//   * A narrow-band signal of sky frequency nu reaches antenna a as x(t - tau_a), i.e. with the
//     phase factor exp(-2 pi i nu tau_a).
//   * Baseline (u, v, w) = position(antenna1) - position(antenna2) in the J2000 frame of the
//     phase centre (u east, v north, w towards the phase centre), metres.
//   * Visibility V12 = <E1 conj(E2)>; a point source of flux S at direction cosines (l, m, n)
//     gives V = S exp(+2 pi i (u l + v m + w (n - 1)) nu / c) after fringe stopping at the
//     phase centre (the AIPS/UVFITS and CASA sense).
#pragma once
#include <array>
#include <complex>
#include <string>
#include <vector>

#include "geometry/array_layout.hpp"
#include "geometry/sky_direction.hpp"

namespace rapt {

inline constexpr double kSpeedOfLight_m_s = 299792458.0;

struct UtcInstant {
  int mjd_day = 0;        // UTC MJD day
  double seconds = 0;     // seconds since 0h UTC of that day (may exceed 86400)
  double mjd() const { return mjd_day + seconds / 86400.0; }
};

using Vector3 = std::array<double, 3>;

// Geometric delay of every antenna relative to layout.reference_itrf_m, seconds.
std::vector<double> geometric_delays_s(const ArrayLayout& layout, const SkyDirection& direction,
                                       const UtcInstant& time);

// (u, v, w) of every antenna's offset from the reference position towards `phase_centre`,
// metres; a baseline's (u, v, w) is antenna_uvw[a1] - antenna_uvw[a2].
std::vector<Vector3> antenna_uvw_m(const ArrayLayout& layout, const SkyDirection& phase_centre,
                                   const UtcInstant& time);

// Direction cosines (l, m, n) of `direction` relative to `phase_centre` (SIN projection:
// l = cos d sin(a - a0), m = sin d cos d0 - cos d sin d0 cos(a - a0)).
Vector3 direction_lmn(const SkyDirection& direction, const SkyDirection& phase_centre);

// Exact visibility of a point source of flux `flux_jy` at `lmn` on a baseline `uvw_m` at
// `freq_hz`, in the convention above.
std::complex<double> point_source_visibility(double flux_jy, const Vector3& uvw_m,
                                             double freq_hz, const Vector3& lmn);

// "hh:mm:ss.s" / "+dd:mm:ss.s" (or decimal degrees) to radians; throws UsageError naming
// `what` on a malformed value.
double parse_ra_rad(const std::string& text, const std::string& what);
double parse_dec_rad(const std::string& text, const std::string& what);

}  // namespace rapt
