#include "accel/spectrum_normalise.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

using Complex = std::complex<float>;

std::vector<Complex> noise(size_t n, double mean_power, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> gauss(0.0, std::sqrt(mean_power / 2.0));
  std::vector<Complex> bins(n);
  for (Complex& b : bins)
    b = Complex(static_cast<float>(gauss(rng)), static_cast<float>(gauss(rng)));
  return bins;
}

TEST(SpectrumNormalise, BlockMedianUsesTheMiddlePowerOverLn2) {
  // Powers 1, 4, 9, 16 (|k + 0i|^2 for k = 1..4), shuffled: median (4 + 9) / 2.
  const std::vector<Complex> bins = {{0, 3}, {1, 0}, {0, -4}, {2, 0}};
  EXPECT_DOUBLE_EQ(rapt::amplitude_scale(bins.data(), bins.size(),
                                         rapt::NormalisationKind::BlockMedian),
                   1.0 / std::sqrt(6.5 / std::log(2.0)));
  const std::vector<Complex> odd = {{0, 3}, {1, 0}, {0, -4}, {2, 0}, {5, 0}};  // median 9
  EXPECT_DOUBLE_EQ(rapt::amplitude_scale(odd.data(), odd.size(),
                                         rapt::NormalisationKind::BlockMedian),
                   1.0 / std::sqrt(9.0 / std::log(2.0)));
}

TEST(SpectrumNormalise, BlockMedianGivesNoiseOfMeanPowerOne) {
  std::vector<Complex> bins = noise(1 << 16, 37.0, 1);
  rapt::normalise_block(bins.data(), bins.size(), rapt::NormalisationKind::BlockMedian);
  double mean = 0.0;
  for (const Complex& b : bins) mean += std::norm(b) / bins.size();
  EXPECT_NEAR(mean, 1.0, 0.02);
}

TEST(SpectrumNormalise, PhotonScaleIsOneOverRootOfTheDcTerm) {
  std::vector<Complex> packed = {{400.0f, 7.0f}, {3.0f, 4.0f}, {-1.0f, 2.0f}};
  const double photons = rapt::photon_count(packed);
  EXPECT_EQ(photons, 400.0);
  EXPECT_DOUBLE_EQ(rapt::amplitude_scale(packed.data(), packed.size(),
                                         rapt::NormalisationKind::Photon, photons),
                   0.05);
  rapt::normalise_block(packed.data() + 1, 2, rapt::NormalisationKind::Photon, photons);
  EXPECT_EQ(packed[1], Complex(0.15f, 0.2f));
  EXPECT_EQ(packed[2], Complex(-0.05f, 0.1f));
}

// Local power written out: the 20 powers 6 to 15 bins away, summed, times PRESTO's weight.
double direct_local_power(const std::vector<Complex>& bins, size_t k) {
  const size_t n = bins.size();
  const double weight = 2.0 * std::floor(n / 40.0) / n;
  double sum = 0.0;
  for (int d = -15; d <= 15; ++d)
    if (std::abs(d) >= 6) sum += std::norm(std::complex<double>(bins[k + d]));
  return weight * sum;
}

TEST(SpectrumNormalise, LocalPowerIsTheMeanOfTwentyNearbyPowersSkippingFiveEachSide) {
  const std::vector<Complex> bins = noise(1000, 2.0, 2);
  const std::vector<float> levels = rapt::local_power_levels(bins.data(), bins.size());
  ASSERT_EQ(levels.size(), bins.size());
  for (size_t k = 15; k < 985; ++k)
    ASSERT_NEAR(levels[k], direct_local_power(bins, k), 1e-5 * levels[k]) << k;
  for (size_t k = 0; k < 15; ++k) {
    EXPECT_EQ(levels[k], levels[15]);
    EXPECT_EQ(levels[999 - k], levels[984]);
  }
  // A spike 5 bins away is left out, 6 bins away is counted.
  std::vector<Complex> spiky(200, Complex(1.0f, 0.0f));
  spiky[105] = Complex(100.0f, 0.0f);
  const std::vector<float> spiky_levels = rapt::local_power_levels(spiky.data(), spiky.size());
  const double weight = 2.0 * 5 / 200;  // floor(200 / 40) = 5: exactly 1/20
  EXPECT_FLOAT_EQ(spiky_levels[100], static_cast<float>(weight * 20));
  EXPECT_FLOAT_EQ(spiky_levels[99], static_cast<float>(weight * (19 + 10000)));
}

TEST(SpectrumNormalise, LocalPowerKeepsPrestosIntegerWeightForLengthsNotMultipleOf40) {
  // 1024 bins: weight 2 * 25 / 1024, so a flat power P comes out as 0.977 P.
  const std::vector<Complex> flat(1024, Complex(2.0f, 0.0f));
  const std::vector<float> levels = rapt::local_power_levels(flat.data(), flat.size());
  EXPECT_FLOAT_EQ(levels[500], static_cast<float>(4.0 * 20 * 50.0 / 1024));
  std::vector<Complex> scaled = flat;
  rapt::normalise_block(scaled.data(), scaled.size(), rapt::NormalisationKind::LocalPower);
  EXPECT_FLOAT_EQ(scaled[500].real(), 2.0f / std::sqrt(levels[500]));
}

TEST(SpectrumNormalise, LocalPowerAtAFrequencyAveragesTenBinsEachSideAsymmetrically) {
  // Powers equal to the bin index: bins 86..95 and 106..115 around r = 100.7 average 100.5.
  std::vector<Complex> bins(300);
  for (size_t k = 0; k < bins.size(); ++k) bins[k] = Complex(std::sqrt(float(k)), 0.0f);
  EXPECT_NEAR(rapt::local_power_at(bins.data(), bins.size(), 100.7), 100.5f, 1e-4);
  // Near the start only bins 0..5 and 16..25 exist around r = 10: (15 + 205) / 20.
  EXPECT_NEAR(rapt::local_power_at(bins.data(), bins.size(), 10.0), 11.0f, 1e-4);
  // Near the end the upper window is cut: bins 281..290 only, / 20.
  EXPECT_NEAR(rapt::local_power_at(bins.data(), bins.size(), 295.2), 2855.0f / 20, 1e-3);
}

TEST(SpectrumNormalise, RejectsWhatPrestoCannotNormalise) {
  const std::vector<Complex> few(29);
  EXPECT_THROW(rapt::local_power_levels(few.data(), few.size()), std::invalid_argument);
  EXPECT_THROW(rapt::amplitude_scale(few.data(), few.size(), rapt::NormalisationKind::LocalPower),
               std::invalid_argument);
  EXPECT_THROW(rapt::amplitude_scale(few.data(), 0, rapt::NormalisationKind::BlockMedian),
               std::invalid_argument);
  const std::vector<float> scales = rapt::amplitude_scales(
      few.data(), few.size(), rapt::NormalisationKind::Photon, 16.0);
  EXPECT_EQ(scales, std::vector<float>(29, 0.25f));
}

}  // namespace
