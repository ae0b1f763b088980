// Cleaning before dedispersion: mask replacement, normalisation, clipping, zero-DM.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "cli/errors.hpp"
#include "dedisp/spectra_preparer.hpp"

namespace {

class Spectra : public rapt::SpectraSource {
 public:
  Spectra(int nchans, std::vector<float> data) : data_(std::move(data)) {
    info_.path = "memory";
    info_.nchans = nchans;
    info_.tsamp_s = 1e-3;
    info_.fch1_mhz = 1400.0;
    info_.foff_mhz = -1.0;
    info_.nspectra = int64_t(data_.size() / nchans);
  }
  const rapt::ObservationInfo& info() const override { return info_; }
  size_t read(float* out, size_t max_spectra) override {
    const size_t n = std::min(max_spectra, size_t(info_.nspectra) - next_);
    std::copy_n(data_.data() + next_ * info_.nchans, n * info_.nchans, out);
    next_ += n;
    return n;
  }

 private:
  rapt::ObservationInfo info_;
  std::vector<float> data_;
  size_t next_ = 0;
};

std::vector<float> read_all(rapt::SpectraSource& source, size_t chunk) {
  std::vector<float> out;
  std::vector<float> buffer(chunk * source.info().nchans);
  for (size_t n; (n = source.read(buffer.data(), chunk)) > 0;)
    out.insert(out.end(), buffer.begin(), buffer.begin() + n * source.info().nchans);
  return out;
}

std::vector<float> gaussian(size_t count, float mean, float sigma, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> value(mean, sigma);
  std::vector<float> out(count);
  for (float& v : out) v = value(rng);
  return out;
}

}  // namespace

TEST(PreparedSpectra, ReplacesMaskedSamplesByTheIntervalMeanOfTheRest) {
  const int nchans = 4;
  std::vector<float> data(20 * nchans);
  for (size_t t = 0; t < 20; ++t)
    for (int c = 0; c < nchans; ++c) data[t * nchans + c] = float(c * 100 + t);
  rapt::SpectraPreparation prep;
  prep.interval_spectra = 10;
  prep.masked_channels = {{2}, {}};  // channel 2 flagged in the first interval only
  Spectra source(nchans, data);
  rapt::PreparedSpectra prepared(source, prep);
  const std::vector<float> out = read_all(prepared, 7);
  ASSERT_EQ(out.size(), data.size());
  for (size_t t = 0; t < 20; ++t)
    for (int c = 0; c < nchans; ++c) {
      // Channel 2 was flagged throughout its interval: it takes the mean of the other channels.
      const float expected = (c == 2 && t < 10) ? (4.5f + 104.5f + 304.5f) / 3.0f
                                                : data[t * nchans + c];
      ASSERT_FLOAT_EQ(out[t * nchans + c], expected) << t << " " << c;
    }
}

TEST(PreparedSpectra, NormalisesChannelsToZeroMedianAndUnitRobustSigma) {
  const int nchans = 3;
  std::vector<float> data(4000 * nchans);
  const std::vector<float> noise = gaussian(data.size(), 0.0f, 1.0f, 1);
  for (size_t i = 0; i < data.size(); ++i) data[i] = 50.0f * (i % nchans + 1) + 7.0f * noise[i];
  rapt::SpectraPreparation prep;
  prep.interval_spectra = 4000;
  prep.normalise = true;
  Spectra source(nchans, data);
  rapt::PreparedSpectra prepared(source, prep);
  const std::vector<float> out = read_all(prepared, 1000);
  for (int c = 0; c < nchans; ++c) {
    double sum = 0.0, squares = 0.0;
    for (size_t t = 0; t < 4000; ++t) sum += out[t * nchans + c], squares += std::pow(out[t * nchans + c], 2);
    EXPECT_NEAR(sum / 4000, 0.0, 0.05);
    EXPECT_NEAR(std::sqrt(squares / 4000), 1.0, 0.05);
  }
}

TEST(PreparedSpectra, ClipsABroadbandBurst) {
  const int nchans = 16;
  std::vector<float> data = gaussian(1000 * nchans, 100.0f, 5.0f, 2);
  for (int c = 0; c < nchans; ++c) data[500 * nchans + c] += 80.0f;
  rapt::SpectraPreparation prep;
  prep.interval_spectra = 1000;
  prep.clip_sigma = 6.0;
  Spectra source(nchans, data);
  rapt::PreparedSpectra prepared(source, prep);
  const std::vector<float> out = read_all(prepared, 333);
  double burst_mean = 0.0;
  for (int c = 0; c < nchans; ++c) burst_mean += out[500 * nchans + c] / nchans;
  EXPECT_NEAR(burst_mean, 100.0, 2.0);
  size_t changed = 0;
  for (size_t i = 0; i < data.size(); ++i) changed += out[i] != data[i];
  EXPECT_LE(changed, size_t(nchans) * 3);  // the burst, and at most a couple of noise spectra
}

TEST(PreparedSpectra, ZeroDmRemovesBroadbandSteps) {
  const int nchans = 8;
  std::vector<float> data = gaussian(200 * nchans, 10.0f, 1.0f, 3);
  std::vector<float> stepped(data);
  for (size_t t = 100; t < 200; ++t)
    for (int c = 0; c < nchans; ++c) stepped[t * nchans + c] += 30.0f;
  rapt::SpectraPreparation prep;
  prep.interval_spectra = 200;
  prep.zerodm = true;
  Spectra plain_source(nchans, data), stepped_source(nchans, stepped);
  rapt::PreparedSpectra plain(plain_source, prep), with_step(stepped_source, prep);
  const std::vector<float> a = read_all(plain, 50), b = read_all(with_step, 50);
  // What is left of the step is one level for the whole interval (its mean, 15), which
  // dedispersion turns into a constant (to the bandpass's noise: the channel means of 200
  // samples, each ~0.3 % from the others, set the channels' shares).
  for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(b[i] - a[i], 15.0f, 0.2) << i;
}

// Broadband RFI seen through the receiver's gain (a bandpass from 0.5 to 1.5): each channel
// loses its share of the zero-DM power by its gain, so no channel keeps any of the burst; an
// equal share for all would leave (gain - mean gain) x 30 in each, up to 15.
TEST(PreparedSpectra, ZeroDmRemovesRfiShapedByTheBandpass) {
  const int nchans = 16;
  const size_t n = 400;
  const std::vector<float> noise = gaussian(n * nchans, 0.0f, 1.0f, 5);
  std::vector<float> data(n * nchans);
  for (size_t t = 0; t < n; ++t)
    for (int c = 0; c < nchans; ++c) {
      const float gain = 0.5f + float(c) / float(nchans - 1);
      const float rfi = t >= 200 ? 30.0f : 0.0f;
      data[t * nchans + c] = gain * (10.0f + noise[t * nchans + c] + rfi);
    }
  rapt::SpectraPreparation prep;
  prep.interval_spectra = n;
  prep.zerodm = true;
  Spectra source(nchans, data);
  rapt::PreparedSpectra prepared(source, prep);
  const std::vector<float> out = read_all(prepared, 64);
  for (int c = 0; c < nchans; ++c) {
    double before = 0.0, during = 0.0;
    for (size_t t = 0; t < n; ++t) (t < 200 ? before : during) += out[t * nchans + c] / 200.0;
    EXPECT_NEAR(during - before, 0.0, 0.5) << "channel " << c;
  }
}

// The power level kept is one for the whole input (the first interval's): with a level per
// interval, every series would step at each interval's end, a periodicity of the interval.
TEST(PreparedSpectra, ZeroDmKeepsOneLevelAcrossIntervals) {
  const int nchans = 8;
  const size_t n = 3 * 256;
  const std::vector<float> noise = gaussian(n * nchans, 0.0f, 1.0f, 7);
  std::vector<float> data(n * nchans);
  for (size_t t = 0; t < n; ++t)
    for (int c = 0; c < nchans; ++c)  // a bandpass, and the level rising 10 % an interval
      data[t * nchans + c] =
          (1.0f + 0.1f * float(t / 256)) * (20.0f + 5.0f * float(c)) + noise[t * nchans + c];
  double first_level = 0.0;
  for (size_t i = 0; i < 256 * size_t(nchans); ++i) first_level += data[i] / 256.0;
  for (const bool normalise : {false, true}) {
    rapt::SpectraPreparation prep;
    prep.interval_spectra = 256;
    prep.zerodm = true;
    prep.normalise = normalise;
    Spectra source(nchans, data);
    rapt::PreparedSpectra prepared(source, prep);
    const std::vector<float> out = read_all(prepared, 100);
    double level = 0.0;
    for (int c = 0; c < nchans; ++c) level += out[c];
    if (!normalise) {
      EXPECT_NEAR(level, first_level, 1e-3 * first_level);
    }
    for (size_t t = 0; t < n; ++t) {
      double sum = 0.0;
      for (int c = 0; c < nchans; ++c) sum += out[t * nchans + c];
      ASSERT_NEAR(sum, level, 1e-3 * (1.0 + std::fabs(level)))
          << "normalise " << normalise << ", spectrum " << t;
    }
  }
}

// Normalised channels have a flat bandpass, and data of negative means none: the zero-DM
// power is then taken from every channel in equal shares, spectrum by spectrum.
TEST(PreparedSpectra, ZeroDmTakesEqualSharesWithoutABandpass) {
  const int nchans = 6;
  const size_t n = 300;
  std::vector<float> data = gaussian(n * nchans, 0.0f, 2.0f, 6);
  for (size_t t = 0; t < n; ++t) data[t * nchans] -= 5.0f;  // channel 0's mean below 0
  for (const bool normalise : {false, true}) {
    rapt::SpectraPreparation prep;
    prep.interval_spectra = n;
    prep.normalise = normalise;
    Spectra plain_source(nchans, data);
    rapt::PreparedSpectra plain(plain_source, prep);
    const std::vector<float> in = read_all(plain, n);  // normalised or not, before zero-DM
    prep.zerodm = true;
    Spectra source(nchans, data);
    rapt::PreparedSpectra prepared(source, prep);
    const std::vector<float> out = read_all(prepared, 100);
    double mean_of_means = 0.0;
    for (float v : in) mean_of_means += v / double(in.size());
    for (size_t t = 0; t < n; ++t) {
      double mean = 0.0;
      for (int c = 0; c < nchans; ++c) mean += in[t * nchans + c] / nchans;
      for (int c = 0; c < nchans; ++c)
        ASSERT_NEAR(out[t * nchans + c], in[t * nchans + c] - (mean - mean_of_means), 1e-4)
            << "normalise " << normalise << ", spectrum " << t << ", channel " << c;
    }
  }
}

TEST(PreparedSpectra, GivesTheSameSpectraWhateverTheReadSize) {
  const int nchans = 8;
  const std::vector<float> data = gaussian(3001 * nchans, 20.0f, 3.0f, 4);
  rapt::SpectraPreparation prep;
  prep.interval_spectra = 256;
  prep.normalise = prep.zerodm = true;
  prep.clip_sigma = 3.0;
  Spectra one(nchans, data), two(nchans, data);
  rapt::PreparedSpectra a(one, prep), b(two, prep);
  EXPECT_EQ(read_all(a, 1), read_all(b, 5000));
}
