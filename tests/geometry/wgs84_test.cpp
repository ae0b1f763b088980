#include "geometry/wgs84.hpp"

#include <gtest/gtest.h>

#include "cli/errors.hpp"
#include "geometry_test_support.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

using testing::kDegToRad;

TEST(Wgs84, EquatorAndPoleLieOnTheEllipsoid) {
  const ItrfPosition equator = geodetic_to_itrf({0.0, 0.0, 0.0});
  EXPECT_NEAR(equator[0], 6378137.0, 1e-6);
  EXPECT_NEAR(equator[1], 0.0, 1e-6);
  EXPECT_NEAR(equator[2], 0.0, 1e-6);
  const ItrfPosition pole = geodetic_to_itrf({90.0 * kDegToRad, 0.0, 100.0});
  EXPECT_NEAR(pole[0], 0.0, 1e-6);
  EXPECT_NEAR(pole[2], 6356752.314245 + 100.0, 1e-5);
  const ItrfPosition east = geodetic_to_itrf({0.0, 90.0 * kDegToRad, 0.0});
  EXPECT_NEAR(east[1], 6378137.0, 1e-6);
}

TEST(Wgs84, MeerkatReferenceRoundTripsThroughItrf) {
  const GeodeticPosition reference = testing::meerkat_reference();
  const ItrfPosition xyz = geodetic_to_itrf(reference);
  // A geocentric point of the southern hemisphere east of Greenwich, about one Earth radius out.
  EXPECT_GT(xyz[0], 0.0);
  EXPECT_GT(xyz[1], 0.0);
  EXPECT_LT(xyz[2], 0.0);
  const GeodeticPosition back = itrf_to_geodetic(xyz);
  EXPECT_NEAR(back.latitude_rad, reference.latitude_rad, 1e-12);
  EXPECT_NEAR(back.longitude_rad, reference.longitude_rad, 1e-12);
  EXPECT_NEAR(back.height_m, reference.height_m, 1e-6);
}

TEST(Wgs84, EnuOffsetsRoundTripAroundTheMeerkatReference) {
  const GeodeticPosition reference = testing::meerkat_reference();
  for (const EnuOffset& enu : {EnuOffset{-8.264, -207.290, 8.597}, EnuOffset{3686.427, 758.895, 11.822},
                               EnuOffset{0, 0, 0}, EnuOffset{-3419.585, -1840.480, 16.383}}) {
    const EnuOffset back = itrf_to_enu(reference, enu_to_itrf(reference, enu));
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(back[k], enu[k], 1e-8);
  }
}

TEST(Wgs84, UpPointsAwayFromTheEarthAndNorthTowardsThePole) {
  const GeodeticPosition reference = testing::meerkat_reference();
  const ItrfPosition origin = geodetic_to_itrf(reference);
  const ItrfPosition up = enu_to_itrf(reference, {0, 0, 100});
  const ItrfPosition north = enu_to_itrf(reference, {0, 100, 0});
  const ItrfPosition east = enu_to_itrf(reference, {100, 0, 0});
  EXPECT_NEAR(itrf_to_geodetic(up).height_m, reference.height_m + 100.0, 1e-6);
  EXPECT_GT(north[2], origin[2]);
  // East at longitude ~21 deg: mostly +y, a little -x.
  EXPECT_GT(east[1] - origin[1], 90.0);
  EXPECT_LT(east[0] - origin[0], 0.0);
}

TEST(Wgs84, RejectsALatitudeBeyondThePole) {
  EXPECT_THROW(geodetic_to_itrf({2.0, 0.0, 0.0}), DataError);
}

}  // namespace
}  // namespace rapt
