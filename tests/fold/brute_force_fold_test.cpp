// Brute-force folding of a (DM, period) grid: the fixed-point phase rule, the S/N definition
// (a pulse train gives the S/N its width and amplitude imply, at the injected DM and period;
// noise gives the documented distribution), the CPU engine's threads, and the GPU engine
// against the CPU engine (skipped without a GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "fold/brute_force_fold.hpp"
#include "gpu_device.hpp"

namespace rapt {
namespace {

constexpr double kTsamp = 40.96e-6;     // Apertif
constexpr int64_t kSamples = 24414;     // one second of it

std::vector<float> noise(int ndm, int64_t nsamples, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> x(size_t(ndm) * size_t(nsamples));
  for (float& v : x) v = normal(rng);
  return x;
}

// Periods 2 ms x 1.07^k: no two related by a small integer ratio.
std::vector<double> geometric_periods(int count, double first_s = 2e-3, double ratio = 1.07) {
  std::vector<double> p;
  for (int k = 0; k < count; ++k) p.push_back(first_s * std::pow(ratio, k));
  return p;
}

// Adds `amplitude` to the samples whose phase at `period_s` lies in bin `bin` of `nbins`.
void add_pulse_train(float* x, int64_t nsamples, double period_s, int nbins, int bin,
                     float amplitude) {
  for (int64_t n = 0; n < nsamples; ++n) {
    const double phase = std::fmod(n * kTsamp / period_s, 1.0);
    if (int(phase * nbins) == bin) x[n] += amplitude;
  }
}

// Mean and standard deviation of max - mean of `nbins` independent standard normals, from the
// density of the largest, nbins phi(x) Phi(x)^(nbins-1); max - mean is independent of the
// mean, so its variance is Var(max) - 1/nbins.
void expected_noise_snr(int nbins, double& mean, double& stddev) {
  double m1 = 0.0, m2 = 0.0;
  const double h = 1e-3;
  for (double x = -8.0; x < 8.0; x += h) {
    const double pdf = std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI);
    const double cdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
    const double f = nbins * pdf * std::pow(cdf, nbins - 1);
    m1 += x * f * h;
    m2 += x * x * f * h;
  }
  mean = m1;
  stddev = std::sqrt(m2 - m1 * m1 - 1.0 / nbins);
}

TEST(BruteForcePhase, BinsAPeriodOfExactly32SamplesOnePerSample) {
  BruteForceFoldGrid grid;
  grid.tsamp_s = kTsamp;
  grid.periods_s = {32 * kTsamp};
  grid.nbins = 32;
  const uint32_t step = brute_force_phase_steps(grid)[0];
  EXPECT_EQ(step, uint32_t(1) << 27);
  for (int64_t n = 0; n < 100; ++n) EXPECT_EQ(brute_force_bin(uint64_t(n), step, 32), int(n % 32));
}

TEST(BruteForceFold, PulseTrainOfOneBinPutsItsFluxInThatBin) {
  std::vector<float> x(32 * 100, 0.0f);
  for (size_t n = 7; n < x.size(); n += 32) x[n] = 1.0f;
  std::vector<double> sums;
  std::vector<int64_t> counts;
  fold_series(x.data(), int64_t(x.size()), 1.0 / 32.0, uint32_t(1) << 27, 32, sums, counts);
  for (int b = 0; b < 32; ++b) {
    EXPECT_EQ(counts[size_t(b)], 100);
    EXPECT_NEAR(sums[size_t(b)], b == 7 ? 100.0 * 31.0 / 32.0 : -100.0 / 32.0, 1e-9) << b;
  }
}

TEST(BruteForceFold, RunsOfSamplesAddUpLikeSampleBySampleBinning) {
  const std::vector<float> x = noise(1, 5000, 3);
  for (uint32_t step : {12345678u, 987654321u, 4000000u}) {
    std::vector<double> sums, direct(16, 0.0);
    std::vector<int64_t> counts, direct_counts(16, 0);
    fold_series(x.data(), 5000, 0.25, step, 16, sums, counts);
    for (int64_t n = 0; n < 5000; ++n) {
      const int b = brute_force_bin(uint64_t(n), step, 16);
      direct[size_t(b)] += x[size_t(n)] - 0.25;
      ++direct_counts[size_t(b)];
    }
    for (int b = 0; b < 16; ++b) {
      EXPECT_NEAR(sums[size_t(b)], direct[size_t(b)], 1e-9);
      EXPECT_EQ(counts[size_t(b)], direct_counts[size_t(b)]);
    }
  }
}

TEST(BruteForceFold, SnrMapPeaksAtTheInjectedDmAndPeriod) {
  const int ndm = 7, true_dm = 3, true_period = 17, nbins = 32;
  BruteForceFoldGrid grid;
  grid.tsamp_s = kTsamp;
  grid.periods_s = geometric_periods(40);
  grid.nbins = nbins;
  std::vector<float> x = noise(ndm, kSamples, 11);
  const float amplitude = 0.8f;
  add_pulse_train(x.data() + true_dm * kSamples, kSamples, grid.periods_s[true_period], nbins, 9,
                  amplitude);
  for (int d : {true_dm - 1, true_dm + 1})  // the neighbouring DMs see it smeared and weaker
    add_pulse_train(x.data() + d * kSamples, kSamples, grid.periods_s[true_period], nbins, 9,
                    0.3f * amplitude);
  const BruteForceFoldResult r = make_cpu_brute_force_engine(2)->fold(x.data(), ndm, kSamples, grid);
  ASSERT_EQ(r.snr.size(), size_t(ndm) * grid.periods_s.size());
  const size_t best = size_t(std::max_element(r.snr.begin(), r.snr.end()) - r.snr.begin());
  EXPECT_EQ(int(best) / r.nperiods, true_dm);
  EXPECT_EQ(int(best) % r.nperiods, true_period);
  // (31/32) A sqrt(samples per bin) / sigma, sigma including the pulse's own variance.
  const double sigma = std::sqrt(1.0 + amplitude * amplitude * (1.0 / 32.0) * (31.0 / 32.0));
  const double expected = 31.0 / 32.0 * amplitude * std::sqrt(double(kSamples) / nbins) / sigma;
  EXPECT_NEAR(r.at(true_dm, true_period), expected, 1.5);
  EXPECT_GT(r.at(true_dm, true_period), 10.0);
}

TEST(BruteForceFold, NoiseGivesTheDocumentedSnrDistribution) {
  for (int nbins : {16, 32}) {
    const int ndm = 32;
    BruteForceFoldGrid grid;
    grid.tsamp_s = kTsamp;
    grid.periods_s = geometric_periods(64, 2e-3, 1.05);
    grid.nbins = nbins;
    const std::vector<float> x = noise(ndm, kSamples, 20 + unsigned(nbins));
    const BruteForceFoldResult r = make_cpu_brute_force_engine(2)->fold(x.data(), ndm, kSamples, grid);
    double sum = 0.0, sum2 = 0.0;
    for (float s : r.snr) {
      sum += s;
      sum2 += double(s) * s;
    }
    const double n = double(r.snr.size());
    const double mean = sum / n, stddev = std::sqrt(sum2 / n - mean * mean);
    double expected_mean = 0.0, expected_stddev = 0.0;
    expected_noise_snr(nbins, expected_mean, expected_stddev);
    EXPECT_NEAR(mean, expected_mean, 0.06) << nbins << " bins";
    EXPECT_NEAR(stddev, expected_stddev, 0.05) << nbins << " bins";
  }
}

TEST(BruteForceFold, ThreadCountDoesNotChangeTheMap) {
  BruteForceFoldGrid grid;
  grid.tsamp_s = kTsamp;
  grid.periods_s = geometric_periods(20);
  const std::vector<float> x = noise(5, 6000, 5);
  const auto a = make_cpu_brute_force_engine(1)->fold(x.data(), 5, 6000, grid);
  const auto b = make_cpu_brute_force_engine(3)->fold(x.data(), 5, 6000, grid);
  EXPECT_EQ(a.snr, b.snr);
}

TEST(BruteForceFold, ConstantSeriesGivesZero) {
  BruteForceFoldGrid grid;
  grid.tsamp_s = kTsamp;
  grid.periods_s = geometric_periods(3);
  const std::vector<float> x(2 * 4000, 5.0f);
  const auto r = make_cpu_brute_force_engine(1)->fold(x.data(), 2, 4000, grid);
  for (float s : r.snr) EXPECT_EQ(s, 0.0f);
}

std::string usage_error_of(const BruteForceFoldGrid& grid) {
  const std::vector<float> x(1000, 0.0f);
  try {
    make_cpu_brute_force_engine(1)->fold(x.data(), 1, 1000, grid);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(BruteForceFold, RefusesBadGrids) {
  BruteForceFoldGrid grid;
  grid.tsamp_s = 1e-3;
  grid.periods_s = {0.1};
  grid.nbins = 1;
  EXPECT_EQ(usage_error_of(grid), "brute-force fold: 1 bins; supported: 2 to 64");
  grid.nbins = 65;
  EXPECT_EQ(usage_error_of(grid), "brute-force fold: 65 bins; supported: 2 to 64");
  grid.nbins = 32;
  grid.periods_s = {0.1, 0.02};
  EXPECT_EQ(usage_error_of(grid),
            "brute-force fold: period 0.02 s is shorter than 32 samples of 0.001 s");
  grid.periods_s.clear();
  EXPECT_EQ(usage_error_of(grid), "brute-force fold: no trial periods");
  grid.periods_s = {0.1};
  grid.tsamp_s = 0.0;
  EXPECT_EQ(usage_error_of(grid), "brute-force fold: sample interval 0 s is not positive");
}

TEST(BruteForceFoldEngines, DeviceChoiceGivesTheCpuEngineOrRefusesAMissingGpu) {
  EXPECT_EQ(make_brute_force_engine("cpu", 2)->name(), "cpu x2");
  if (gpu_device_count() == 0) {
    EXPECT_THROW(make_brute_force_engine("gpu", 2), UsageError);
  }
}

TEST(BruteForceFoldGpu, GpuEngineMatchesTheCpuEngine) {
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  // DMs and periods that fill no block exactly; the shortest period has nbins samples.
  const int ndm = 9;
  for (int nbins : {32, 16, 64, 24}) {
    BruteForceFoldGrid grid;
    grid.tsamp_s = kTsamp;
    grid.periods_s = geometric_periods(300, nbins * kTsamp, 1.02);
    grid.nbins = nbins;
    std::vector<float> x = noise(ndm, kSamples, 40 + unsigned(nbins));
    for (float& v : x) v = 100.0f + 3.0f * v;  // an offset and a scale, as real series have
    add_pulse_train(x.data() + 4 * kSamples, kSamples, grid.periods_s[150], nbins, 2, 4.0f);
    const auto cpu = make_cpu_brute_force_engine(2)->fold(x.data(), ndm, kSamples, grid);
    const auto gpu = make_brute_force_engine("gpu:0", 1)->fold(x.data(), ndm, kSamples, grid);
    ASSERT_EQ(gpu.snr.size(), cpu.snr.size());
    size_t worst = 0;
    for (size_t i = 0; i < cpu.snr.size(); ++i)
      if (std::fabs(gpu.snr[i] - cpu.snr[i]) > std::fabs(gpu.snr[worst] - cpu.snr[worst])) worst = i;
    EXPECT_NEAR(gpu.snr[worst], cpu.snr[worst], 2e-3)
        << nbins << " bins, DM " << worst / 300 << ", period " << worst % 300;
    EXPECT_GT(cpu.at(4, 150), 20.0f);
  }
}

}  // namespace
}  // namespace rapt
