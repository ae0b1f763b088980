// An interferometer's antennas: names and ITRF positions, whatever file they came from
// (a plain-text layout file, a UVFITS AN table, a Measurement Set ANTENNA table, a PSRDADA
// header). Positions are geocentric ITRF x, y, z in metres, double precision.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace rapt {

using ItrfPosition = std::array<double, 3>;  // geocentric x, y, z, metres

struct Antenna {
  std::string name;
  ItrfPosition itrf_m{};
  double dish_diameter_m = 0.0;  // 0 = unknown
};

struct ArrayLayout {
  std::string telescope;           // e.g. "MeerKAT"; may be empty
  std::vector<Antenna> antennas;   // in file order; index = 0-based antenna number
  ItrfPosition reference_itrf_m{}; // array reference position (centre), metres

  int size() const { return static_cast<int>(antennas.size()); }
  // The antennas' mean position (the origin when there are none): the reference of a file
  // that names none.
  ItrfPosition mean_antenna_position() const;
};

// Geocentric positions of a site lie on the Earth's surface (radius 6357-6378 km): this takes
// 6200 to 6500 km from the centre (an offset around a site, say, is none).
bool on_earth_surface(const ItrfPosition& itrf_m);
double distance_from_earth_centre_m(const ItrfPosition& itrf_m);

// Plain-text layout file: one antenna per line "name x y z [diameter]", '#' comments, blank
// lines ignored, and header lines that set the frame:
//   # frame: itrf                      (default) x y z are ITRF metres
//   # frame: enu <lat_deg> <lon_deg> <height_m>   x y z are east, north, up metres around
//                                      that WGS84 geodetic reference position
//   # telescope: <name>
// `name` is used in error messages ("layout.txt: line 7: expected 'name x y z', got ...").
// Throws DataError on a malformed line, a non-finite number, duplicate names or no antennas.
ArrayLayout parse_layout_text(std::string_view text, const std::string& name);
ArrayLayout read_layout_file(const std::string& path);

}  // namespace rapt
