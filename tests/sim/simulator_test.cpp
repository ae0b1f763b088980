// The simulator core: noise statistics, bandpass, reproducibility, independence of blocks and
// threads, RFI.
#include "sim/simulator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "sim/counter_rng.hpp"
#include "sim/noise.hpp"
#include "sim/signal_spec.hpp"
#include "simulation_reference.hpp"

using rapt::Simulator;
using rapt::SimulationPlan;
using rapt::testing::small_test_plan;

namespace {

std::vector<float> generate(SimulationPlan plan, int threads, int64_t first, size_t count) {
  Simulator sim(plan, threads);
  std::vector<float> data(count * plan.obs.nchans);
  sim.generate_block(first, count, data.data());
  return data;
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// A plan with one of every signal, to exercise every code path.
SimulationPlan busy_plan() {
  SimulationPlan plan = small_test_plan(20000);
  plan.noise.flat_bandpass = false;
  plan.noise.mean = 112;
  plan.noise.rms = 16;
  plan.pulsars.push_back(rapt::parse_pulsar_spec(
      "P=0.0314,DM=30,snr=50,pdot=1e-9,porb=300,asini=0.5,t0=10,index=-1.6"));
  plan.bursts.push_back(rapt::parse_burst_spec("t=5.5,DM=80,width=0.003,snr=20,scatter=0.002"));
  plan.rfi_lines.push_back(rapt::parse_rfi_line_spec("freq=380.2,amp=3,period=0.05"));
  plan.rfi_impulses.push_back(rapt::parse_rfi_impulse_spec("t=12.3456,amp=8,width=0.0025"));
  return plan;
}

}  // namespace

TEST(StandardNormal, HasGaussianMomentsTailsAndDistribution) {
  const size_t n = 10'000'000;
  std::vector<float> z(n);
  rapt::fill_standard_normal(rapt::stream_key(3, 1), 0, n, z.data());
  double m1 = 0, m2 = 0, m3 = 0, m4 = 0;
  size_t beyond3 = 0, beyond4 = 0;
  for (float v : z) {
    const double x = v;
    m1 += x, m2 += x * x, m3 += x * x * x, m4 += x * x * x * x;
    beyond3 += std::fabs(x) > 3;
    beyond4 += std::fabs(x) > 4;
  }
  m1 /= n, m2 /= n, m3 /= n, m4 /= n;
  EXPECT_NEAR(m1, 0.0, 0.0015);
  EXPECT_NEAR(m2, 1.0, 0.003);
  EXPECT_NEAR(m3, 0.0, 0.005);         // skewness; sigma of the estimate 8e-4
  EXPECT_NEAR(m4 / (m2 * m2), 3.0, 0.01);  // kurtosis; sigma 1.5e-3
  EXPECT_NEAR(beyond3 / double(n), 2 * (1 - normal_cdf(3)), 0.05 * 2.7e-3);
  EXPECT_NEAR(beyond4 / double(n), 2 * (1 - normal_cdf(4)), 0.2 * 6.3e-5);
  // Empirical distribution against the normal CDF at 0.01 sigma steps (Kolmogorov distance;
  // 1e-3 is twice the 1% critical value for this many deviates).
  constexpr int kBins = 1200;
  std::vector<size_t> below(kBins + 1, 0);
  for (float v : z) {
    const double position = std::ceil((v + 6.0) * 100.0);
    below[static_cast<size_t>(std::clamp(position, 0.0, double(kBins)))]++;
  }
  double distance = 0, cumulative = 0;
  for (int i = 0; i < kBins; ++i) {
    cumulative += below[i];  // deviates <= -6 + i / 100
    distance = std::max(distance, std::fabs(cumulative / n - normal_cdf(-6.0 + i / 100.0)));
  }
  EXPECT_LT(distance, 1e-3);
}

TEST(StandardNormal, NeighboursAreUncorrelated) {
  const size_t n = 4'000'000;
  std::vector<float> z(n);
  rapt::fill_standard_normal(rapt::stream_key(4, 1), 0, n, z.data());
  for (size_t lag : {1, 2, 3, 16, 64}) {
    double sum = 0;
    for (size_t i = 0; i + lag < n; ++i) sum += double(z[i]) * z[i + lag];
    EXPECT_NEAR(sum / (n - lag), 0.0, 0.0025) << "lag " << lag;  // sigma 5e-4
  }
  // Squares too: the two deviates of a Box-Muller pair share a radius.
  double sum = 0;
  for (size_t i = 0; i + 1 < n; i += 2) sum += (double(z[i]) * z[i] - 1) * (double(z[i + 1]) * z[i + 1] - 1);
  EXPECT_NEAR(sum / (n / 2), 0.0, 0.02);
}

TEST(StandardNormal, AnyRangeGivesTheSameValues) {
  std::vector<float> whole(1000), part(333);
  rapt::fill_standard_normal(99, 0, whole.size(), whole.data());
  for (uint64_t first : {0u, 1u, 7u, 31u, 32u, 33u, 500u}) {
    const size_t count = std::min<size_t>(part.size(), whole.size() - first);
    rapt::fill_standard_normal(99, first, count, part.data());
    EXPECT_EQ(0, std::memcmp(part.data(), whole.data() + first, count * sizeof(float))) << first;
  }
  std::vector<float> other(1000);
  rapt::fill_standard_normal(100, 0, other.size(), other.data());
  EXPECT_NE(0, std::memcmp(other.data(), whole.data(), whole.size() * sizeof(float)));
}

TEST(SimulatorNoise, HasTheRequestedLevelAndSigmaInEveryChannel) {
  SimulationPlan plan = small_test_plan(60000);
  plan.noise.flat_bandpass = false;
  plan.noise.mean = 112;
  plan.noise.rms = 16;
  Simulator sim(plan, 2);
  std::vector<float> data(plan.obs.nsamples * plan.obs.nchans);
  sim.generate_block(0, plan.obs.nsamples, data.data());
  const std::vector<float>& gain = sim.bandpass();
  for (int c = 0; c < plan.obs.nchans; ++c) {
    double sum = 0, sum_squares = 0;
    for (int64_t s = 0; s < plan.obs.nsamples; ++s) {
      const double v = data[s * plan.obs.nchans + c];
      sum += v, sum_squares += v * v;
    }
    const double mean = sum / plan.obs.nsamples;
    const double sigma = std::sqrt(sum_squares / plan.obs.nsamples - mean * mean);
    EXPECT_NEAR(mean, 112 * gain[c], 0.02 * 16 * gain[c]) << "channel " << c;
    EXPECT_NEAR(sigma, 16 * gain[c], 0.02 * 16 * gain[c]) << "channel " << c;
  }
}

TEST(SimulatorNoise, BandpassRollsOffAtBothEdges) {
  const std::vector<float> gain = rapt::bandpass_gains(1024, false);
  EXPECT_FLOAT_EQ(*std::max_element(gain.begin(), gain.end()), 1.0f);
  EXPECT_LT(gain.front(), 0.3f);
  EXPECT_LT(gain.back(), 0.3f);
  EXPECT_GT(*std::min_element(gain.begin() + 150, gain.end() - 150), 0.8f);
  for (size_t c = 1; c < gain.size(); ++c) EXPECT_LT(std::fabs(gain[c] - gain[c - 1]), 0.03f);
  const std::vector<float> flat = rapt::bandpass_gains(16, true);
  EXPECT_EQ(flat, std::vector<float>(16, 1.0f));
}

TEST(SimulatorNoise, FewBitOutputsHaveAFlatBandAndFitTheirRange) {
  SimulationPlan plan = small_test_plan(10);
  for (int nbits : {1, 2, 4, 8, 16}) {
    const rapt::NoiseLevels levels = rapt::default_noise_levels(nbits);
    const double top = std::pow(2.0, nbits) - 1;
    EXPECT_NEAR(levels.mean, top / 2, top * 0.07) << nbits;  // near mid-range
    if (nbits >= 8) {
      EXPECT_GE(std::min(levels.mean, top - levels.mean) / levels.rms, 7.0) << nbits;
    }
    plan.obs.nbits = nbits;
    plan.noise.flat_bandpass = false;
    Simulator sim(plan, 1);
    const auto& gain = sim.bandpass();
    if (nbits <= 4)
      EXPECT_EQ(*std::min_element(gain.begin(), gain.end()), 1.0f) << nbits;
    else
      EXPECT_LT(*std::min_element(gain.begin(), gain.end()), 0.5f) << nbits;
  }
  EXPECT_EQ(rapt::default_noise_levels(8).mean, 120);
  EXPECT_EQ(rapt::default_noise_levels(8).rms, 16);
}

TEST(Simulator, SameSeedGivesIdenticalDataAndOtherSeedsDiffer) {
  SimulationPlan plan = busy_plan();
  const std::vector<float> a = generate(plan, 1, 0, 5000);
  const std::vector<float> b = generate(plan, 1, 0, 5000);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)));
  plan.noise.seed = 8;
  const std::vector<float> c = generate(plan, 1, 0, 5000);
  size_t same = 0;
  for (size_t i = 0; i < a.size(); ++i) same += a[i] == c[i];
  EXPECT_LT(same, a.size() / 100);
}

TEST(Simulator, DataDoNotDependOnBlockSizesOrThreads) {
  const SimulationPlan plan = busy_plan();
  const int nchans = plan.obs.nchans;
  const std::vector<float> whole = generate(plan, 1, 0, plan.obs.nsamples);
  for (int threads : {2, 3, 5}) {
    Simulator sim(plan, threads);
    std::vector<float> pieces(whole.size());
    // Blocks of odd sizes, made out of order, including single spectra.
    const std::vector<int64_t> edges{0, 1, 778, 5000, 5001, 12345, 20000};
    for (size_t i = edges.size() - 1; i-- > 0;)
      sim.generate_block(edges[i], edges[i + 1] - edges[i], pieces.data() + edges[i] * nchans);
    EXPECT_EQ(0, std::memcmp(pieces.data(), whole.data(), whole.size() * sizeof(float)))
        << threads << " threads";
  }
}

TEST(Simulator, ReportsHowMuchTheBandpassCostsAPlainChannelSum) {
  SimulationPlan plan = small_test_plan(10);
  EXPECT_DOUBLE_EQ(Simulator(plan, 1).plain_sum_efficiency(), 1.0);
  plan.noise.flat_bandpass = false;
  const double efficiency = Simulator(plan, 1).plain_sum_efficiency();
  EXPECT_LT(efficiency, 1.0);
  EXPECT_GT(efficiency, 0.9);
}

TEST(RfiLine, AppearsInTheNearestChannelSwitchingOnAndOff) {
  SimulationPlan plan = small_test_plan(400);
  plan.noise.enabled = false;
  plan.rfi_lines.push_back(rapt::parse_rfi_line_spec("freq=380.2,amp=3,period=0.05"));
  plan.rfi_lines.push_back(rapt::parse_rfi_line_spec("freq=351,amp=2"));
  const std::vector<float> data = generate(plan, 2, 0, 400);
  const double tsamp = plan.obs.tsamp_s;
  for (int64_t s = 0; s < 400; ++s) {
    for (int c = 0; c < 64; ++c) {
      double expected = 0;
      if (c == 20) {  // 380 MHz: sin^2 averaged over the sample, by the midpoint rule
        for (int i = 0; i < 100; ++i)
          expected += 3 * std::pow(std::sin(M_PI * (s + (i + 0.5) / 100) * tsamp / 0.05), 2) / 100;
      }
      if (c == 49) expected = 2;  // 351 MHz
      ASSERT_NEAR(data[s * 64 + c], expected, 1e-4) << "sample " << s << " channel " << c;
    }
  }
}

TEST(RfiImpulse, HitsEveryChannelAtOnceForItsDuration) {
  SimulationPlan plan = small_test_plan(100);
  plan.noise.enabled = false;
  plan.rfi_impulses.push_back(rapt::parse_rfi_impulse_spec("t=0.0104,amp=8,width=0.0025"));
  plan.rfi_impulses.push_back(rapt::parse_rfi_impulse_spec("t=0.050,amp=5"));
  const std::vector<float> data = generate(plan, 1, 0, 100);
  const std::vector<std::pair<int, double>> expected{
      {10, 8 * 0.6}, {11, 8.0}, {12, 8.0 * 0.9}, {50, 5.0}};
  for (int64_t s = 0; s < 100; ++s) {
    double value = 0;
    for (const auto& [sample, v] : expected)
      if (sample == s) value = v;
    for (int c = 0; c < 64; ++c) ASSERT_NEAR(data[s * 64 + c], value, 1e-4) << s << " " << c;
  }
}

TEST(Simulator, CountsTheValuesTheOutputCannotStore) {
  SimulationPlan plan = small_test_plan(3000);
  plan.obs.nbits = 8;
  plan.noise.mean = 240;  // near the top of 0..255: the upper tail clips
  plan.noise.rms = 8;
  Simulator sim(plan, 3);
  std::vector<float> data(plan.obs.nsamples * plan.obs.nchans);
  sim.generate_block(0, 1000, data.data());
  sim.generate_block(1000, 2000, data.data() + 1000 * plan.obs.nchans);
  int64_t outside = 0;
  for (float v : data) outside += v < -0.5f || v > 255.5f;
  EXPECT_GT(outside, 1000);
  EXPECT_EQ(sim.values_out_of_range(), outside);
  plan.obs.nbits = 32;
  Simulator float_output(plan, 2);
  float_output.generate_block(0, 3000, data.data());
  EXPECT_EQ(float_output.values_out_of_range(), 0);
}
