#include "geometry/array_layout.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/text_words.hpp"
#include "geometry/angle_text.hpp"
#include "geometry/wgs84.hpp"

namespace rapt {

ItrfPosition ArrayLayout::mean_antenna_position() const {
  ItrfPosition mean{};
  if (antennas.empty()) return mean;
  for (const Antenna& a : antennas)
    for (int k = 0; k < 3; ++k) mean[k] += a.itrf_m[k];
  for (double& x : mean) x /= double(antennas.size());
  return mean;
}

namespace {

constexpr double kDegToRad = 3.14159265358979323846 / 180.0;
// Far beyond any antenna, orbiting ones included; keeps sums and means of positions finite.
constexpr double kLargestCoordinate_m = 1e10;

// What the header lines seen so far say, and where each thing was set.
struct LayoutParseState {
  explicit LayoutParseState(const std::string& file_name) : name(file_name) {}
  const std::string& name;
  int line_number = 0;
  bool enu_frame = false;
  GeodeticPosition enu_reference;
  std::optional<ItrfPosition> reference_line_m;
  std::map<std::string, int> line_of_name;
  std::vector<std::array<double, 3>> written_xyz_m;  // before any ENU conversion
  ArrayLayout layout;

  DataError error(const std::string& problem) const {
    return file_error(name, "line " + std::to_string(line_number) + ": " + problem);
  }
  double number(const std::string& word, const char* what) const {
    const std::optional<double> value = finite_number(word);
    if (!value) throw error(std::string(what) + " '" + word + "' is not a finite number");
    return *value;
  }
  double coordinate_m(const std::string& word, const char* what) const {
    const double value = number(word, what);
    if (std::fabs(value) > kLargestCoordinate_m) {
      throw error(std::string(what) + " '" + word + "' is more than 1e10 m");
    }
    return value;
  }
};

// Latitude or longitude in decimal degrees or sexagesimal "dd:mm:ss.s".
double header_degrees(const LayoutParseState& state, const std::string& word, const char* what) {
  const std::optional<AngleText> angle = parse_angle_text(word);
  if (!angle) throw state.error(std::string(what) + " '" + word + "' is not an angle in degrees");
  return angle->value;
}

void parse_frame_line(LayoutParseState& state, const std::string& value) {
  if (!state.layout.antennas.empty()) {
    throw state.error("'frame' must come before the first antenna line");
  }
  const std::vector<std::string> fields = words(value);
  const std::string frame = fields.empty() ? "" : lowercase(fields[0]);
  if (frame == "itrf" && fields.size() == 1) {
    state.enu_frame = false;
    return;
  }
  if (frame != "enu" || fields.size() != 4) {
    throw state.error("expected 'frame: itrf' or 'frame: enu <lat_deg> <lon_deg> <height_m>', "
                      "got 'frame: " + value + "'");
  }
  const double lat_deg = header_degrees(state, fields[1], "latitude");
  const double lon_deg = header_degrees(state, fields[2], "longitude");
  if (lat_deg < -90.0 || lat_deg > 90.0) throw state.error("latitude outside [-90, 90] degrees");
  if (lon_deg < -360.0 || lon_deg > 360.0) throw state.error("longitude outside [-360, 360] degrees");
  state.enu_frame = true;
  state.enu_reference = {lat_deg * kDegToRad, lon_deg * kDegToRad,
                         state.coordinate_m(fields[3], "height")};
}

void parse_reference_line(LayoutParseState& state, const std::string& value) {
  const std::vector<std::string> fields = words(value);
  if (fields.size() != 3) {
    throw state.error("expected 'reference: x y z' (ITRF metres), got 'reference: " + value + "'");
  }
  state.reference_line_m = ItrfPosition{state.coordinate_m(fields[0], "reference x"),
                                        state.coordinate_m(fields[1], "reference y"),
                                        state.coordinate_m(fields[2], "reference z")};
}

// "# key: value" lines set the frame, telescope or reference; other comments are ignored.
void parse_comment_line(LayoutParseState& state, const std::string& comment) {
  const size_t colon = comment.find(':');
  if (colon == std::string::npos) return;
  const std::string key = lowercase(trimmed(comment.substr(0, colon)));
  const std::string value = trimmed(comment.substr(colon + 1));
  if (key == "frame") {
    parse_frame_line(state, value);
  } else if (key == "telescope") {
    state.layout.telescope = value;
  } else if (key == "reference") {
    parse_reference_line(state, value);
  }
}

void parse_antenna_line(LayoutParseState& state, const std::string& line) {
  const std::vector<std::string> fields = words(line);
  if (fields.size() != 4 && fields.size() != 5) {
    throw state.error("expected 'name x y z [diameter]', got '" + line + "'");
  }
  Antenna antenna;
  antenna.name = fields[0];
  const auto [previous, inserted] = state.line_of_name.emplace(antenna.name, state.line_number);
  if (!inserted) {
    throw state.error("antenna name '" + antenna.name + "' already used on line " +
                      std::to_string(previous->second));
  }
  const std::array<double, 3> xyz{state.coordinate_m(fields[1], "x"), state.coordinate_m(fields[2], "y"),
                      state.coordinate_m(fields[3], "z")};
  if (fields.size() == 5) {
    antenna.dish_diameter_m = state.number(fields[4], "diameter");
    if (antenna.dish_diameter_m < 0.0) throw state.error("diameter is negative");
  }
  state.written_xyz_m.push_back(xyz);
  state.layout.antennas.push_back(antenna);
}

ItrfPosition mean_position(const std::vector<Antenna>& antennas) {
  ItrfPosition sum{};
  for (const Antenna& antenna : antennas) {
    for (int k = 0; k < 3; ++k) sum[k] += antenna.itrf_m[k];
  }
  for (double& x : sum) x /= static_cast<double>(antennas.size());
  return sum;
}

// Positions into ITRF and the reference position, once the whole file has been read.
void finish_layout(LayoutParseState& state) {
  if (state.layout.antennas.empty()) throw file_error(state.name, "no antenna lines");
  for (size_t a = 0; a < state.layout.antennas.size(); ++a) {
    Antenna& antenna = state.layout.antennas[a];
    antenna.itrf_m = state.enu_frame ? enu_to_itrf(state.enu_reference, state.written_xyz_m[a])
                                     : state.written_xyz_m[a];
    // Positions around a site given without their frame line would put the array at the
    // centre of the Earth.
    if (!state.enu_frame && !on_earth_surface(antenna.itrf_m))
      throw file_error(state.name, format_string(
          "line %d: antenna '%s' lies %.0f km from the Earth's centre: ITRF positions (the default "
          "frame) are geocentric; for positions around a site give '# frame: enu <lat_deg> "
          "<lon_deg> <height_m>'", state.line_of_name.at(antenna.name), antenna.name.c_str(),
          distance_from_earth_centre_m(antenna.itrf_m) / 1000));
  }
  if (state.reference_line_m) {
    state.layout.reference_itrf_m = *state.reference_line_m;
  } else if (state.enu_frame) {
    state.layout.reference_itrf_m = geodetic_to_itrf(state.enu_reference);
  } else {
    state.layout.reference_itrf_m = mean_position(state.layout.antennas);
  }
}

}  // namespace

double distance_from_earth_centre_m(const ItrfPosition& p) {
  return std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
}

bool on_earth_surface(const ItrfPosition& itrf_m) {
  const double r = distance_from_earth_centre_m(itrf_m);
  return r > 6.2e6 && r < 6.5e6;
}

ArrayLayout parse_layout_text(std::string_view text, const std::string& name) {
  LayoutParseState state(name);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++state.line_number;
    if (line.find('\0') != std::string_view::npos) throw state.error("contains a NUL byte");
    const size_t hash = line.find('#');
    const std::string content = trimmed(line.substr(0, hash));
    if (content.empty()) {
      if (hash != std::string_view::npos) {
        parse_comment_line(state, std::string(line.substr(hash + 1)));
      }
      continue;
    }
    parse_antenna_line(state, content);  // a trailing "# ..." after an antenna is a comment
  }
  finish_layout(state);
  return state.layout;
}

ArrayLayout read_layout_file(const std::string& path) {
  return parse_layout_text(read_file_contents(path), path);
}

}  // namespace rapt
