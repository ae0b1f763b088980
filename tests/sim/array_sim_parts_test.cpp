// The array simulators' parts: the fractional-delay filter, the delay track against exact
// delays, and the --source / direction-key parsers with their error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "array_sim_test_support.hpp"
#include "cli/errors.hpp"
#include "sim/array_delay_track.hpp"
#include "sim/fractional_delay.hpp"
#include "sim/sky_model.hpp"

namespace rapt {
namespace {

std::string usage_error_text(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no UsageError)";
}

TEST(FractionalDelayFilter, WholeSamplesNeedNoInterpolation) {
  const FractionalDelayFilter filter(16);
  std::vector<float> h(16);
  filter.taps_for(0.0, h.data());
  for (int j = 0; j < 16; ++j) EXPECT_EQ(h[j], filter.first_offset() + j == 0 ? 1.0f : 0.0f);
}

TEST(FractionalDelayFilter, DelaysAnInBandToneByTheFraction) {
  const FractionalDelayFilter filter(16);
  std::vector<float> h(16);
  for (double g : {0.1, 0.25, 0.5, 0.9}) {
    filter.taps_for(g, h.data());
    double sum_squares = 0;
    for (float x : h) sum_squares += double(x) * x;
    EXPECT_NEAR(sum_squares, 1.0, 1e-6);
    for (double f : {0.05, 0.2, 0.35}) {  // cycles per sample
      // sum_i h_i exp(2 pi i f (m + i)) should be exp(2 pi i f (m + g)) times a gain near 1.
      std::complex<double> response = 0;
      for (int j = 0; j < 16; ++j)
        response += double(h[j]) * std::polar(1.0, 2 * M_PI * f * (filter.first_offset() + j - g));
      // Power normalisation lifts the in-band gain a little where the response falls at the
      // band edge (g near 1/2).
      EXPECT_NEAR(std::arg(response), 0.0, 0.01) << "g " << g << " f " << f;
      EXPECT_NEAR(std::abs(response), 1.0, 0.05) << "g " << g << " f " << f;
    }
  }
}

TEST(FractionalDelayFilter, CorrelatedWhiteNoiseFollowsTheIdealDelay) {
  // White noise delayed by g against the undelayed copy: the correlation is h_g at tap 0,
  // ideally sinc(g).
  const FractionalDelayFilter filter(16);
  std::vector<float> h(16);
  for (double g : {0.1, 0.3, 0.5, 0.7}) {
    filter.taps_for(g, h.data());
    const double ideal = std::sin(M_PI * g) / (M_PI * g);
    EXPECT_NEAR(h[-filter.first_offset()] / ideal, 1.0175, 0.0175) << "g " << g;
  }
}

TEST(FractionalDelayFilter, RefusesOddOrTooManyTaps) {
  EXPECT_THROW(FractionalDelayFilter(7), UsageError);
  EXPECT_THROW(FractionalDelayFilter(66), UsageError);
  EXPECT_NO_THROW(FractionalDelayFilter(2));
}

TEST(ArrayDelayTrack, InterpolatesTheExactDelaysClosely) {
  const ArrayLayout layout = testing::layout_with_offsets({{0, 0, 0}, {4000, -3000, 2000}, {-800, 500, 100}});
  const SkyDirection direction{1.1, -0.4};
  const UtcInstant start{60123, 5000.0};
  const ArrayDelayTrack track(layout, direction, start, 20.0, 1.0);
  for (double t : {0.0, 0.37, 5.5, 19.99}) {
    UtcInstant when = start;
    when.seconds += t;
    const std::vector<double> exact = geometric_delays_s(layout, direction, when);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(track.delay_s(a, t), exact[a], 1e-13) << t;
  }
  // The rate is the Earth's turning: at most omega_E |b| / c.
  EXPECT_LT(std::fabs(track.rate(1, 3.0)), 7.3e-5 * 5400 / kSpeedOfLight_m_s);
  EXPECT_GT(std::fabs(track.rate(1, 3.0)), 0.0);
}

TEST(PointSourceSpec, ParsesEveryKey) {
  const PointSourceSpec s = parse_point_source_spec("ra=05:34:31.94,DEC=+22:00:52.2,flux=3.5,index=-0.7,fref=1400");
  EXPECT_NEAR(s.direction.ra_rad, (5 + 34 / 60.0 + 31.94 / 3600) * M_PI / 12, 1e-12);
  EXPECT_NEAR(s.direction.dec_rad, (22 + 0 / 60.0 + 52.2 / 3600) * M_PI / 180, 1e-12);
  EXPECT_DOUBLE_EQ(s.flux_jy, 3.5);
  EXPECT_NEAR(s.flux_at(700, 1000), 3.5 * std::pow(0.5, -0.7), 1e-12);
  const PointSourceSpec d = parse_point_source_spec("ra=83.5,dec=-30,flux=1");
  EXPECT_NEAR(d.direction.ra_rad, 83.5 * M_PI / 180, 1e-12);
  EXPECT_DOUBLE_EQ(d.flux_at(700, 1000), 1.0);  // index 0
}

TEST(PointSourceSpec, NamesTheOptionAndTheProblem) {
  EXPECT_EQ(usage_error_text([] { parse_point_source_spec("ra=1,dec=2"); }),
            "--source \"ra=1,dec=2\": missing flux=");
  EXPECT_EQ(usage_error_text([] { parse_point_source_spec("ra=1,dec=2,flux=1,spin=3"); }),
            "--source \"ra=1,dec=2,flux=1,spin=3\": unknown key \"spin\"; known keys: ra, dec, flux, index, fref");
  EXPECT_EQ(usage_error_text([] { parse_point_source_spec("ra=1,dec=2,flux=abc"); }),
            "--source \"ra=1,dec=2,flux=abc\": flux=abc is not a number");
  EXPECT_EQ(usage_error_text([] { parse_point_source_spec("ra=1,dec=2,flux=-1"); }),
            "--source \"ra=1,dec=2,flux=-1\": flux must be >= 0 Jy");
  EXPECT_EQ(usage_error_text([] { parse_point_source_spec("ra=1,ra=2,flux=1"); }),
            "--source \"ra=1,ra=2,flux=1\": ra given twice");
  EXPECT_NE(usage_error_text([] { parse_point_source_spec("ra=25:00:00,dec=0,flux=1"); })
                .find("--source \"ra=25:00:00,dec=0,flux=1\": ra"), std::string::npos);
}

TEST(SplitDirectionKeys, TakesOutRaAndDecAndKeepsTheRest) {
  const SkyDirection centre{0.5, -0.5};
  const DirectedSignalText t = split_direction_keys("--pulsar", "P=0.1, ra=30,DM=5,dec=-10", centre);
  EXPECT_EQ(t.rest, "P=0.1,DM=5");
  EXPECT_NEAR(t.direction.ra_rad, 30 * M_PI / 180, 1e-12);
  EXPECT_NEAR(t.direction.dec_rad, -10 * M_PI / 180, 1e-12);
  const DirectedSignalText u = split_direction_keys("--burst", "t=1,DM=5", centre);
  EXPECT_EQ(u.direction.ra_rad, 0.5);
  EXPECT_EQ(u.rest, "t=1,DM=5");
}

}  // namespace
}  // namespace rapt
