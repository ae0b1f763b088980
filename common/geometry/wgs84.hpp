// WGS84 geodetic positions and the local east/north/up frame around them, for layout files
// that give antenna offsets from an array reference point.
#pragma once
#include <array>

#include "geometry/array_layout.hpp"

namespace rapt {

struct GeodeticPosition {
  double latitude_rad = 0;   // geodetic (WGS84 ellipsoid normal), north positive
  double longitude_rad = 0;  // east positive
  double height_m = 0;       // above the WGS84 ellipsoid
};

using EnuOffset = std::array<double, 3>;  // east, north, up, metres

// Geocentric ITRF x, y, z of a WGS84 position (ERFA eraGd2gc). Throws DataError on a latitude
// outside [-90, 90] degrees or a non-finite value.
ItrfPosition geodetic_to_itrf(const GeodeticPosition& position);

// WGS84 position of a geocentric point (ERFA eraGc2gd).
GeodeticPosition itrf_to_geodetic(const ItrfPosition& itrf_m);

// ITRF position of a point offset by `enu_m` from `reference` along its local east, north and
// up (the ellipsoid normal) directions.
ItrfPosition enu_to_itrf(const GeodeticPosition& reference, const EnuOffset& enu_m);

// Inverse of enu_to_itrf.
EnuOffset itrf_to_enu(const GeodeticPosition& reference, const ItrfPosition& itrf_m);

}  // namespace rapt
