#include "geometry/interferometer_geometry.hpp"

#include <cmath>
#include <optional>

#include "cli/errors.hpp"
#include "geometry/angle_text.hpp"
#include "geometry/earth_orientation.hpp"

namespace rapt {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegToRad = kPi / 180.0;
constexpr double kHourToRad = kPi / 12.0;

double dot(const Vector3& a, const Vector3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

Vector3 unit_vector(const SkyDirection& d) {
  return {std::cos(d.dec_rad) * std::cos(d.ra_rad), std::cos(d.dec_rad) * std::sin(d.ra_rad),
          std::sin(d.dec_rad)};
}

// Offsets of every antenna from the reference position, rotated from ITRF into GCRS.
std::vector<Vector3> celestial_offsets_m(const ArrayLayout& layout, const UtcInstant& time) {
  const Matrix3 c2t = celestial_to_terrestrial(time);
  std::vector<Vector3> out;
  out.reserve(layout.antennas.size());
  for (const Antenna& antenna : layout.antennas) {
    Vector3 offset{};
    for (int k = 0; k < 3; ++k) offset[k] = antenna.itrf_m[k] - layout.reference_itrf_m[k];
    out.push_back(rotate_transposed(c2t, offset));
  }
  return out;
}

}  // namespace

std::vector<double> geometric_delays_s(const ArrayLayout& layout, const SkyDirection& direction,
                                       const UtcInstant& time) {
  const Vector3 s = unit_vector(direction);
  std::vector<double> delays;
  delays.reserve(layout.antennas.size());
  for (const Vector3& offset : celestial_offsets_m(layout, time)) {
    delays.push_back(-dot(offset, s) / kSpeedOfLight_m_s);
  }
  return delays;
}

std::vector<Vector3> antenna_uvw_m(const ArrayLayout& layout, const SkyDirection& phase_centre,
                                   const UtcInstant& time) {
  const double sin_ra = std::sin(phase_centre.ra_rad), cos_ra = std::cos(phase_centre.ra_rad);
  const double sin_dec = std::sin(phase_centre.dec_rad), cos_dec = std::cos(phase_centre.dec_rad);
  const Vector3 u_axis{-sin_ra, cos_ra, 0.0};
  const Vector3 v_axis{-sin_dec * cos_ra, -sin_dec * sin_ra, cos_dec};
  const Vector3 w_axis = unit_vector(phase_centre);
  std::vector<Vector3> uvw;
  uvw.reserve(layout.antennas.size());
  for (const Vector3& offset : celestial_offsets_m(layout, time)) {
    uvw.push_back({dot(offset, u_axis), dot(offset, v_axis), dot(offset, w_axis)});
  }
  return uvw;
}

Vector3 direction_lmn(const SkyDirection& direction, const SkyDirection& phase_centre) {
  const double dra = direction.ra_rad - phase_centre.ra_rad;
  const double sin_d = std::sin(direction.dec_rad), cos_d = std::cos(direction.dec_rad);
  const double sin_d0 = std::sin(phase_centre.dec_rad), cos_d0 = std::cos(phase_centre.dec_rad);
  const double l = cos_d * std::sin(dra);
  const double m = sin_d * cos_d0 - cos_d * sin_d0 * std::cos(dra);
  // n from the dot product, not sqrt(1 - l^2 - m^2), so it keeps its sign and full precision
  // near the phase centre.
  const double n = sin_d * sin_d0 + cos_d * cos_d0 * std::cos(dra);
  return {l, m, n};
}

std::complex<double> point_source_visibility(double flux_jy, const Vector3& uvw_m,
                                             double freq_hz, const Vector3& lmn) {
  const double path_m = uvw_m[0] * lmn[0] + uvw_m[1] * lmn[1] + uvw_m[2] * (lmn[2] - 1.0);
  const double phase_rad = 2.0 * kPi * path_m * freq_hz / kSpeedOfLight_m_s;
  return std::polar(flux_jy, phase_rad);
}

double parse_ra_rad(const std::string& text, const std::string& what) {
  const std::optional<AngleText> angle = parse_angle_text(text);
  if (!angle) {
    throw UsageError(what + ": expected right ascension hh:mm:ss.s or decimal degrees, got '" +
                     text + "'");
  }
  const double full_turn = angle->sexagesimal ? 24.0 : 360.0;
  if (angle->value < 0.0 || angle->value >= full_turn) {
    throw UsageError(what + ": right ascension '" + text + "' is outside [0, " +
                     (angle->sexagesimal ? "24h" : "360 deg") + ")");
  }
  return angle->value * (angle->sexagesimal ? kHourToRad : kDegToRad);
}

double parse_dec_rad(const std::string& text, const std::string& what) {
  const std::optional<AngleText> angle = parse_angle_text(text);
  if (!angle) {
    throw UsageError(what + ": expected declination +dd:mm:ss.s or decimal degrees, got '" +
                     text + "'");
  }
  if (angle->value < -90.0 || angle->value > 90.0) {
    throw UsageError(what + ": declination '" + text + "' is outside [-90, 90] degrees");
  }
  return angle->value * kDegToRad;
}

}  // namespace rapt
