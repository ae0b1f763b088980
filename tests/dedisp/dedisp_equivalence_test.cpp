// Every dedispersion engine against a plain double-precision reference written here.
// Tolerance: bit-identical for integer (1/2/4/8-bit) input, whose float32 sums stay exact below
// 2^24; 1e-6 relative for float32 input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dedisp/dedisp_engine.hpp"
#include "gpu_device.hpp"

namespace {

struct Observation {
  int nchans = 64;
  double fch1_mhz = 1500.0;
  double foff_mhz = -4.0;
  double tsamp_s = 128e-6;
  std::vector<double> dms;
  int downsamp = 1;
  std::vector<bool> zapped;

  rapt::DedispPlan plan() const {
    rapt::DedispPlan p;
    p.nchans = nchans, p.fch1_mhz = fch1_mhz, p.foff_mhz = foff_mhz, p.tsamp_s = tsamp_s;
    p.dms = dms, p.downsamp = downsamp, p.zapped = zapped;
    return p;
  }
};

std::vector<double> dm_range(double lo, double step, int n) {
  std::vector<double> dms;
  for (int i = 0; i < n; ++i) dms.push_back(lo + step * i);
  return dms;
}

// Straight from the definition: delay = k DM (f^-2 - f_top^-2), rounded to the nearest sample.
std::vector<std::vector<long>> reference_delays(const Observation& obs) {
  const double k = 1.0 / 2.41e-4;
  double top = obs.fch1_mhz;
  for (int c = 0; c < obs.nchans; ++c) top = std::max(top, obs.fch1_mhz + c * obs.foff_mhz);
  std::vector<std::vector<long>> delays(obs.dms.size(), std::vector<long>(obs.nchans));
  for (size_t d = 0; d < obs.dms.size(); ++d)
    for (int c = 0; c < obs.nchans; ++c) {
      const double f = obs.fch1_mhz + c * obs.foff_mhz;
      const double seconds = k * obs.dms[d] * (1.0 / (f * f) - 1.0 / (top * top));
      delays[d][c] = long(std::floor(seconds / obs.tsamp_s + 0.5));
    }
  return delays;
}

bool used(const Observation& obs, int c) { return obs.zapped.empty() || !obs.zapped[c]; }

// Spectra needed for `per_dm` output samples per DM.
size_t spectra_for(const Observation& obs, size_t per_dm) {
  long max_delay = 0;
  for (const auto& row : reference_delays(obs))
    for (int c = 0; c < obs.nchans; ++c)
      if (used(obs, c)) max_delay = std::max(max_delay, row[c]);
  return size_t(max_delay) + per_dm * obs.downsamp;
}

// Every output sample is the sum over unzapped channels and `downsamp` consecutive samples.
std::vector<double> reference(const Observation& obs, const std::vector<double>& values,
                              size_t per_dm) {
  const auto delays = reference_delays(obs);
  std::vector<double> out(obs.dms.size() * per_dm, 0.0);
  for (size_t d = 0; d < obs.dms.size(); ++d)
    for (size_t i = 0; i < per_dm; ++i)
      for (int j = 0; j < obs.downsamp; ++j)
        for (int c = 0; c < obs.nchans; ++c)
          if (used(obs, c))
            out[d * per_dm + i] += values[(i * obs.downsamp + j + delays[d][c]) * obs.nchans + c];
  return out;
}

std::vector<uint8_t> pack_lsb_first(const std::vector<double>& values, int nchans, int nbits) {
  if (nbits == 8) return std::vector<uint8_t>(values.begin(), values.end());
  const size_t spectrum_bytes = size_t(nchans) * nbits / 8;
  std::vector<uint8_t> packed(values.size() / nchans * spectrum_bytes, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    const size_t t = i / nchans, bit = (i % nchans) * nbits;
    packed[t * spectrum_bytes + bit / 8] |= uint8_t(unsigned(values[i]) << (bit % 8));
  }
  return packed;
}

class DedispEquivalence : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() != "gpu") return;
#ifndef RAPT_WITH_CUDA
    GTEST_SKIP() << "this build has no CUDA support";
#else
    if (rapt::gpu_device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine";
#endif
  }

  // Integer samples of `nbits`: the engine must match the reference exactly.
  void expect_exact(const Observation& obs, int nbits, size_t per_dm, unsigned seed) {
    const size_t nspectra = spectra_for(obs, per_dm);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> sample(0, (1 << nbits) - 1);
    std::vector<double> values(nspectra * obs.nchans);
    for (double& v : values) v = sample(rng);
    const std::vector<double> expected = reference(obs, values, per_dm);
    const std::vector<uint8_t> packed = pack_lsb_first(values, obs.nchans, nbits);
    auto engine = rapt::make_dedisp_engine(obs.plan(), GetParam());
    std::vector<float> out(expected.size(), -1.0f);
    engine->execute({packed.data(), nbits, nspectra}, out.data(), per_dm);
    for (size_t i = 0; i < out.size(); ++i)
      ASSERT_EQ(double(out[i]), expected[i]) << "DM " << i / per_dm << " sample " << i % per_dm;
  }

  void expect_close_for_floats(const Observation& obs, size_t per_dm, unsigned seed) {
    const size_t nspectra = spectra_for(obs, per_dm);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> sample(50.0f, 150.0f);
    std::vector<float> floats(nspectra * obs.nchans);
    for (float& v : floats) v = sample(rng);
    const std::vector<double> values(floats.begin(), floats.end());
    const std::vector<double> expected = reference(obs, values, per_dm);
    auto engine = rapt::make_dedisp_engine(obs.plan(), GetParam());
    std::vector<float> out(expected.size(), -1.0f);
    engine->execute({floats.data(), 32, nspectra}, out.data(), per_dm);
    for (size_t i = 0; i < out.size(); ++i)
      ASSERT_NEAR(out[i], expected[i], 1e-6 * std::fabs(expected[i]))
          << "DM " << i / per_dm << " sample " << i % per_dm;
  }
};

TEST_P(DedispEquivalence, MatchesTheReferenceExactlyForEightBitSamples) {
  Observation obs;
  obs.nchans = 128;
  obs.dms = dm_range(0.0, 1.0, 70);
  expect_exact(obs, 8, 5000, 1);
}

TEST_P(DedispEquivalence, MatchesTheReferenceExactlyForPackedSamples) {
  Observation obs;
  obs.nchans = 48;
  obs.dms = dm_range(10.0, 3.0, 9);
  for (int nbits : {1, 2, 4}) {
    SCOPED_TRACE(std::to_string(nbits) + "-bit");
    expect_exact(obs, nbits, 2100, 20 + nbits);
  }
}

TEST_P(DedispEquivalence, MatchesTheReferenceWhenDownsampling) {
  Observation obs;
  obs.dms = dm_range(0.0, 5.0, 19);
  obs.downsamp = 3;
  expect_exact(obs, 8, 3001, 2);
  obs.downsamp = 8;
  expect_exact(obs, 2, 4003, 3);
}

TEST_P(DedispEquivalence, MatchesTheReferenceWithZappedChannelsAndAscendingFrequencies) {
  Observation obs;
  obs.nchans = 80;
  obs.fch1_mhz = 400.0;
  obs.foff_mhz = 0.5;
  obs.tsamp_s = 1e-3;
  obs.dms = dm_range(0.0, 2.0, 23);
  obs.zapped.assign(obs.nchans, false);
  for (int c : {0, 1, 2, 40, 79}) obs.zapped[c] = true;
  expect_exact(obs, 4, 2500, 4);
}

TEST_P(DedispEquivalence, MatchesTheReferenceWithinOnePartPerMillionForFloatSamples) {
  Observation obs;
  obs.nchans = 100;
  obs.foff_mhz = -2.5;
  obs.dms = dm_range(0.0, 2.0, 33);
  expect_close_for_floats(obs, 4000, 5);
  obs.downsamp = 5;
  expect_close_for_floats(obs, 4000, 6);
}

INSTANTIATE_TEST_SUITE_P(Engines, DedispEquivalence, ::testing::Values("cpu", "gpu"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
