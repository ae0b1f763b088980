// Known-answer tests of the CPU dedispersion engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "dedisp/dedisp_engine.hpp"

namespace {

rapt::DedispPlan lband_plan(int nchans, std::vector<double> dms) {
  rapt::DedispPlan plan;
  plan.nchans = nchans;
  plan.fch1_mhz = 1500.0;
  plan.foff_mhz = -256.0 / nchans;
  plan.tsamp_s = 256e-6;
  plan.dms = std::move(dms);
  return plan;
}

std::vector<double> dm_range(double lo, double step, int n) {
  std::vector<double> dms;
  for (int i = 0; i < n; ++i) dms.push_back(lo + step * i);
  return dms;
}

struct Output {
  std::vector<float> samples;
  size_t per_dm = 0;
  float at(size_t dm, size_t t) const { return samples[dm * per_dm + t]; }
};

Output run(rapt::DedispEngine& engine, const void* data, int nbits, size_t nspectra) {
  Output out;
  out.per_dm = (nspectra - engine.max_delay()) / engine.plan().downsamp;
  out.samples.assign(out.per_dm * engine.plan().dms.size(), -1.0f);
  engine.execute({data, nbits, nspectra}, out.samples.data(), out.per_dm);
  return out;
}

// LSB-first packing (SIGPROC): channel c of a spectrum sits in bits (c*nbits)%8 of byte
// (c*nbits)/8.
std::vector<uint8_t> pack(const std::vector<uint8_t>& values, int nchans, int nbits) {
  const size_t spectrum_bytes = size_t(nchans) * nbits / 8;
  const size_t nspectra = values.size() / nchans;
  std::vector<uint8_t> packed(nspectra * spectrum_bytes, 0);
  for (size_t t = 0; t < nspectra; ++t)
    for (int c = 0; c < nchans; ++c) {
      const size_t bit = size_t(c) * nbits;
      packed[t * spectrum_bytes + bit / 8] |= uint8_t(values[t * nchans + c] << (bit % 8));
    }
  return packed;
}

std::vector<uint8_t> random_samples(size_t count, int nbits, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(0, (1 << nbits) - 1);
  std::vector<uint8_t> out(count);
  for (uint8_t& v : out) v = uint8_t(value(rng));
  return out;
}

}  // namespace

// A pulse injected with the plan's own (rounded) delays on a constant 8-bit background sums to
// exactly nchans * (background + amplitude) at its DM and time, and nowhere else.
TEST(CpuDedispEngine, SumsAnEightBitPulseExactlyAtItsDmAndSample) {
  const int nchans = 64;
  const rapt::DedispPlan plan = lband_plan(nchans, dm_range(0.0, 5.0, 21));
  const size_t true_dm = 12, t0 = 300, nspectra = 2048;
  std::vector<uint8_t> data(nspectra * nchans, 10);
  for (int c = 0; c < nchans; ++c)
    data[(t0 + plan.delay_samples(c, plan.dms[true_dm])) * nchans + c] += 90;
  auto engine = rapt::make_cpu_dedisp_engine(plan, 2);
  const Output out = run(*engine, data.data(), 8, nspectra);
  EXPECT_EQ(out.at(true_dm, t0), float(nchans * 100));
  EXPECT_EQ(out.at(true_dm, t0 + 1), float(nchans * 10));
  for (size_t d = 0; d < plan.dms.size(); ++d)
    for (size_t t = 0; t < out.per_dm; ++t)
      if (d != true_dm || t != t0) {
        ASSERT_LT(out.at(d, t), float(nchans * 100)) << d << " " << t;
      }
}

// A pulse dispersed with the exact (unrounded) cold-plasma law at a DM between trials, in
// Gaussian noise, is found within one DM step and one sample.
TEST(CpuDedispEngine, RecoversASimulatedDispersedPulseWithinOneStepAndOneSample) {
  const int nchans = 128;
  const double true_dm = 56.3, step = 2.0;
  const rapt::DedispPlan plan = lband_plan(nchans, dm_range(0.0, step, 51));
  const size_t nspectra = 4096;
  const double t0_s = 1000 * plan.tsamp_s;
  std::mt19937 rng(7);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::vector<float> data(nspectra * nchans);
  for (float& v : data) v = noise(rng);
  for (int c = 0; c < nchans; ++c) {
    const double arrival_s = t0_s + plan.delay_s(c, true_dm);
    const size_t t = size_t(std::floor(arrival_s / plan.tsamp_s + 0.5));
    data[t * nchans + c] += 4.0f;
  }
  auto engine = rapt::make_cpu_dedisp_engine(plan);
  const Output out = run(*engine, data.data(), 32, nspectra);
  size_t best_dm = 0, best_t = 0;
  for (size_t d = 0; d < plan.dms.size(); ++d)
    for (size_t t = 0; t < out.per_dm; ++t)
      if (out.at(d, t) > out.at(best_dm, best_t)) best_dm = d, best_t = t;
  EXPECT_LE(std::fabs(plan.dms[best_dm] - true_dm), step);
  EXPECT_LE(std::abs(long(best_t) - 1000L), 1L);
  EXPECT_GT(out.at(best_dm, best_t), 0.5f * 4.0f * nchans);  // noise sigma is sqrt(128)
}

TEST(CpuDedispEngine, DmZeroTrialEqualsTheChannelSum) {
  const int nchans = 96;
  const rapt::DedispPlan plan = lband_plan(nchans, {0.0, 30.0});
  const size_t nspectra = 1500;
  const std::vector<uint8_t> data = random_samples(nspectra * nchans, 8, 3);
  auto engine = rapt::make_cpu_dedisp_engine(plan, 3);
  const Output out = run(*engine, data.data(), 8, nspectra);
  for (size_t t = 0; t < out.per_dm; ++t) {
    long sum = 0;
    for (int c = 0; c < nchans; ++c) sum += data[t * nchans + c];
    ASSERT_EQ(out.at(0, t), float(sum)) << t;
  }
}

// 1-, 2- and 4-bit blocks give exactly what the same values as 8-bit samples give.
TEST(CpuDedispEngine, UnpacksLowBitSamplesLsbFirst) {
  const int nchans = 40;
  const rapt::DedispPlan plan = lband_plan(nchans, dm_range(0.0, 20.0, 5));
  const size_t nspectra = 900;
  for (int nbits : {1, 2, 4}) {
    const std::vector<uint8_t> values = random_samples(nspectra * nchans, nbits, 11 + nbits);
    const std::vector<uint8_t> packed = pack(values, nchans, nbits);
    auto engine = rapt::make_cpu_dedisp_engine(plan, 2);
    const Output expected = run(*engine, values.data(), 8, nspectra);
    const Output got = run(*engine, packed.data(), nbits, nspectra);
    EXPECT_EQ(got.samples, expected.samples) << nbits << "-bit";
  }
}

TEST(CpuDedispEngine, LeavesZappedChannelsOut) {
  const int nchans = 16;
  rapt::DedispPlan plan = lband_plan(nchans, {0.0});
  plan.zapped.assign(nchans, false);
  plan.zapped[3] = plan.zapped[9] = true;
  std::vector<float> data(100 * nchans, 1.0f);
  for (size_t t = 0; t < 100; ++t) data[t * nchans + 3] = data[t * nchans + 9] = 1000.0f;
  auto engine = rapt::make_cpu_dedisp_engine(plan);
  const Output out = run(*engine, data.data(), 32, 100);
  for (float v : out.samples) ASSERT_EQ(v, 14.0f);
}

TEST(CpuDedispEngine, GivesTheSameNumbersOnAnyThreadCount) {
  const int nchans = 64;
  const rapt::DedispPlan plan = lband_plan(nchans, dm_range(0.0, 1.5, 37));
  const size_t nspectra = 3000;
  std::mt19937 rng(5);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::vector<float> data(nspectra * nchans);
  for (float& v : data) v = noise(rng);
  auto one = rapt::make_cpu_dedisp_engine(plan, 1);
  auto three = rapt::make_cpu_dedisp_engine(plan, 3);
  EXPECT_EQ(run(*one, data.data(), 32, nspectra).samples,
            run(*three, data.data(), 32, nspectra).samples);
}

TEST(CpuDedispEngine, RefusesABlockNoLongerThanTheMaximumDelay) {
  const rapt::DedispPlan plan = lband_plan(32, {0.0, 100.0});
  auto engine = rapt::make_cpu_dedisp_engine(plan);
  std::vector<float> data(size_t(engine->max_delay()) * 32);
  std::vector<float> out(16);
  try {
    engine->execute({data.data(), 32, size_t(engine->max_delay())}, out.data(), 16);
    FAIL() << "expected an error";
  } catch (const rapt::UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "dedispersion engine: a block of " + std::to_string(engine->max_delay()) +
                  " spectra is not longer than the maximum delay (" +
                  std::to_string(engine->max_delay()) + " spectra)");
  }
}

TEST(CpuDedispEngine, RefusesUnsupportedSampleSizes) {
  const rapt::DedispPlan plan = lband_plan(32, {0.0});
  auto engine = rapt::make_cpu_dedisp_engine(plan);
  std::vector<uint16_t> data(100 * 32);
  std::vector<float> out(100);
  EXPECT_THROW(engine->execute({data.data(), 16, 100}, out.data(), 100), rapt::UsageError);
}

TEST(CpuDedispEngine, DownsamplesBySummingConsecutiveSamples) {
  const int nchans = 8;
  rapt::DedispPlan plan = lband_plan(nchans, {0.0});
  const std::vector<uint8_t> data = random_samples(99 * nchans, 8, 9);
  auto full = rapt::make_cpu_dedisp_engine(plan);
  const Output fine = run(*full, data.data(), 8, 99);
  plan.downsamp = 3;
  auto coarse_engine = rapt::make_cpu_dedisp_engine(plan);
  const Output coarse = run(*coarse_engine, data.data(), 8, 99);
  ASSERT_EQ(coarse.per_dm, 33u);
  for (size_t k = 0; k < 33; ++k)
    ASSERT_EQ(coarse.at(0, k), fine.at(0, 3 * k) + fine.at(0, 3 * k + 1) + fine.at(0, 3 * k + 2));
}
