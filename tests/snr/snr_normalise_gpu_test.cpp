// The GPU normalisation kernel (gpu/snr/snr_normalise_kernels) against the CPU's detrend_block,
// block by block (skipped without a GPU): with the median baseline and the MAD sigma the
// detrended values and the sigmas equal the CPU's (as floats: a median of signed zeros may be
// -0 on one and +0 on the other, so a detrended zero's sign may differ); the linear baseline
// and the clipped rms sum in another order, so they agree to float rounding. The blocks are chosen to
// be hard for a selection: heavy ties (8-bit values), a constant block, signed zeros, an
// outlier far from the rest, values of mixed sign and exponents, and block lengths that are
// odd, small and long; blocks past a series' end come back zero with sigma 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpu_device.hpp"
#include "snr/series_normaliser.hpp"
#include "snr/snr_settings.hpp"
#include "snr_test_support.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/snr/snr_normalise_rows.hpp"

namespace rapt {
namespace {

constexpr int kKinds = 8;

// Block `kind` of `len` samples (seeded by `seed`).
std::vector<float> hard_block(int kind, int len, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> x = testing::gaussian_noise(len, seed, 96.0f, 12.0f);
  switch (kind) {
    case 0:  // noise
      break;
    case 1:  // 8-bit values: every value many times
      for (float& v : x) v = std::round(v);
      break;
    case 2:  // constant
      for (float& v : x) v = 7.5f;
      break;
    case 3:  // signed zeros and a few ones
      for (float& v : x) v = rng() % 5 == 0 ? 1.0f : (rng() % 2 ? 0.0f : -0.0f);
      break;
    case 4:  // one outlier far above the rest
      x[size_t(len / 3)] = 1e30f;
      break;
    case 5:  // mixed signs and exponents
      for (float& v : x) v = (v - 96.0f) * std::pow(10.0f, float(int(rng() % 9) - 4));
      break;
    case 6:  // two values only, split at the middle
      for (size_t i = 0; i < x.size(); ++i) x[i] = i % 2 ? -3.0f : 5.0f;
      break;
    default:  // a slope under the noise
      for (size_t i = 0; i < x.size(); ++i) x[i] += 0.05f * float(i);
      break;
  }
  return x;
}

// Series s holds blocks of every kind (shifted by s), the last series only its first half.
void check_against_cpu(int len, Baseline baseline, NoiseEstimate noise) {
  const int nseries = 3, max_blocks = 2 * kKinds;
  const int64_t stride = int64_t(max_blocks) * len + 5;
  std::vector<float> rows(size_t(nseries * stride), 123.0f);
  std::vector<int32_t> whole(nseries, max_blocks);
  whole[nseries - 1] = max_blocks / 2;
  for (int s = 0; s < nseries; ++s)
    for (int b = 0; b < max_blocks; ++b) {
      const std::vector<float> x = hard_block((b + s) % kKinds, len, uint64_t(1000 * s + b));
      std::copy(x.begin(), x.end(), rows.begin() + s * stride + int64_t(b) * len);
    }

  SnrSettings settings;
  settings.detrend_len = len;
  settings.baseline = baseline;
  settings.noise = noise;
  std::vector<float> out = rows;
  const std::vector<double> sigma =
      gpu::detrend_rows_on_gpu(out, stride, whole, max_blocks, settings);

  const bool exact = baseline == Baseline::kMedian && noise == NoiseEstimate::kMad;
  for (int s = 0; s < nseries; ++s)
    for (int b = 0; b < max_blocks; ++b) {
      SCOPED_TRACE("series " + std::to_string(s) + ", block " + std::to_string(b) + " (kind " +
                   std::to_string((b + s) % kKinds) + ")");
      const int64_t at = s * stride + int64_t(b) * len;
      const double got = sigma[size_t(s * max_blocks + b)];
      if (b >= whole[size_t(s)]) {
        EXPECT_EQ(got, 0.0);
        for (int i = 0; i < len; ++i) ASSERT_EQ(out[size_t(at + i)], 0.0f);
        continue;
      }
      std::vector<float> want(rows.begin() + at, rows.begin() + at + len);
      const double want_sigma = detrend_block(want.data(), len, baseline, noise);
      if (exact) {
        EXPECT_EQ(got, want_sigma);
        for (int i = 0; i < len; ++i) ASSERT_EQ(out[size_t(at + i)], want[size_t(i)]) << i;
      } else {
        EXPECT_NEAR(got, want_sigma, 1e-5 * std::fabs(want_sigma) + 1e-30);
        // A line summed in another order moves a value by float rounding of the line's size.
        const float line = std::fabs(want[size_t(len / 2)]) + 1e-3f * float(want_sigma) + 1e-30f;
        for (int i = 0; i < len; ++i) {
          const float tolerance = 1e-5f * (line + std::fabs(want[size_t(i)]));
          ASSERT_NEAR(out[size_t(at + i)], want[size_t(i)], tolerance) << i;
        }
      }
    }
  // The row's padding past its blocks is never touched.
  for (int s = 0; s < nseries; ++s)
    for (int64_t i = int64_t(max_blocks) * len; i < stride; ++i)
      ASSERT_EQ(out[size_t(s * stride + i)], 123.0f);
}

class SnrNormaliseGpu : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  }
};

TEST_P(SnrNormaliseGpu, MedianAndMadAreTheCpusExactly) {
  check_against_cpu(GetParam(), Baseline::kMedian, NoiseEstimate::kMad);
}

TEST_P(SnrNormaliseGpu, LinearBaselineMatchesTheCpu) {
  check_against_cpu(GetParam(), Baseline::kLinear, NoiseEstimate::kMad);
}

TEST_P(SnrNormaliseGpu, ClippedRmsMatchesTheCpu) {
  check_against_cpu(GetParam(), Baseline::kMedian, NoiseEstimate::kClippedRms);
}

// PRESTO's 1000, odd and small lengths, a power of two, and a long block.
INSTANTIATE_TEST_SUITE_P(BlockLengths, SnrNormaliseGpu, ::testing::Values(1000, 8, 37, 1024, 4095));

}  // namespace
}  // namespace rapt
#endif  // RAPT_WITH_CUDA
