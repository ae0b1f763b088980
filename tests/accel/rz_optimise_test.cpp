#include "accel/rz_optimise.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "accel/fourier_response.hpp"
#include "accel/rz_interp.hpp"
#include "accel_test_signals.hpp"

namespace rapt {
namespace {

class RzMaximiser : public ::testing::TestWithParam<double> {};

TEST_P(RzMaximiser, ClimbsFromAGridPointToTheInjectedFrequencyAndDrift) {
  testing::ChirpSpec spec;
  spec.z = GetParam();
  spec.r0 = 4321.37;
  spec.amplitude = 1.0;  // power 16384 times the noise level: rerr ~0.003, zerr ~0.03
  const auto spectrum = testing::packed_float_spectrum(spec);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  // Start from the nearest search-grid point (dr = 0.5, dz = 2).
  const double r_start = std::round(spec.r0 * 2.0) / 2.0;
  const double z_start = 2.0 * std::round(spec.z / 2.0 + 0.3);
  const RzMaximum m = maximise_rz(spectrum.data(), n, r_start, z_start);
  EXPECT_NEAR(m.r, spec.r0, 0.01);
  EXPECT_NEAR(m.z, spec.z, 0.1);
  const double expected = testing::sinusoid_power(spec.amplitude, spec.n);
  EXPECT_NEAR(m.power / expected, 1.0, 0.05);
  // At least the power at the truth with the optimiser's own final kernel (sized from |z|/4 + 4).
  const int final_halfwidth = z_response_halfwidth(std::fabs(m.z / 4) + 4, ResponseAccuracy::High);
  EXPECT_GE(m.power,
            std::norm(rz_interpolate(spectrum.data(), n, spec.r0, spec.z, final_halfwidth)) *
                (1.0 - 1e-6));
  EXPECT_EQ(m.derivs.pow, std::norm(rz_interpolate(spectrum.data(), n, m.r, m.z,
                                                   z_response_halfwidth(m.z, ResponseAccuracy::High))));
  EXPECT_EQ(m.derivs.locpow, local_power(spectrum.data(), n, m.r, m.z));
}

INSTANTIATE_TEST_SUITE_P(Drifts, RzMaximiser, ::testing::Values(-41.3, 0.0, 7.7, 48.2));

TEST(HarmonicRzMaximiser, PutsEveryHarmonicAtAWholeMultipleOfTheFundamental) {
  testing::ChirpSpec spec;
  spec.z = 3.3;
  spec.r0 = 777.21;
  spec.harmonics = 4;
  spec.amplitude = 1.0;
  const auto spectrum = testing::packed_float_spectrum(spec);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  // The search grid point of the 4th harmonic (r 3108.84 -> 3109, z 13.2 -> 14), divided by 4.
  const HarmonicRzMaximum m = maximise_rz_harmonics(spectrum.data(), n, 4, 3109.0 / 4, 14.0 / 4);
  EXPECT_NEAR(m.r, spec.r0, 0.005);
  EXPECT_NEAR(m.z, spec.z, 0.05);
  ASSERT_EQ(m.powers.size(), 4u);
  ASSERT_EQ(m.derivs.size(), 4u);
  const double expected = testing::sinusoid_power(spec.amplitude, spec.n);
  for (int h = 1; h <= 4; ++h) {
    SCOPED_TRACE(h);
    EXPECT_NEAR(m.powers[h - 1] / expected, 1.0, 0.05);
    // powers[] use the optimiser's kernel (sized from z / 4, as PRESTO), derivs the full one.
    EXPECT_NEAR(m.derivs[h - 1].pow / m.powers[h - 1], 1.0, 0.01);
    EXPECT_EQ(m.derivs[h - 1].locpow, local_power(spectrum.data(), n, m.r * h, m.z * h));
  }
}

TEST(HarmonicRzMaximiser, WithOneHarmonicAgreesWithTheSingleMaximiser) {
  testing::ChirpSpec spec;
  spec.z = -12.4;
  spec.amplitude = 1.0;
  const auto spectrum = testing::packed_float_spectrum(spec);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  const RzMaximum single = maximise_rz(spectrum.data(), n, 1000.5, -12.0);
  const HarmonicRzMaximum polished = maximise_rz_harmonics(spectrum.data(), n, 1, 1000.5, -12.0);
  EXPECT_NEAR(polished.r, single.r, 1e-4);
  EXPECT_NEAR(polished.z, single.z, 1e-2);
}

}  // namespace
}  // namespace rapt
