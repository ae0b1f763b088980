// Valid-sample bookkeeping: lost samples (a station's values all exactly 0) and flagged ones
// are zeroed, and each baseline counts the samples valid at both of its stations.
#include "corr/valid_samples.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "corr/correlator_engine.hpp"

namespace rapt {
namespace {

constexpr int kChan = 3, kAnt = 4, kPol = 2;

size_t at(int64_t nsamples, int c, int a, int64_t t, int p) {
  return ((((size_t(c) * kAnt + a) * nsamples + t) * kPol) + p) * 2;
}

std::vector<float> noise_block(int64_t nsamples, uint32_t seed) {
  std::vector<float> v(size_t(kChan) * kAnt * nsamples * kPol * 2);
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0.0f, 10.0f);
  for (float& x : v) x = d(rng);
  return v;
}

// Zeroes every value of station a at sample t.
void lose(std::vector<float>& v, int64_t nsamples, int a, int64_t t) {
  for (int c = 0; c < kChan; ++c)
    for (int p = 0; p < kPol; ++p) v[at(nsamples, c, a, t, p)] = v[at(nsamples, c, a, t, p) + 1] = 0;
}

TEST(CorrValidSamples, AFreshMaskHasEverySampleValid) {
  StationSampleMask mask;
  mask.reset(kAnt, 130);
  EXPECT_EQ(mask.invalid_count(), 0);
  EXPECT_EQ(mask.valid_count(0, 3), 130);
  EXPECT_EQ(mask.valid_count(2, 2), 130);
  EXPECT_TRUE(mask.valid(1, 129));
}

TEST(CorrValidSamples, BaselineCountsAreTheSamplesValidAtBothStations) {
  StationSampleMask mask;
  mask.reset(kAnt, 200);
  mask.invalidate(0, 10, 70);    // 60 samples, across a word boundary
  mask.invalidate(1, 50, 130);   // 80 samples, 20 of them shared with station 0
  mask.invalidate(1, 60, 65);    // already invalid: counted once
  mask.invalidate(3, 190, 500);  // clipped to the block: 10
  EXPECT_EQ(mask.invalid_count(0), 60);
  EXPECT_EQ(mask.invalid_count(1), 80);
  EXPECT_EQ(mask.invalid_count(3), 10);
  EXPECT_EQ(mask.valid_count(0, 0), 140);
  EXPECT_EQ(mask.valid_count(0, 1), 200 - 60 - 80 + 20);
  EXPECT_EQ(mask.valid_count(0, 2), 140);
  EXPECT_EQ(mask.valid_count(1, 3), 200 - 80 - 10);
  std::vector<int64_t> counts(size_t(kAnt) * (kAnt + 1) / 2, 5);
  add_baseline_valid_counts(mask, counts);
  EXPECT_EQ(counts[size_t(baseline_index(0, 1))], 5 + 80);
  EXPECT_EQ(counts[size_t(baseline_index(2, 2))], 5 + 200);
  EXPECT_EQ(counts[size_t(baseline_index(1, 3))], 5 + 110);
}

TEST(CorrValidSamples, CountsMatchASampleBySampleReference) {
  const int64_t n = 301;
  StationSampleMask mask;
  mask.reset(kAnt, n);
  std::mt19937 rng(7);
  std::vector<std::vector<bool>> valid(kAnt, std::vector<bool>(n, true));
  for (int k = 0; k < 40; ++k) {
    const int a = int(rng() % kAnt);
    const int64_t first = rng() % n, end = first + rng() % 20;
    mask.invalidate(a, first, end);
    for (int64_t t = first; t < std::min(end, n); ++t) valid[a][t] = false;
  }
  for (int a1 = 0; a1 < kAnt; ++a1)
    for (int a2 = a1; a2 < kAnt; ++a2) {
      int64_t expected = 0;
      for (int64_t t = 0; t < n; ++t) expected += valid[a1][t] && valid[a2][t];
      EXPECT_EQ(mask.valid_count(a1, a2), expected) << a1 << " " << a2;
    }
}

TEST(CorrValidSamples, ASampleIsLostOnlyWhenEveryValueOfTheStationIsZero) {
  const int64_t n = 100;
  std::vector<float> v = noise_block(n, 1);
  lose(v, n, 2, 5);
  lose(v, n, 2, 99);
  lose(v, n, 0, 64);
  // Zero in every channel but one value: not lost.
  lose(v, n, 1, 7);
  v[at(n, 2, 1, 7, 1) + 1] = 0.5f;
  // One channel entirely zero: not lost either.
  for (int p = 0; p < kPol; ++p) v[at(n, 1, 3, 40, p)] = v[at(n, 1, 3, 40, p) + 1] = 0;
  StationSampleMask mask;
  mask.reset(kAnt, n);
  mask.invalidate(0, 64, 65);  // already flagged: not counted again
  EXPECT_EQ(mark_lost_samples(v.data(), kChan, kAnt, n, kPol, mask, 3), 2);
  EXPECT_FALSE(mask.valid(2, 5));
  EXPECT_FALSE(mask.valid(2, 99));
  EXPECT_FALSE(mask.valid(0, 64));
  EXPECT_TRUE(mask.valid(1, 7));
  EXPECT_TRUE(mask.valid(3, 40));
  EXPECT_EQ(mask.invalid_count(), 3);
}

TEST(CorrValidSamples, InvalidSamplesAreZeroedAndNothingElse) {
  const int64_t n = 70;
  std::vector<float> v = noise_block(n, 2);
  const std::vector<float> before = v;
  StationSampleMask mask;
  mask.reset(kAnt, n);
  mask.invalidate(1, 3, 6);
  mask.invalidate(3, 69, 70);
  zero_invalid_samples(v.data(), kChan, kAnt, n, kPol, mask, 2);
  for (int c = 0; c < kChan; ++c)
    for (int a = 0; a < kAnt; ++a)
      for (int64_t t = 0; t < n; ++t)
        for (int p = 0; p < kPol; ++p)
          for (int k = 0; k < 2; ++k) {
            const size_t i = at(n, c, a, t, p) + k;
            EXPECT_EQ(v[i], mask.valid(a, t) ? before[i] : 0.0f);
          }
}

TEST(CorrValidSamples, ZeroedSamplesAddNothingAndTheMeanProductUsesTheCount) {
  // Constant voltages a at station 0 and b at station 1: after losing samples, the sum over
  // the valid pairs divided by their count is still a conj(b).
  const int64_t n = 256;
  std::vector<float> v(size_t(kChan) * kAnt * n * kPol * 2, 0.0f);
  for (int c = 0; c < kChan; ++c)
    for (int a = 0; a < kAnt; ++a)
      for (int64_t t = 0; t < n; ++t)
        for (int p = 0; p < kPol; ++p) {
          v[at(n, c, a, t, p)] = float(a + 1);
          v[at(n, c, a, t, p) + 1] = float(p - a);
        }
  for (int64_t t = 20; t < 40; ++t) lose(v, n, 0, t);
  StationSampleMask mask;
  mask.reset(kAnt, n);
  mask.invalidate(1, 30, 90);  // flagged, not lost: zeroed below
  mark_lost_samples(v.data(), kChan, kAnt, n, kPol, mask);
  zero_invalid_samples(v.data(), kChan, kAnt, n, kPol, mask);
  CorrelatorShape shape;
  shape.nchan = kChan, shape.nant = kAnt, shape.npol = kPol;
  auto engine = make_cpu_correlator(shape, 1);
  engine->accumulate(v.data(), n);
  std::vector<std::complex<double>> sums;
  engine->take(sums);
  std::vector<int64_t> counts(size_t(kAnt) * (kAnt + 1) / 2, 0);
  add_baseline_valid_counts(mask, counts);
  const int64_t bl = baseline_index(0, 1);
  EXPECT_EQ(counts[size_t(bl)], n - 20 - 60 + 10);
  // Polarisation 1 (YY) in channel 2: station 0 holds 1 + 1i, station 1 holds 2 + 0i.
  const int64_t nbl = int64_t(kAnt) * (kAnt + 1) / 2;
  const std::complex<double> yy = sums[size_t((2 * nbl + bl) * 4 + 3)] / double(counts[size_t(bl)]);
  EXPECT_NEAR(std::abs(yy - std::complex<double>(1, 1) * std::conj(std::complex<double>(2, 0))), 0, 1e-12);
}

}  // namespace
}  // namespace rapt
