#include "bf/beam_directions.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/text_words.hpp"
#include "geometry/angle_text.hpp"

namespace rapt {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegToRad = kPi / 180.0;
constexpr double kHourToRad = kPi / 12.0;

std::string default_beam_name(size_t index) { return "B" + std::to_string(index); }

// Angle in [0, 2 pi).
double wrapped_ra_rad(double ra_rad) {
  double wrapped = std::fmod(ra_rad, 2.0 * kPi);
  if (wrapped < 0.0) wrapped += 2.0 * kPi;
  if (wrapped >= 2.0 * kPi) wrapped = 0.0;  // -tiny + 2 pi rounds up to 2 pi
  return wrapped;
}

constexpr const char* kBeamLineForms =
    "expected '<ra> <dec> [name]' or 'offset <east_deg> <north_deg> [name]'";

// Where the lines read so far stand.
struct BeamsParseState {
  BeamsParseState(const std::string& file_name, const SkyDirection& pointing_centre)
      : name(file_name), pointing(pointing_centre) {}
  const std::string& name;
  const SkyDirection& pointing;
  int line_number = 0;
  std::map<std::string, int> line_of_name;
  std::vector<BeamDirection> beams;

  DataError error(const std::string& problem) const {
    return file_error(name, "line " + std::to_string(line_number) + ": " + problem);
  }
};

// Right ascension: sexagesimal is hours in [0, 24), decimal is degrees in [0, 360).
double beam_ra_rad(const BeamsParseState& state, const std::string& word) {
  const std::optional<AngleText> angle = parse_angle_text(word);
  if (!angle) {
    throw state.error("right ascension '" + word + "' is not hh:mm:ss.s or decimal degrees");
  }
  const double full_turn = angle->sexagesimal ? 24.0 : 360.0;
  if (angle->value < 0.0 || angle->value >= full_turn) {
    throw state.error("right ascension '" + word + "' is outside [0, " +
                      (angle->sexagesimal ? "24h)" : "360) degrees"));
  }
  return angle->value * (angle->sexagesimal ? kHourToRad : kDegToRad);
}

// Declination: sexagesimal or decimal degrees in [-90, 90].
double beam_dec_rad(const BeamsParseState& state, const std::string& word) {
  const std::optional<AngleText> angle = parse_angle_text(word);
  if (!angle) {
    throw state.error("declination '" + word + "' is not +-dd:mm:ss.s or decimal degrees");
  }
  if (angle->value < -90.0 || angle->value > 90.0) {
    throw state.error("declination '" + word + "' is outside [-90, 90] degrees");
  }
  return angle->value * kDegToRad;
}

double offset_deg(const BeamsParseState& state, const std::string& word, const char* what) {
  const std::optional<double> value = finite_number(word);
  if (!value) throw state.error(std::string(what) + " '" + word + "' is not a finite number");
  return *value;
}

// An explicit name, or "B<index>"; a name may be used once.
void add_beam(BeamsParseState& state, BeamDirection beam, const std::string* explicit_name) {
  beam.name = explicit_name ? *explicit_name : default_beam_name(state.beams.size());
  const auto [previous, inserted] = state.line_of_name.emplace(beam.name, state.line_number);
  if (!inserted) {
    throw state.error("beam name '" + beam.name + "'" +
                      (explicit_name ? "" : " (given to a beam without a name)") +
                      " already used on line " + std::to_string(previous->second));
  }
  state.beams.push_back(std::move(beam));
}

void parse_offset_line(BeamsParseState& state, const std::vector<std::string>& fields,
                       const std::string& line) {
  if (fields.size() != 3 && fields.size() != 4) {
    throw state.error("expected 'offset <east_deg> <north_deg> [name]', got '" + line + "'");
  }
  BeamDirection beam;
  beam.l = offset_deg(state, fields[1], "east offset") * kDegToRad;
  beam.m = offset_deg(state, fields[2], "north offset") * kDegToRad;
  // Written as a negated "< 1" so that an overflow to infinity is refused too.
  if (!(beam.l * beam.l + beam.m * beam.m < 1.0)) {
    throw state.error("offset (" + fields[1] + ", " + fields[2] +
                      ") degrees is outside the sky: l^2 + m^2 >= 1");
  }
  beam.direction = direction_from_lmn(beam.l, beam.m, state.pointing);
  add_beam(state, std::move(beam), fields.size() == 4 ? &fields[3] : nullptr);
}

void parse_ra_dec_line(BeamsParseState& state, const std::vector<std::string>& fields,
                       const std::string& line) {
  if (fields.size() != 2 && fields.size() != 3) {
    throw state.error(std::string(kBeamLineForms) + ", got '" + line + "'");
  }
  BeamDirection beam;
  beam.direction = {beam_ra_rad(state, fields[0]), beam_dec_rad(state, fields[1])};
  const Vector3 lmn = direction_lmn(beam.direction, state.pointing);
  // (l, m) name a direction only on the hemisphere around the pointing centre.
  if (!(lmn[2] > 0.0)) {
    throw state.error("direction " + fields[0] + " " + fields[1] +
                      " is 90 degrees or more from the pointing centre");
  }
  beam.l = lmn[0];
  beam.m = lmn[1];
  add_beam(state, std::move(beam), fields.size() == 3 ? &fields[2] : nullptr);
}

// Lattice points (i, j) of a tiling, with the integer squared length of i a + j b in units of
// the spacing (exact, so that rings are told apart without rounding) and the position angle.
struct LatticePoint {
  int64_t norm = 0;
  double pa_rad = 0;  // from north (+m) through east (+l), in [0, 2 pi)
  double l = 0, m = 0;  // in units of the spacing
};

// Hex lattice: a = (0, 1) (north), b = (sin 60, cos 60); |i a + j b|^2 = i^2 + i j + j^2.
// Square lattice: a = (0, 1), b = (1, 0); |i a + j b|^2 = i^2 + j^2.
LatticePoint lattice_point(BeamTiling tiling, int64_t i, int64_t j) {
  LatticePoint point;
  if (tiling == BeamTiling::hex) {
    point.norm = i * i + i * j + j * j;
    point.l = static_cast<double>(j) * (std::sqrt(3.0) / 2.0);
    point.m = static_cast<double>(i) + static_cast<double>(j) * 0.5;
  } else {
    point.norm = i * i + j * j;
    point.l = static_cast<double>(j);
    point.m = static_cast<double>(i);
  }
  // l is +0.0 (never -0.0) on the m axis, so due south is pi, not -pi.
  point.pa_rad = std::atan2(point.l, point.m);
  if (point.pa_rad < 0.0) point.pa_rad += 2.0 * kPi;
  return point;
}

// Every lattice point with norm <= radius^2, nearest first, then by position angle.
std::vector<LatticePoint> lattice_disc(BeamTiling tiling, int64_t radius) {
  // For the hex lattice |j| <= 2 radius / sqrt(3) and |i| <= |j| / 2 + radius: 2 radius bounds
  // both; for the square lattice radius does.
  const int64_t bound = 2 * radius;
  std::vector<LatticePoint> points;
  for (int64_t i = -bound; i <= bound; ++i) {
    for (int64_t j = -bound; j <= bound; ++j) {
      const LatticePoint point = lattice_point(tiling, i, j);
      if (point.norm <= radius * radius) points.push_back(point);
    }
  }
  std::sort(points.begin(), points.end(), [](const LatticePoint& a, const LatticePoint& b) {
    return a.norm != b.norm ? a.norm < b.norm : a.pa_rad < b.pa_rad;
  });
  return points;
}

const char* tiling_name(BeamTiling tiling) { return tiling == BeamTiling::hex ? "hex" : "square"; }

}  // namespace

SkyDirection direction_from_lmn(double l, double m, const SkyDirection& pointing) {
  const double r2 = l * l + m * m;
  if (!std::isfinite(l) || !std::isfinite(m) || r2 > 1.0) {
    throw std::invalid_argument("direction_from_lmn: l^2 + m^2 must be at most 1");
  }
  const double n = std::sqrt(1.0 - r2);
  // The direction in the frame of the pointing centre's meridian: x towards (ra0, dec 0), y
  // east, z north pole. Angles from atan2 keep full precision near the poles and the centre.
  const double sin_d0 = std::sin(pointing.dec_rad), cos_d0 = std::cos(pointing.dec_rad);
  const double x = n * cos_d0 - m * sin_d0;  // cos d cos(ra - ra0)
  const double y = l;                        // cos d sin(ra - ra0)
  const double z = n * sin_d0 + m * cos_d0;  // sin d
  SkyDirection direction;
  direction.dec_rad = std::atan2(z, std::hypot(x, y));
  direction.ra_rad = wrapped_ra_rad(pointing.ra_rad + std::atan2(y, x));
  return direction;
}

std::vector<BeamDirection> parse_beams_text(std::string_view text, const std::string& name,
                                            const SkyDirection& pointing) {
  BeamsParseState state(name, pointing);
  for_each_content_line(text, name, [&](int line_number, const std::string& content) {
    state.line_number = line_number;
    const std::vector<std::string> fields = words(content);
    if (lowercase(fields[0]) == "offset") {
      parse_offset_line(state, fields, content);
    } else {
      parse_ra_dec_line(state, fields, content);
    }
  });
  if (state.beams.empty()) throw file_error(name, "no beam lines");
  return state.beams;
}

std::vector<BeamDirection> read_beams_file(const std::string& path, const SkyDirection& pointing) {
  return parse_beams_text(read_file_contents(path), path, pointing);
}

std::vector<BeamDirection> tile_beams(BeamTiling tiling, double spacing_deg, int count,
                                      const SkyDirection& pointing) {
  if (count < 1) throw UsageError("beam count " + std::to_string(count) + " is less than 1");
  if (!std::isfinite(spacing_deg) || !(spacing_deg > 0.0)) {
    throw UsageError("beam spacing " + format_string("%g", spacing_deg) +
                     " degrees is not positive and finite");
  }
  const double spacing_rad = spacing_deg * kDegToRad;
  const auto off_the_sky = [&]() {
    return UsageError(format_string("a %s grid of %d beams spaced %g degrees reaches l^2 + m^2 >= 1",
                                    tiling_name(tiling), count, spacing_deg));
  };
  // Grow the disc until it holds `count` points; a disc of radius R holds every point nearer
  // than R spacings, so once R spacings reach the sky's edge, more points cannot fit.
  std::vector<LatticePoint> points;
  for (int64_t radius = 1;; radius *= 2) {
    points = lattice_disc(tiling, radius);
    if (points.size() >= static_cast<size_t>(count)) break;
    if (static_cast<double>(radius) * spacing_rad >= 1.0) throw off_the_sky();
  }
  std::vector<BeamDirection> beams(static_cast<size_t>(count));
  for (size_t b = 0; b < beams.size(); ++b) {
    beams[b].name = default_beam_name(b);
    beams[b].l = points[b].l * spacing_rad;
    beams[b].m = points[b].m * spacing_rad;
    if (!(beams[b].l * beams[b].l + beams[b].m * beams[b].m < 1.0)) throw off_the_sky();
    beams[b].direction = direction_from_lmn(beams[b].l, beams[b].m, pointing);
  }
  return beams;
}

BeamTiling parse_beam_tiling(const std::string& text) {
  const std::string key = lowercase(trimmed(text));
  if (key == "hex") return BeamTiling::hex;
  if (key == "square") return BeamTiling::square;
  throw UsageError("beam tiling '" + text + "': expected 'hex' or 'square'");
}

}  // namespace rapt
