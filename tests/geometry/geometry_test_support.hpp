// Helpers shared by the geometry tests: repository files and small layouts.
#pragma once
#include <filesystem>
#include <string>

#include "geometry/array_layout.hpp"
#include "geometry/wgs84.hpp"

namespace rapt::testing {

// Path of a file in the repository (tests run from the root or from inside the build tree),
// or "" when it cannot be found.
inline std::string repository_file(const std::string& relative) {
  for (const char* prefix : {"", "../", "../../", "../../../"}) {
    const std::string path = prefix + relative;
    if (std::filesystem::exists(path)) return path;
  }
  return "";
}

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kDegToRad = kPi / 180.0;

// The MeerKAT array reference position (-30:42:39.8, 21:26:38.0, 1086.6 m).
inline GeodeticPosition meerkat_reference() {
  return {-(30.0 + 42.0 / 60.0 + 39.8 / 3600.0) * kDegToRad,
          (21.0 + 26.0 / 60.0 + 38.0 / 3600.0) * kDegToRad, 1086.6};
}

// A layout whose antennas sit at the given east/north/up offsets from `reference`, with the
// reference position at `reference` itself.
inline ArrayLayout enu_layout(const GeodeticPosition& reference,
                              const std::vector<EnuOffset>& offsets_m) {
  ArrayLayout layout;
  layout.reference_itrf_m = geodetic_to_itrf(reference);
  for (size_t a = 0; a < offsets_m.size(); ++a) {
    layout.antennas.push_back({"a" + std::to_string(a), enu_to_itrf(reference, offsets_m[a]), 0});
  }
  return layout;
}

}  // namespace rapt::testing
