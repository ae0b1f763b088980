#include "geometry/interferometer_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>

#include "cli/errors.hpp"
#include "geometry/earth_orientation.hpp"
#include "geometry_test_support.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

using testing::kDegToRad;
using testing::kPi;

// 2000-01-01 12:00 TT (J2000.0), where precession is zero and only nutation and frame bias
// (below 1e-4 rad) separate the true pole from the J2000 pole.
constexpr UtcInstant kJ2000Utc{51544, 43135.816};
constexpr UtcInstant kSomeNight{61000, 75600.25};

ArrayLayout meerkat_like_layout() {
  return testing::enu_layout(testing::meerkat_reference(),
                             {{0, 0, 0}, {-8.264, -207.290, 8.597}, {3686.427, 758.895, 11.822},
                              {-3419.585, -1840.480, 16.383}, {294.645, 3259.915, -10.637}});
}

// The J2000 direction that is on the local meridian (hour angle 0) at `time`, at true
// declination `dec_rad`, for an observer at `longitude_rad`.
SkyDirection on_meridian(double dec_rad, double longitude_rad, const UtcInstant& time) {
  const Vector3 terrestrial{std::cos(dec_rad) * std::cos(longitude_rad),
                            std::cos(dec_rad) * std::sin(longitude_rad), std::sin(dec_rad)};
  const Vector3 s = rotate_transposed(celestial_to_terrestrial(time), terrestrial);
  return {std::atan2(s[1], s[0]), std::asin(s[2])};
}

TEST(GeometricDelays, EqualMinusAntennaWOverC) {
  const ArrayLayout layout = meerkat_like_layout();
  const SkyDirection centre{1.2, -0.6};
  const std::vector<double> delays = geometric_delays_s(layout, centre, kSomeNight);
  const std::vector<Vector3> uvw = antenna_uvw_m(layout, centre, kSomeNight);
  ASSERT_EQ(delays.size(), layout.antennas.size());
  for (size_t a = 0; a < delays.size(); ++a) {
    EXPECT_NEAR(delays[a], -uvw[a][2] / kSpeedOfLight_m_s, 1e-17) << a;
  }
  EXPECT_GT(std::fabs(delays[2]), 1e-6);  // kilometre offsets: microseconds of delay
}

TEST(GeometricDelays, ReferencePositionHasZeroDelayAndZeroUvw) {
  const ArrayLayout layout = meerkat_like_layout();
  const SkyDirection centre{4.0, 0.3};
  EXPECT_EQ(geometric_delays_s(layout, centre, kSomeNight)[0], 0.0);
  const Vector3 uvw = antenna_uvw_m(layout, centre, kSomeNight)[0];
  EXPECT_EQ(uvw[0], 0.0);
  EXPECT_EQ(uvw[1], 0.0);
  EXPECT_EQ(uvw[2], 0.0);
}

TEST(GeometricDelays, SymmetricAntennasCancel) {
  ArrayLayout layout;
  layout.reference_itrf_m = {5109360.0, 2006852.0, -3238948.0};
  const Vector3 offset{1234.5, -987.25, 456.0};
  for (const double sign : {1.0, -1.0}) {
    Antenna antenna;
    antenna.name = sign > 0 ? "plus" : "minus";
    for (int k = 0; k < 3; ++k) antenna.itrf_m[k] = layout.reference_itrf_m[k] + sign * offset[k];
    layout.antennas.push_back(antenna);
  }
  const std::vector<double> delays = geometric_delays_s(layout, {0.3, 0.7}, kSomeNight);
  EXPECT_GT(std::fabs(delays[0]), 1e-7);
  EXPECT_NEAR(delays[0] + delays[1], 0.0, 1e-18);
}

TEST(GeometricDelays, AntennaNearerTheSourceSeesTheWavefrontFirst) {
  // An antenna 1 km up, with the phase centre near the zenith: the wavefront reaches it
  // before the reference, so its delay is negative (about -1 km / c).
  const GeodeticPosition site = testing::meerkat_reference();
  const ArrayLayout layout = testing::enu_layout(site, {{0, 0, 1000.0}});
  const SkyDirection zenith = on_meridian(site.latitude_rad, site.longitude_rad, kSomeNight);
  const double delay_s = geometric_delays_s(layout, zenith, kSomeNight)[0];
  EXPECT_NEAR(delay_s, -1000.0 / kSpeedOfLight_m_s, 1e-9);
}

TEST(AntennaUvw, NorthSouthBaselineAtTransitHasZeroUAndProjectedV) {
  const GeodeticPosition site = testing::meerkat_reference();
  const double baseline_m = 1000.0;
  // antenna 0 is 1 km north of antenna 1: the baseline antenna0 - antenna1 points north.
  const ArrayLayout layout = testing::enu_layout(site, {{0, baseline_m, 0}, {0, 0, 0}});
  for (const double dec_deg : {-60.0, -30.0, 0.0, 45.0, 70.0}) {
    const SkyDirection centre = on_meridian(dec_deg * kDegToRad, site.longitude_rad, kJ2000Utc);
    const std::vector<Vector3> uvw = antenna_uvw_m(layout, centre, kJ2000Utc);
    const double hour_angle_zero_v = baseline_m * std::cos(dec_deg * kDegToRad - site.latitude_rad);
    const double hour_angle_zero_w = baseline_m * std::sin(dec_deg * kDegToRad - site.latitude_rad);
    EXPECT_NEAR(uvw[0][0] - uvw[1][0], 0.0, 0.1) << dec_deg;
    EXPECT_NEAR(uvw[0][1] - uvw[1][1], hour_angle_zero_v, 0.1) << dec_deg;
    EXPECT_NEAR(uvw[0][2] - uvw[1][2], hour_angle_zero_w, 0.1) << dec_deg;
  }
}

TEST(AntennaUvw, EastWestBaselineAtTransitIsAllU) {
  const GeodeticPosition site = testing::meerkat_reference();
  const ArrayLayout layout = testing::enu_layout(site, {{500.0, 0, 0}});
  const SkyDirection centre = on_meridian(-45.0 * kDegToRad, site.longitude_rad, kJ2000Utc);
  const Vector3 uvw = antenna_uvw_m(layout, centre, kJ2000Utc)[0];
  EXPECT_NEAR(uvw[0], 500.0, 0.1);  // east of the reference: u > 0
  EXPECT_NEAR(uvw[1], 0.0, 0.1);
  EXPECT_NEAR(uvw[2], 0.0, 0.1);
}

TEST(AntennaUvw, RepeatsAfterOneSiderealDay) {
  const ArrayLayout layout = meerkat_like_layout();
  const SkyDirection centre{2.5, -1.0};
  const UtcInstant later{kSomeNight.mjd_day, kSomeNight.seconds + 86164.0905};
  const std::vector<Vector3> a = antenna_uvw_m(layout, centre, kSomeNight);
  const std::vector<Vector3> b = antenna_uvw_m(layout, centre, later);
  for (size_t i = 0; i < a.size(); ++i) {
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(a[i][k], b[i][k], 0.01) << i << " " << k;
  }
}

TEST(AntennaUvw, SecondsPastMidnightCarryIntoTheNextDay) {
  const ArrayLayout layout = meerkat_like_layout();
  const SkyDirection centre{2.5, -1.0};
  const std::vector<double> a = geometric_delays_s(layout, centre, {61000, 86400.0 + 3600.0});
  const std::vector<double> b = geometric_delays_s(layout, centre, {61001, 3600.0});
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-15);
}

TEST(DirectionLmn, PhaseCentreIsZeroZeroOne) {
  const SkyDirection centre{3.3, -0.5};
  const Vector3 lmn = direction_lmn(centre, centre);
  EXPECT_NEAR(lmn[0], 0.0, 1e-15);
  EXPECT_NEAR(lmn[1], 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(lmn[2], 1.0);
}

TEST(DirectionLmn, SourceEastOfCentreHasPositiveL) {
  const SkyDirection centre{3.3, -0.5};
  const Vector3 lmn = direction_lmn({3.31, -0.5}, centre);
  EXPECT_NEAR(lmn[0], std::cos(-0.5) * std::sin(0.01), 1e-15);
  EXPECT_GT(lmn[0], 0.0);
  EXPECT_NEAR(lmn[1], 0.0, 1e-4);
  const Vector3 north = direction_lmn({3.3, -0.49}, centre);
  EXPECT_NEAR(north[0], 0.0, 1e-15);
  EXPECT_NEAR(north[1], std::sin(0.01), 1e-12);
}

TEST(PointSourceVisibility, AtThePhaseCentreIsRealAndEqualToTheFlux) {
  for (const Vector3& uvw : {Vector3{120.0, -3400.0, 55.0}, Vector3{0, 0, 0}}) {
    const std::complex<double> v = point_source_visibility(2.5, uvw, 1.4e9, {0.0, 0.0, 1.0});
    EXPECT_DOUBLE_EQ(v.real(), 2.5);
    EXPECT_DOUBLE_EQ(v.imag(), 0.0);
  }
}

TEST(PointSourceVisibility, PhaseIsPlusTwoPiUlOverLambda) {
  // u l = a quarter wavelength: V = i S.
  const double freq_hz = 1e9;
  const double wavelength_m = kSpeedOfLight_m_s / freq_hz;
  const double l = 0.01;
  const Vector3 lmn{l, 0.0, std::sqrt(1.0 - l * l)};
  const std::complex<double> v =
      point_source_visibility(3.0, {0.25 * wavelength_m / l, 0.0, 0.0}, freq_hz, lmn);
  EXPECT_NEAR(v.real(), 0.0, 1e-12);
  EXPECT_NEAR(v.imag(), 3.0, 1e-12);
}

TEST(PointSourceVisibility, MatchesCorrelatedFringeStoppedVoltages) {
  // E_a = exp(-2 pi i nu tau_a) for the source, fringe-stopped by exp(+2 pi i nu tau_a) of the
  // phase centre; V12 = E1 conj(E2) must equal the model on uvw(1) - uvw(2).
  const ArrayLayout layout = meerkat_like_layout();
  const SkyDirection centre{1.0, -0.8};
  const SkyDirection source{1.004, -0.797};
  const double freq_hz = 1.284e9;
  const std::vector<double> tau_source = geometric_delays_s(layout, source, kSomeNight);
  const std::vector<double> tau_centre = geometric_delays_s(layout, centre, kSomeNight);
  const std::vector<Vector3> uvw = antenna_uvw_m(layout, centre, kSomeNight);
  const Vector3 lmn = direction_lmn(source, centre);
  auto voltage = [&](size_t a) {
    return std::polar(1.0, -2.0 * kPi * freq_hz * (tau_source[a] - tau_centre[a]));
  };
  for (size_t a1 = 0; a1 < uvw.size(); ++a1) {
    for (size_t a2 = 0; a2 < uvw.size(); ++a2) {
      const Vector3 baseline{uvw[a1][0] - uvw[a2][0], uvw[a1][1] - uvw[a2][1],
                             uvw[a1][2] - uvw[a2][2]};
      const std::complex<double> model = point_source_visibility(1.0, baseline, freq_hz, lmn);
      const std::complex<double> correlated = voltage(a1) * std::conj(voltage(a2));
      EXPECT_NEAR(std::arg(model * std::conj(correlated)), 0.0, 1e-6) << a1 << "-" << a2;
    }
  }
}

TEST(SkyAngleText, ParsesSexagesimalAndDecimal) {
  EXPECT_NEAR(parse_ra_rad("12:30:00", "--ra"), 12.5 * kPi / 12.0, 1e-15);
  EXPECT_NEAR(parse_ra_rad("05:34:31.94", "--ra"), (5 + 34 / 60.0 + 31.94 / 3600) * kPi / 12, 1e-15);
  EXPECT_NEAR(parse_ra_rad("187.5", "--ra"), 187.5 * kDegToRad, 1e-15);
  EXPECT_NEAR(parse_dec_rad("+22:00:52.2", "--dec"), (22 + 52.2 / 3600) * kDegToRad, 1e-15);
  EXPECT_NEAR(parse_dec_rad("-30:42:39.8", "--dec"), -(30 + 42 / 60.0 + 39.8 / 3600) * kDegToRad,
              1e-15);
  EXPECT_NEAR(parse_dec_rad("-12.25", "--dec"), -12.25 * kDegToRad, 1e-15);
}

TEST(SkyAngleText, MinusSignOnZeroDegreesIsKept) {
  EXPECT_NEAR(parse_dec_rad("-00:30:00", "--dec"), -0.5 * kDegToRad, 1e-15);
  EXPECT_NEAR(parse_dec_rad("-0:00:01", "--dec"), -kDegToRad / 3600.0, 1e-18);
  EXPECT_NEAR(parse_dec_rad("+00:30:00", "--dec"), 0.5 * kDegToRad, 1e-15);
}

TEST(SkyAngleText, MalformedValuesNameTheOption) {
  for (const char* bad : {"", "abc", "12:61:00", "12:30:60", "1:2:3:4", "12::00", "12.5:30",
                          "12:30:00x", "nan", "24:00:00", "-01:00:00", "400"}) {
    try {
      parse_ra_rad(bad, "--ra");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--ra: ", 0), 0u) << e.what();
    }
  }
  for (const char* bad : {"91", "-90:00:01", "+1e400", "--5"}) {
    try {
      parse_dec_rad(bad, "--dec");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--dec: ", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace rapt
