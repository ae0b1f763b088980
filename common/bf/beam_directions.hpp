// Where the beams point: a beams file, or a grid (tiling) around the pointing centre.
//
// Beams file: one beam per line, '#' comments and blank lines ignored, fields separated by
// spaces or tabs, CR-LF accepted:
//   <ra> <dec> [name]                    J2000 direction: hh:mm:ss.s and +-dd:mm:ss.s, or
//                                        decimal degrees (geometry/angle_text.hpp)
//   offset <east_deg> <north_deg> [name] direction cosines l, m (in degrees, i.e. l = east_deg
//                                        * pi / 180) from the pointing centre, SIN projection
// Right ascension in sexagesimal is hours in [0, 24h), in decimal degrees [0, 360); declination
// is degrees in [-90, 90]. The keyword 'offset' is matched without regard to case. A beam without
// a name is called "B<index>" (0-based position of the beam in the file); names are unique.
// Offsets must satisfy l^2 + m^2 < 1, and a direction must lie less than 90 degrees from the
// pointing centre (its l, m would otherwise not name it).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "geometry/interferometer_geometry.hpp"

namespace rapt {

struct BeamDirection {
  std::string name;
  SkyDirection direction;  // J2000
  double l = 0, m = 0;     // direction cosines relative to the pointing centre (SIN projection)
};

// The direction at direction cosines (l, m) from `pointing` (the inverse of direction_lmn, on
// the hemisphere n >= 0), right ascension in [0, 2 pi). Requires finite l, m with
// l^2 + m^2 <= 1, else throws std::invalid_argument.
SkyDirection direction_from_lmn(double l, double m, const SkyDirection& pointing);

// Parses a beams file from memory; `name` is used in messages ("beams.txt: line 3: expected
// '<ra> <dec> [name]' or 'offset <east_deg> <north_deg> [name]', got 'x'"). Throws DataError
// for a malformed line, an offset outside the sky, a direction 90 degrees or more from the
// pointing centre, a name used twice, a NUL byte, or a file with no beams.
std::vector<BeamDirection> parse_beams_text(std::string_view text, const std::string& name,
                                            const SkyDirection& pointing);
std::vector<BeamDirection> read_beams_file(const std::string& path, const SkyDirection& pointing);

enum class BeamTiling { hex, square };

// `count` beams on a hexagonal or square lattice of `spacing_deg` (in l, m) around the pointing
// centre, nearest first: beam 0 at the centre, then ring by ring (within a ring, by position
// angle from north through east), named "B<index>". The hex lattice has a beam due north of the
// centre (neighbours at position angles 0, 60, ..., 300 degrees); the square lattice's axes
// point north and east. Throws UsageError for count < 1, a spacing that is not positive and
// finite, or a grid that reaches l^2 + m^2 >= 1.
std::vector<BeamDirection> tile_beams(BeamTiling tiling, double spacing_deg, int count,
                                      const SkyDirection& pointing);

// "hex" or "square" (case ignored); throws UsageError otherwise.
BeamTiling parse_beam_tiling(const std::string& text);

}  // namespace rapt
