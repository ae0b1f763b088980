// Pixel sizes as imagers' users write them: "20asec", "1.5amin", "0.01deg", "2e-5rad", "1mas".
// A bare number is degrees, as WSClean reads -scale, so a WSClean command line carries over.
#pragma once
#include <string>

namespace rapt {

// Radians; throws UsageError naming `option` for anything else than a positive finite angle
// with one of the units asec/arcsec, amin/arcmin, deg, rad, mas (or none = degrees).
double parse_cell_size_rad(const std::string& text, const std::string& option = "--scale");

// "20 asec"-style text for messages: the unit that gives a number between 1 and 1000 where
// one does.
std::string describe_angle(double rad);

}  // namespace rapt
