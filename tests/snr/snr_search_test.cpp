// Known answers for the boxcar single-pulse search (CPU engine): a boxcar pulse of width w and
// amplitude a in unit Gaussian noise comes out at S/N a sqrt(w) (within 5 %) with Downfact w,
// and noise alone gives about as many events above 5 sigma as independent trials predict.
#include <gtest/gtest.h>

#include <cmath>

#include "cli/errors.hpp"
#include "snr/single_pulse_search.hpp"
#include "snr_test_support.hpp"

namespace rapt {
namespace {

SeriesInput make_series(std::vector<float> samples, double dm = 10.0) {
  SeriesInput s;
  s.path = "synthetic.dat";
  s.root = "synthetic";
  s.dm = dm;
  s.dt_s = 1e-3;
  s.total_samples = s.usable_samples = int64_t(samples.size());
  s.samples = std::move(samples);
  return s;
}

std::vector<SinglePulseEvent> search_one(const SeriesInput& series, const SnrSettings& settings) {
  auto engine = make_cpu_boxcar_engine(settings.widths, float(settings.threshold), 2);
  return search_batch({series}, settings, *engine, 2).at(0);
}

const SinglePulseEvent* strongest(const std::vector<SinglePulseEvent>& events) {
  const SinglePulseEvent* best = nullptr;
  for (const SinglePulseEvent& e : events)
    if (!best || e.sigma > best->sigma) best = &e;
  return best;
}

class BoxcarPulse : public ::testing::TestWithParam<int> {};

TEST_P(BoxcarPulse, ComesOutAtAmplitudeTimesRootWidthWithItsWidth) {
  const int width = GetParam();
  const double expected_snr = 60.0;
  const float amplitude = float(expected_snr / std::sqrt(double(width)));
  for (uint64_t seed : {1u, 2u, 3u}) {
    std::vector<float> x = testing::gaussian_noise(64000, seed * 100 + uint64_t(width), 20.0f, 3.0f);
    const int64_t first = 30000 + int64_t(seed) * 17;
    std::vector<float> pulse(x.size(), 0.0f);
    testing::add_boxcar_pulse(pulse, first, width, amplitude * 3.0f);  // noise sigma is 3
    for (size_t i = 0; i < x.size(); ++i) x[i] += pulse[i];
    SnrSettings settings;
    settings.detrend_len = 8000;
    const auto events = search_one(make_series(x), settings);
    const SinglePulseEvent* best = strongest(events);
    ASSERT_NE(best, nullptr) << "seed " << seed;
    EXPECT_NEAR(best->sigma, expected_snr, 0.05 * expected_snr) << "seed " << seed;
    EXPECT_EQ(best->downfact, width) << "seed " << seed;
    EXPECT_NEAR(double(best->sample), double(first + width / 2), 1.0) << "seed " << seed;
    EXPECT_DOUBLE_EQ(best->time_s, double(best->sample) * 1e-3);
    EXPECT_DOUBLE_EQ(best->dm, 10.0);
  }
}

INSTANTIATE_TEST_SUITE_P(PrestoWidths, BoxcarPulse, ::testing::Values(1, 2, 3, 4, 6, 9, 14, 20, 30));

TEST(BoxcarSearch, FindsWideLinearDetrendedPulsesWithPrestoNumbers) {
  std::vector<float> x = testing::gaussian_noise(64000, 77);
  for (size_t i = 0; i < x.size(); ++i) x[i] += float(i) * 1e-4f;  // a slow drift
  testing::add_boxcar_pulse(x, 40000, 100, 4.0f);                 // S/N 40 at width 100
  SnrSettings settings;
  settings.detrend_len = 8000;
  settings.baseline = Baseline::kLinear;
  settings.noise = NoiseEstimate::kClippedRms;
  settings.widths = boxcar_widths_up_to(300);
  const auto events = search_one(make_series(x), settings);
  const SinglePulseEvent* best = strongest(events);
  ASSERT_NE(best, nullptr);
  // PRESTO's clipped rms counts the pulse's samples among the clipped 5 %: a few % low.
  EXPECT_NEAR(best->sigma, 40.0, 4.0);
  EXPECT_EQ(best->downfact, 100);
}

TEST(BoxcarSearch, NoiseGivesTheGaussianNumberOfEventsAboveFiveSigma) {
  // Unsmoothed samples are the independent trials: 32 series of 2^21 samples, about 19 events
  // expected above 5 sigma. (Wider boxcars overlap, so their excursions are not independent:
  // their count follows Rice's formula, not N / width.)
  const int64_t n = int64_t(1) << 21;
  const int nseries = 32;
  SnrSettings settings;
  settings.widths = {1};
  settings.detrend_len = 8000;
  const double expected = double(n) * nseries * 0.5 * std::erfc(5.0 / std::sqrt(2.0));
  auto engine = make_cpu_boxcar_engine(settings.widths, float(settings.threshold), 2);
  size_t count = 0;
  for (int first = 0; first < nseries; first += 8) {
    std::vector<SeriesInput> batch;
    for (int s = first; s < first + 8; ++s)
      batch.push_back(make_series(testing::gaussian_noise(n, 500 + uint64_t(s))));
    for (const auto& events : search_batch(batch, settings, *engine, 2)) count += events.size();
  }
  EXPECT_GT(double(count), expected / 2.0) << "expected about " << expected;
  EXPECT_LT(double(count), expected * 2.0) << "expected about " << expected;
}

TEST(BoxcarSearch, LeavesOutTheTailThatDoesNotFillADetrendBlock) {
  std::vector<float> x = testing::gaussian_noise(2500, 9);
  testing::add_boxcar_pulse(x, 2200, 1, 50.0f);  // in the partial block: not searched
  testing::add_boxcar_pulse(x, 1200, 1, 50.0f);
  SnrSettings settings;
  const auto events = search_one(make_series(x), settings);
  ASSERT_FALSE(events.empty());
  for (const auto& e : events) EXPECT_LT(e.sample, 2000);
  EXPECT_EQ(strongest(events)->sample, 1200);
}

TEST(BoxcarSearch, RejectsSeriesShorterThanOneBlock) {
  SnrSettings settings;
  EXPECT_THROW(search_one(make_series(testing::gaussian_noise(999, 1)), settings), DataError);
}

TEST(ChunkPeakSearch, RejectsSeriesShorterThanOneChunk) {
  SeriesInput series = make_series(testing::gaussian_noise(999, 1));
  try {
    chunk_peak_events(series, 1000, 5.0);
    FAIL() << "expected an error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              series.path + ": 999 usable samples, fewer than one chunk (1000)");
  }
}

TEST(ChunkPeakSearch, ReportsMaxMinusMeanOverStdPerChunk) {
  std::vector<float> x(4000, 0.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = (i % 2) ? 1.0f : -1.0f;  // mean 0, std 1
  x[1500] = 30.0f;  // chunk 1: mean and std change a little; computed below
  SeriesInput series = make_series(x);
  const auto events = chunk_peak_events(series, 1000, 5.0);
  ASSERT_EQ(events.size(), 1u);
  double sum = 0, sum_sq = 0;
  for (int i = 1000; i < 2000; ++i) sum += x[i], sum_sq += double(x[i]) * x[i];
  const double mean = sum / 1000, sd = std::sqrt(sum_sq / 1000 - mean * mean);
  EXPECT_EQ(events[0].sample, 1500);
  EXPECT_NEAR(events[0].sigma, (30.0 - mean) / sd, 1e-9);
  EXPECT_EQ(events[0].downfact, 1);
}

}  // namespace
}  // namespace rapt
