#include "geometry/wgs84.hpp"

#include <erfa.h>

#include <cmath>

#include "cli/errors.hpp"

namespace rapt {

namespace {

constexpr double kHalfPi = 1.57079632679489661923;
constexpr int kErfaWgs84 = 1;  // ellipsoid identifier in eraGd2gc / eraGc2gd

// Rows: the local east, north and up unit vectors expressed in ITRF.
std::array<ItrfPosition, 3> enu_axes(const GeodeticPosition& reference) {
  const double sin_lat = std::sin(reference.latitude_rad);
  const double cos_lat = std::cos(reference.latitude_rad);
  const double sin_lon = std::sin(reference.longitude_rad);
  const double cos_lon = std::cos(reference.longitude_rad);
  return {{{-sin_lon, cos_lon, 0.0},
           {-sin_lat * cos_lon, -sin_lat * sin_lon, cos_lat},
           {cos_lat * cos_lon, cos_lat * sin_lon, sin_lat}}};
}

}  // namespace

ItrfPosition geodetic_to_itrf(const GeodeticPosition& position) {
  if (!std::isfinite(position.latitude_rad) || !std::isfinite(position.longitude_rad) ||
      !std::isfinite(position.height_m)) {
    throw DataError("geodetic position is not finite");
  }
  // eraGd2gc accepts any latitude; beyond a pole it would silently wrap.
  if (std::fabs(position.latitude_rad) > kHalfPi) throw DataError("latitude beyond a pole");
  ItrfPosition xyz{};
  const int status = eraGd2gc(kErfaWgs84, position.longitude_rad, position.latitude_rad,
                              position.height_m, xyz.data());
  if (status != 0) throw DataError("geodetic latitude or height out of range");
  return xyz;
}

GeodeticPosition itrf_to_geodetic(const ItrfPosition& itrf_m) {
  ItrfPosition xyz = itrf_m;
  GeodeticPosition position;
  const int status = eraGc2gd(kErfaWgs84, xyz.data(), &position.longitude_rad,
                              &position.latitude_rad, &position.height_m);
  if (status != 0) throw DataError("geocentric position cannot be converted to WGS84");
  return position;
}

ItrfPosition enu_to_itrf(const GeodeticPosition& reference, const EnuOffset& enu_m) {
  const ItrfPosition origin = geodetic_to_itrf(reference);
  const auto axes = enu_axes(reference);
  ItrfPosition xyz = origin;
  for (int k = 0; k < 3; ++k) {
    for (int axis = 0; axis < 3; ++axis) xyz[k] += enu_m[axis] * axes[axis][k];
  }
  return xyz;
}

EnuOffset itrf_to_enu(const GeodeticPosition& reference, const ItrfPosition& itrf_m) {
  const ItrfPosition origin = geodetic_to_itrf(reference);
  const auto axes = enu_axes(reference);
  EnuOffset enu{};
  for (int axis = 0; axis < 3; ++axis) {
    for (int k = 0; k < 3; ++k) enu[axis] += (itrf_m[k] - origin[k]) * axes[axis][k];
  }
  return enu;
}

}  // namespace rapt
