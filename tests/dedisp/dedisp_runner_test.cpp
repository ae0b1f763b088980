// The dedispersion runner: streaming, padding, lengths, downsampling and subbands, against
// direct double-precision references computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "dedisp/dedisp_runner.hpp"
#include "io/sigproc.hpp"
#include "dedisp_memory_io.hpp"
#include "test_data.hpp"

namespace {

using rapt::testing::MemorySink;
using rapt::testing::MemorySpectra;
using rapt::testing::observation;

std::vector<float> integer_noise(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> sample(0, 255);
  std::vector<float> out(count);
  for (float& v : out) v = float(sample(rng));
  return out;
}

rapt::DmTrialGroup dm_group(double lo, double step, int n, int downsamp = 1) {
  rapt::DmTrialGroup group;
  for (int i = 0; i < n; ++i) group.dms.push_back(lo + step * i);
  group.downsamp = downsamp;
  return group;
}

MemorySink run(const rapt::ObservationInfo& info, const std::vector<float>& data,
               const rapt::DedispRunConfig& config, bool pipe = false) {
  MemorySpectra source(info, data, pipe);
  MemorySink sink;
  rapt::run_dedispersion(source, nullptr, config, sink);
  return sink;
}

// PRESTO's delay rule, written out: k DM (f^-2 - f_top^-2) rounded to the nearest sample.
long reference_delay(const rapt::ObservationInfo& info, int c, double dm) {
  const double f = info.fch1_mhz + c * info.foff_mhz;
  const double top = std::max(info.fch1_mhz, info.fch1_mhz + (info.nchans - 1) * info.foff_mhz);
  return long(std::floor(dm / 2.41e-4 * (1.0 / (f * f) - 1.0 / (top * top)) / info.tsamp_s + 0.5));
}

// Direct double-precision dedispersion of the samples that lie wholly in the data, each the
// mean of `downsamp` spectra's sums (prepsubband's -downsamp).
std::vector<double> reference_series(const rapt::ObservationInfo& info,
                                     const std::vector<float>& data, double dm, int downsamp) {
  const size_t nspectra = data.size() / info.nchans;
  const long max_delay = reference_delay(info, info.foff_mhz < 0 ? info.nchans - 1 : 0, dm);
  std::vector<double> out((nspectra - max_delay) / downsamp, 0.0);
  for (size_t k = 0; k < out.size(); ++k)
    for (int j = 0; j < downsamp; ++j)
      for (int c = 0; c < info.nchans; ++c)
        out[k] += data[(k * downsamp + j + reference_delay(info, c, dm)) * info.nchans + c];
  for (double& v : out) v /= downsamp;
  return out;
}

}  // namespace

TEST(DedispRunner, ChunkedEqualsOneShotForEveryGulpSize) {
  const rapt::ObservationInfo info = observation(64, -4.0);
  const std::vector<float> data = integer_noise(5003 * 64, 1);
  rapt::DedispRunConfig config;
  config.groups = {dm_group(0.0, 3.0, 20, 1), dm_group(60.0, 6.0, 7, 2), dm_group(100, 10, 3, 3)};
  config.gulp = 1 << 20;
  const MemorySink one_shot = run(info, data, config);
  for (size_t gulp : {1, 100, 256, 1000, 4096}) {
    config.gulp = gulp;
    const MemorySink chunked = run(info, data, config, gulp == 100);
    EXPECT_EQ(chunked.series, one_shot.series) << "gulp " << gulp;
  }
}

TEST(DedispRunner, SubbandOutputDoesNotDependOnTheGulpSize) {
  const rapt::ObservationInfo info = observation(64, -4.0);
  const std::vector<float> data = integer_noise(4000 * 64, 2);
  rapt::DedispRunConfig config;
  config.groups = {dm_group(0.0, 2.0, 40, 2)};
  config.nsub = 8;
  config.gulp = 1 << 20;
  const MemorySink one_shot = run(info, data, config);
  config.gulp = 300;
  EXPECT_EQ(run(info, data, config).series, one_shot.series);
}

TEST(DedispRunner, DmZeroTrialEqualsTheChannelSum) {
  const rapt::ObservationInfo info = observation(32);
  const std::vector<float> data = integer_noise(1000 * 32, 3);
  rapt::DedispRunConfig config;
  config.groups = {dm_group(0.0, 50.0, 2)};
  config.length = rapt::OutputLength::kComputed;
  const MemorySink sink = run(info, data, config);
  ASSERT_EQ(sink.series[0].size(), 1000u);
  for (size_t t = 0; t < 1000; ++t) {
    double sum = 0.0;
    for (int c = 0; c < 32; ++c) sum += data[t * 32 + c];
    ASSERT_EQ(sink.series[0][t], sum) << t;
  }
  EXPECT_EQ(sink.summaries[0].real_samples, 1000);
}

// Stated tolerance for downsampling: exact for integer samples, as the float sums are exact
// and dividing them by 4 is too.
TEST(DedispRunner, DownsampledSeriesEqualTheDirectReference) {
  const rapt::ObservationInfo info = observation(48);
  const std::vector<float> data = integer_noise(3001 * 48, 4);
  rapt::DedispRunConfig config;
  config.groups = {dm_group(10.0, 15.0, 4, 4)};
  const MemorySink sink = run(info, data, config);
  for (size_t d = 0; d < 4; ++d) {
    const std::vector<double> expected = reference_series(info, data, 10.0 + 15.0 * d, 4);
    ASSERT_EQ(sink.summaries[d].real_samples, int64_t(expected.size()));
    for (size_t k = 0; k < expected.size(); ++k)
      ASSERT_EQ(sink.series[d][k], expected[k]) << "DM " << d << " sample " << k;
  }
}

// Stated tolerance for two-stage subbands: the sub-DM of a group is off by at most one output
// sample of smearing within a subband (subband_tolerance 1), and each stage rounds its delays
// to the nearest sample, so every channel lands within two samples of its direct delay. Hence
// |subband - direct| at each sample is at most the sum over channels of how much that channel
// changes within two samples. Near the pulse's DM, the peak of a Gaussian pulse (sigma 3
// samples) also stays at the same sample (+-1) with at least 97% of its height.
TEST(DedispRunner, SubbandSeriesAgreeWithTheDirectReference) {
  const int nchans = 128;
  const rapt::ObservationInfo info = observation(nchans);
  const size_t nspectra = 4000;
  const double true_dm = 47.3, t0 = 1500.0, sigma = 3.0;
  std::vector<float> data(nspectra * nchans, 0.0f);
  for (int c = 0; c < nchans; ++c) {
    const double f = info.fch1_mhz + c * info.foff_mhz;
    const double arrival = t0 + true_dm / 2.41e-4 * (1 / (f * f) - 1 / (1500.0 * 1500.0)) /
                                    info.tsamp_s;
    for (size_t t = 0; t < nspectra; ++t)
      data[t * nchans + c] = float(100.0 * std::exp(-0.5 * std::pow((t - arrival) / sigma, 2)));
  }
  rapt::DedispRunConfig config;
  config.groups = {dm_group(40.0, 0.5, 30)};
  config.nsub = 16;
  const MemorySink sink = run(info, data, config);
  auto value = [&](long t, int c) {
    return t < 0 || t >= long(nspectra) ? 0.0 : double(data[t * nchans + c]);
  };
  for (size_t d = 0; d < 30; ++d) {
    const double dm = 40.0 + 0.5 * d;
    const std::vector<double> expected = reference_series(info, data, dm, 1);
    // Rounding may give the subband trial one real sample more or less than the direct one.
    const size_t real = std::min(size_t(sink.summaries[d].real_samples), expected.size());
    ASSERT_GE(real + 1, expected.size());
    for (size_t k = 0; k < real; ++k) {
      double bound = 1e-3 * expected[k];  // float rounding
      for (int c = 0; c < nchans; ++c) {
        const long t = long(k) + reference_delay(info, c, dm);
        double change = 0.0;
        for (long shift = -2; shift <= 2; ++shift)
          change = std::max(change, std::fabs(value(t + shift, c) - value(t, c)));
        bound += change;
      }
      ASSERT_LE(std::fabs(sink.series[d][k] - expected[k]), bound) << "DM " << dm << " " << k;
    }
    if (std::fabs(dm - true_dm) > 1.0) continue;  // elsewhere the pulse is smeared flat
    const auto peak = std::max_element(expected.begin(), expected.end());
    const auto got = std::max_element(sink.series[d].begin(), sink.series[d].end());
    EXPECT_GE(*got, 0.97 * *peak) << "DM " << dm;
    EXPECT_LE(std::abs((got - sink.series[d].begin()) - (peak - expected.begin())), 1) << dm;
  }
}

// As prepsubband: the series runs to a "good" length; what follows the real data is padding
// at the series mean, and the sink is told where the real data end.
TEST(DedispRunner, PadsTheTailToAGoodLengthWithTheMean) {
  const rapt::ObservationInfo info = observation(16);
  const std::vector<float> data = integer_noise(1001 * 16, 5);
  rapt::DedispRunConfig config;
  config.groups = {dm_group(0.0, 100.0, 2)};
  const MemorySink sink = run(info, data, config);
  double channel_mean_sum = 0.0;
  for (float v : data) channel_mean_sum += v;
  channel_mean_sum /= 1001.0;
  const long delay = reference_delay(info, 15, 100.0);
  ASSERT_EQ(sink.series[1].size(), 1008u);  // 1008 = 2^4 3^2 7, the first good length >= 1001
  EXPECT_EQ(sink.summaries[1].nsamples, 1008);
  EXPECT_EQ(sink.summaries[1].real_samples, 1001 - delay);
  EXPECT_NEAR(sink.summaries[1].pad_value, channel_mean_sum, 1e-3);
  for (size_t k = 1001; k < 1008; ++k) EXPECT_EQ(sink.series[1][k], sink.summaries[1].pad_value);
  // The samples past the real data mix real samples and channel means: near the mean.
  for (size_t k = 1001 - delay; k < 1001; ++k)
    EXPECT_NEAR(sink.series[1][k], channel_mean_sum, 0.5 * channel_mean_sum);
}

TEST(DedispRunner, NumoutCutsOrPadsToExactlyThatLength) {
  const rapt::ObservationInfo info = observation(16);
  const std::vector<float> data = integer_noise(900 * 16, 6);
  rapt::DedispRunConfig config;
  config.groups = {dm_group(0.0, 10.0, 3, 2)};
  config.length = rapt::OutputLength::kNumout;
  config.numout = 300;
  MemorySink sink = run(info, data, config);
  for (const auto& s : sink.series) EXPECT_EQ(s.size(), 300u);
  EXPECT_EQ(sink.summaries[0].real_samples, 300);
  config.numout = 600;
  sink = run(info, data, config);
  EXPECT_EQ(sink.series[2].size(), 600u);
  EXPECT_EQ(sink.summaries[2].real_samples, (900 - reference_delay(info, 15, 20.0)) / 2);
  EXPECT_EQ(sink.series[2][599], sink.summaries[2].pad_value);
  // Downsampled series are means of spectra, so their padding is the channel means' sum.
  double channel_mean_sum = 0.0;
  for (float v : data) channel_mean_sum += v;
  EXPECT_NEAR(sink.summaries[2].pad_value, channel_mean_sum / 900.0, 1e-3);
}

TEST(DedispRunner, RefusesADmWhoseDelayExceedsTheData) {
  const rapt::ObservationInfo info = observation(64);
  const std::vector<float> data = integer_noise(200 * 64, 7);
  rapt::DedispRunConfig config;
  config.groups = {dm_group(0.0, 100.0, 3)};
  const long needed = reference_delay(info, 63, 200.0) + 1;
  for (bool pipe : {false, true}) {
    try {
      run(info, data, config, pipe);
      FAIL() << "expected an error";
    } catch (const rapt::DataError& e) {
      EXPECT_EQ(std::string(e.what()),
                "memory.fil: DM 200 needs " + std::to_string(needed) +
                    " spectra (its dispersion delay plus one output sample) but the input has "
                    "only 200");
    }
  }
}

TEST(DedispRunner, RefusesAnEmptyDmList) {
  const rapt::ObservationInfo info = observation(8);
  rapt::DedispRunConfig config;
  EXPECT_THROW(run(info, integer_noise(100 * 8, 8), config), rapt::UsageError);
  config.groups = {rapt::DmTrialGroup{}};
  EXPECT_THROW(run(info, integer_noise(100 * 8, 8), config), rapt::UsageError);
}

TEST(DedispRunner, RefusesSubbandsThatDoNotDivideTheChannels) {
  const rapt::ObservationInfo info = observation(30);
  rapt::DedispRunConfig config;
  config.groups = {dm_group(0.0, 1.0, 2)};
  config.nsub = 8;
  try {
    run(info, integer_noise(100 * 30, 9), config);
    FAIL() << "expected an error";
  } catch (const rapt::UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--nsub 8 does not divide the 30 channels");
  }
}

TEST(DedispRunner, GoodLengthsAreEvenAndSevenSmooth) {
  EXPECT_EQ(rapt::good_series_length(262144), 262144);
  EXPECT_EQ(rapt::good_series_length(1001), 1008);
  EXPECT_EQ(rapt::good_series_length(1), 2);
  EXPECT_EQ(rapt::good_series_length(257), 270);
}

// SIGPROC samples of 1 to 8 bits may go to the engines packed; the numbers must be those of the
// float path (integer sums are exact either way).
TEST(DedispRunner, PackedSamplesGiveWhatFloatSamplesGive) {
  for (const char* name : {"sigpyproc3/parkes_1bit.fil", "sigpyproc3/parkes_2bit.fil",
                           "sigpyproc3/parkes_4bit.fil", "sigpyproc3/parkes_8bit_1.fil"}) {
    RAPT_REQUIRE_SHARED_FILE(path, name);
    rapt::DedispRunConfig config;
    config.groups = {dm_group(0.0, 20.0, 5), dm_group(100.0, 50.0, 2, 3)};
    config.gulp = 1000;
    rapt::SigprocReader packed_reader(path), float_reader(path);
    MemorySink packed, floats;
    const rapt::DedispRunReport report =
        rapt::run_dedispersion(packed_reader, &packed_reader, config, packed);
    EXPECT_TRUE(report.packed_input) << name;
    EXPECT_FALSE(rapt::run_dedispersion(float_reader, nullptr, config, floats).packed_input);
    EXPECT_EQ(packed.series, floats.series) << name;
    EXPECT_EQ(report.spectra_read, 4096);
  }
}
