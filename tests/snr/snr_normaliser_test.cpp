// Per-block baseline removal, robust sigma and PRESTO's bad-block test.
#include <gtest/gtest.h>

#include <cmath>

#include "snr/series_normaliser.hpp"
#include "snr_test_support.hpp"

namespace rapt {
namespace {

TEST(SeriesNormaliser, GivesUnitNoiseWithMadAndWithClippedRms) {
  const std::vector<float> x = testing::gaussian_noise(100000, 4, 50.0f, 7.0f);
  for (NoiseEstimate noise : {NoiseEstimate::kMad, NoiseEstimate::kClippedRms}) {
    SnrSettings settings;
    settings.noise = noise;
    settings.detrend_len = 10000;
    const NormalisedSeries out = normalise_series(x, settings);
    ASSERT_EQ(out.samples.size(), 100000u);
    double sum = 0, sum_sq = 0;
    for (float v : out.samples) sum += v, sum_sq += double(v) * v;
    const double mean = sum / 1e5, sd = std::sqrt(sum_sq / 1e5 - mean * mean);
    EXPECT_NEAR(mean, 0.0, 0.02);
    EXPECT_NEAR(sd, 1.0, 0.03);
  }
}

TEST(SeriesNormaliser, RemovesALinearTrendExactly) {
  std::vector<float> x(1000);
  for (int i = 0; i < 1000; ++i) x[size_t(i)] = 3.0f + 0.25f * float(i) + float(i % 3 - 1);
  float* block = x.data();
  const double sigma = detrend_block(block, 1000, Baseline::kLinear, NoiseEstimate::kMad);
  for (int i = 0; i < 1000; ++i) EXPECT_NEAR(x[size_t(i)], float(i % 3 - 1), 0.01) << i;
  EXPECT_NEAR(sigma, 1.4826, 0.02);
}

TEST(SeriesNormaliser, UsesPrestosSortedMiddleElementAsMedian) {
  std::vector<float> x = {5, 1, 4, 2, 3, 100, 0, 7};  // sorted: 0 1 2 3 4 5 7 100; [4] = 4
  detrend_block(x.data(), 8, Baseline::kMedian, NoiseEstimate::kMad);
  EXPECT_FLOAT_EQ(x[0], 1.0f);
  EXPECT_FLOAT_EQ(x[5], 96.0f);
}

TEST(SeriesNormaliser, ZeroesAndFlagsABlockOfUnusualNoise) {
  std::vector<float> x = testing::gaussian_noise(20000, 8);
  for (int i = 7000; i < 8000; ++i) x[size_t(i)] *= 10.0f;  // block 7: ten times the noise
  for (int i = 12000; i < 13000; ++i) x[size_t(i)] = 0.0f;  // block 12: dead
  SnrSettings settings;
  const NormalisedSeries out = normalise_series(x, settings);
  ASSERT_EQ(out.bad_blocks.size(), 20u);
  for (int b = 0; b < 20; ++b) EXPECT_EQ(out.bad_blocks[size_t(b)], b == 7 || b == 12) << b;
  EXPECT_EQ(out.samples[7500], 0.0f);
  settings.reject_bad_blocks = false;
  const NormalisedSeries kept = normalise_series(x, settings);
  EXPECT_FALSE(kept.bad_blocks[7]);
  EXPECT_TRUE(kept.bad_blocks[12]);  // a sigma of 0 cannot be used either way
}

}  // namespace
}  // namespace rapt
