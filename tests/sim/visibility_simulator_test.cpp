// The visibility simulator against a direct double-precision sum over the sources, written
// out here from the convention in interferometer_geometry.hpp; its noise, rows, products and
// the round trip through the UVFITS writer.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>

#include "array_sim_test_support.hpp"
#include "cli/errors.hpp"
#include "io/uvfits.hpp"
#include "sim/visibility_simulator.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

VisibilityPlan two_source_plan() {
  VisibilityPlan plan;
  plan.layout = testing::layout_with_offsets({{0, 0, 0}, {120, -80, 40}, {-900, 600, 300}, {30, 2000, -500}});
  plan.phase_centre = {1.2, -0.6};
  plan.start = {60200, 40000.0};
  plan.integration_s = 30.0;
  plan.nintegrations = 3;
  plan.nchan = 5;
  plan.centre_freq_mhz = 1000.0;
  plan.bandwidth_mhz = -100.0;
  PointSourceSpec a = testing::point_source(1.2 * 180 / M_PI, -0.6 * 180 / M_PI, 2.0);  // at the centre
  PointSourceSpec b = testing::point_source(70.0, -33.0, 5.0);
  b.spectral_index = -0.8;
  b.ref_freq_mhz = 900.0;
  plan.sources = {a, b};
  return plan;
}

// l, m, n of `s` seen from `c` (SIN projection), written out independently.
Vector3 lmn_of(const SkyDirection& s, const SkyDirection& c) {
  const double l = std::cos(s.dec_rad) * std::sin(s.ra_rad - c.ra_rad);
  const double m = std::sin(s.dec_rad) * std::cos(c.dec_rad) -
                   std::cos(s.dec_rad) * std::sin(c.dec_rad) * std::cos(s.ra_rad - c.ra_rad);
  return {l, m, std::sqrt(1 - l * l - m * m)};
}

TEST(VisibilitySimulator, ValuesAreTheSumOverSources) {
  const VisibilityPlan plan = two_source_plan();
  const VisibilitySet set = simulate_visibilities(plan);
  ASSERT_EQ(set.nrows(), 3u * 6u);
  ASSERT_EQ(set.nstokes(), 4u);
  for (size_t row = 0; row < set.nrows(); ++row) {
    const int i = static_cast<int>(row / 6);
    UtcInstant centre = plan.start;
    centre.seconds += (i + 0.5) * plan.integration_s;
    EXPECT_NEAR(set.time_mjd[row], centre.mjd(), 1e-10);
    const std::vector<Vector3> uvw = antenna_uvw_m(plan.layout, plan.phase_centre, centre);
    const int a1 = set.antenna1[row], a2 = set.antenna2[row];
    ASSERT_LT(a1, a2);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(set.uvw_m[row][k], uvw[a1][k] - uvw[a2][k], 1e-9);
    for (size_t c = 0; c < set.nchan(); ++c) {
      const double nu_hz = (1000.0 + 50.0 - (c + 0.5) * 20.0) * 1e6;
      EXPECT_NEAR(set.channel_freq_hz[c], nu_hz, 1e-3);
      std::complex<double> expected = 0;
      for (const PointSourceSpec& s : plan.sources) {
        const Vector3 lmn = lmn_of(s.direction, plan.phase_centre);
        const double flux = s.flux_jy * std::pow(nu_hz / 1e6 / (s.ref_freq_mhz > 0 ? s.ref_freq_mhz : 1000.0),
                                                 s.spectral_index);
        const auto& b = set.uvw_m[row];
        expected += flux * std::polar(1.0, 2 * M_PI * (b[0] * lmn[0] + b[1] * lmn[1] + b[2] * (lmn[2] - 1)) *
                                               nu_hz / kSpeedOfLight_m_s);
      }
      for (size_t p = 0; p < 2; ++p)  // XX, YY
        EXPECT_LT(std::abs(std::complex<double>(set.vis[set.index(row, c, p)]) - expected), 2e-5);
      for (size_t p = 2; p < 4; ++p)  // XY, YX
        EXPECT_EQ(set.vis[set.index(row, c, p)], std::complex<float>(0, 0));
    }
  }
  EXPECT_DOUBLE_EQ(set.channel_width_hz, -20e6);
}

TEST(VisibilitySimulator, NoiseHasTheStatedRmsAndFollowsTheSeed) {
  VisibilityPlan plan = two_source_plan();
  plan.nintegrations = 40;
  plan.nchan = 16;
  const VisibilitySet clean = simulate_visibilities(plan);
  plan.noise_jy = 0.3;
  const VisibilitySet noisy = simulate_visibilities(plan);
  double sum_squares = 0;
  for (size_t i = 0; i < clean.vis.size(); ++i) sum_squares += std::norm(noisy.vis[i] - clean.vis[i]);
  EXPECT_NEAR(std::sqrt(sum_squares / (2.0 * clean.vis.size())), 0.3, 0.01);
  EXPECT_EQ(simulate_visibilities(plan).vis, noisy.vis);
  plan.seed = 2;
  EXPECT_NE(simulate_visibilities(plan).vis, noisy.vis);
}

TEST(VisibilitySimulator, AutocorrelationsCarryTheTotalFlux) {
  VisibilityPlan plan = two_source_plan();
  plan.autocorrelations = true;
  plan.stokes = {-1, -2, 1};  // RR, LL, I: the simulator takes any; --products one kind
  const VisibilitySet set = simulate_visibilities(plan);
  ASSERT_EQ(set.nrows(), 3u * 10u);
  EXPECT_EQ(set.antenna1[0], 0);
  EXPECT_EQ(set.antenna2[0], 0);
  const double flux_b = 5.0 * std::pow(1000.0 / 900.0, -0.8);  // channel 2 is at 1000 MHz
  for (size_t p = 0; p < 3; ++p)
    EXPECT_NEAR(set.vis[set.index(0, 2, p)].real(), 2.0 + flux_b, 1e-5);
}

TEST(VisibilitySimulator, ProductsParseAndRefuseUnknownNames) {
  EXPECT_EQ(parse_products("xx, yy,XY,YX"), (std::vector<int>{-5, -6, -7, -8}));
  EXPECT_EQ(parse_products("I"), (std::vector<int>{1}));
  try {
    parse_products("XX,ZZ");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--products \"XX,ZZ\": unknown product \"ZZ\"; known: XX YY XY YX RR LL RL LR I Q U V");
  }
  EXPECT_THROW(parse_products("XX,XX"), UsageError);
  // A file's polarisation table has one feed basis: kinds are not mixed.
  try {
    parse_products("XX,RR");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--products \"XX,RR\": mixes Stokes (I Q U V), circular (RR LL RL LR) "
                           "and linear (XX YY XY YX) products; give products of one kind");
  }
  EXPECT_THROW(parse_products("I,XX"), UsageError);
  EXPECT_EQ(parse_products("RR,LL"), (std::vector<int>{-1, -2}));
}

TEST(VisibilitySimulator, RefusesPlansWithoutBaselines) {
  VisibilityPlan plan = two_source_plan();
  plan.layout.antennas.resize(1);
  try {
    simulate_visibilities(plan);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "one antenna makes no baselines; give --autocorrelations or a larger layout");
  }
  plan = two_source_plan();
  plan.integration_s = 0;
  try {
    simulate_visibilities(plan);
    FAIL();
  } catch (const UsageError& e) {
    // 0 itself is refused, so the message must not say "between 0 and".
    EXPECT_STREQ(e.what(), "--int-time must be above 0 and at most 86400 s (got 0)");
  }
}

TEST(VisibilitySimulator, SurvivesTheUvfitsWriterAndReader) {
  const VisibilitySet set = simulate_visibilities(two_source_plan());
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/sim.uvfits";
  write_uvfits(path, set, false);
  const VisibilitySet back = read_uvfits(path);
  ASSERT_EQ(back.nrows(), set.nrows());
  ASSERT_EQ(back.stokes, set.stokes);
  for (size_t i = 0; i < set.vis.size(); ++i)
    EXPECT_LT(std::abs(back.vis[i] - set.vis[i]), 1e-5f);
  for (size_t r = 0; r < set.nrows(); ++r) {
    EXPECT_EQ(back.antenna1[r], set.antenna1[r]);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(back.uvw_m[r][k], set.uvw_m[r][k], 1e-3);
  }
}

}  // namespace
}  // namespace rapt
