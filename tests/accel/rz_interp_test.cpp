#include "accel/rz_interp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "accel/fourier_response.hpp"
#include "accel_test_signals.hpp"

namespace rapt {
namespace {

TEST(RzInterpolate, ReturnsTheBinItselfAtIntegerFrequencyWithoutDrift) {
  testing::ChirpSpec spec;
  const auto spectrum = testing::packed_float_spectrum(spec);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  for (int64_t k : {1, 17, 1000, 5000}) {
    const std::complex<double> a = rz_interpolate(spectrum.data(), n, static_cast<double>(k), 0.0, 16);
    EXPECT_EQ(a, std::complex<double>(spectrum[k]));
  }
}

TEST(RzInterpolate, IsZeroOutsideTheSpectrum) {
  testing::ChirpSpec spec;
  const auto spectrum = testing::packed_float_spectrum(spec);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  EXPECT_EQ(rz_interpolate(spectrum.data(), n, -0.5, 3.0, 20), std::complex<double>(0.0));
  EXPECT_EQ(rz_interpolate(spectrum.data(), n, n - 0.5, 3.0, 20), std::complex<double>(0.0));
}

TEST(RzInterpolate, SumsTwiceHalfwidthBinsEndingJustBelowFloorPlusHalfwidth) {
  // A spectrum with a single non-zero bin k0: the sum sees it only for
  // floor(r) - halfwidth <= k0 <= floor(r) + halfwidth - 1.
  const int64_t n = 4096;
  const int64_t k0 = 2000;
  std::vector<std::complex<float>> spectrum(n, 0.0f);
  spectrum[k0] = {1.0f, 0.0f};
  const int hw = 10;
  const double z = 2.5;
  EXPECT_NE(rz_interpolate(spectrum.data(), n, k0 + 10.3, z, hw), std::complex<double>(0.0));
  EXPECT_EQ(rz_interpolate(spectrum.data(), n, k0 + 11.3, z, hw), std::complex<double>(0.0));
  EXPECT_NE(rz_interpolate(spectrum.data(), n, k0 - 8.7, z, hw), std::complex<double>(0.0));
  EXPECT_EQ(rz_interpolate(spectrum.data(), n, k0 - 9.7, z, hw), std::complex<double>(0.0));
  const std::complex<double> a = rz_interpolate(spectrum.data(), n, k0 + 3.25, z, hw);
  EXPECT_NEAR(std::abs(a - fdot_response_coefficient(3.25, z)), 0.0, 1e-15);
}

// The per-point setup (shared phases, 1/d for no drift) gives the plain sum of coefficients.
TEST(RzInterpolate, EqualsTheSumOfResponseCoefficientsOverItsBins) {
  testing::ChirpSpec spec;
  spec.z = 20.0;
  spec.r0 = 2000.3;
  const auto spectrum = testing::packed_float_spectrum(spec);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  for (double z : {-250.7, -20.0, -3e-5, 0.0, 5e-5, 2e-4, 0.37, 20.0, 1200.0}) {
    for (double r : {2000.3, 1999.99999, 17.5, 2351.123456}) {
      const int hw = z_response_halfwidth(z, ResponseAccuracy::High);
      std::complex<double> want = 0.0;
      double scale = 0.0;
      const int64_t centre = static_cast<int64_t>(std::floor(r));
      for (int64_t k = std::max<int64_t>(centre - hw, 0); k <= centre + hw - 1; ++k) {
        const std::complex<double> term =
            std::complex<double>(spectrum[k]) * fdot_response_coefficient(r - k, z);
        want += term;
        scale += std::abs(term);
      }
      const std::complex<double> got = rz_interpolate(spectrum.data(), n, r, z, hw);
      if (std::fabs(z) < 1e-4 && std::fabs(r - std::round(r)) < 1e-5) {
        EXPECT_EQ(got, std::complex<double>(spectrum[static_cast<int64_t>(std::round(r))]));
      } else {
        EXPECT_LE(std::abs(got - want), 1e-13 * scale) << "r " << r << " z " << z;
      }
    }
  }
}

TEST(RzInterpolate, RecoversTheFullPowerOfADriftingSinusoid) {
  testing::ChirpSpec spec;
  spec.z = -33.0;
  spec.r0 = 3000.4;
  spec.noise_sigma = 0.0;
  const auto spectrum = testing::packed_float_spectrum(spec);
  const std::complex<double> a =
      rz_interpolate(spectrum.data(), static_cast<int64_t>(spectrum.size()), spec.r0, spec.z,
                     z_response_halfwidth(spec.z, ResponseAccuracy::High));
  EXPECT_NEAR(std::norm(a) / testing::sinusoid_power(spec.amplitude, spec.n), 1.0, 0.01);
}

TEST(LocalPower, AtIntegerFrequencyIsTheMeanOfTheTwentyFlankingBinPowers) {
  testing::ChirpSpec spec;  // noise dominates away from r0
  const auto spectrum = testing::packed_float_spectrum(spec);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  const int64_t r = 7000;
  double expected = 0.0;
  for (int64_t k = r - 15; k <= r - 6; ++k) expected += std::norm(std::complex<double>(spectrum[k]));
  for (int64_t k = r + 5; k <= r + 14; ++k) expected += std::norm(std::complex<double>(spectrum[k]));
  expected /= 20.0;
  EXPECT_NEAR(local_power(spectrum.data(), n, static_cast<double>(r), 0.0) / expected, 1.0, 1e-12);
}

TEST(LocalPower, NearTheStartDropsMissingPointsButStillDividesByTwenty) {
  const int64_t n = 1000;
  std::vector<std::complex<float>> spectrum(n, {1.0f, 0.0f});
  // r = 3: the low side would be -12 .. -3, all missing; the high side 8 .. 17 has power 1.
  EXPECT_NEAR(local_power(spectrum.data(), n, 3.0, 0.0), 0.5, 1e-12);
}

TEST(LocalPower, OfWhiteNoiseIsItsMeanPower) {
  testing::ChirpSpec spec;
  spec.amplitude = 0.0;
  const auto spectrum = testing::packed_float_spectrum(spec);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  double sum = 0.0;
  int count = 0;
  for (double r = 100.37; r < 30000.0; r += 97.0, ++count) {
    sum += local_power(spectrum.data(), n, r, 12.0);
  }
  // Noise power per bin is N sigma^2 for a real series of unit variance; 309 estimates of 20
  // (correlated) powers each.
  EXPECT_NEAR(sum / count / spec.n, 1.0, 0.05);
}

}  // namespace
}  // namespace rapt
