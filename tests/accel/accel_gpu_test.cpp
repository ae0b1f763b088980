// The CUDA acceleration-search engine against the CPU engine (skipped without a GPU).
#include <gtest/gtest.h>

#include <cmath>
#include <future>
#include <random>

#include "accel/accel_search.hpp"
#include "accel/spectrum_input.hpp"
#include "gpu_device.hpp"
#include "io/presto_series.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

#define RAPT_REQUIRE_GPU() \
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU: the CUDA engine is not tested here"

std::vector<std::complex<float>> noise_with_pulsar(int64_t n, double dt, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<float> samples(static_cast<size_t>(n));
  const double T = n * dt;
  for (int64_t j = 0; j < n; ++j) {
    const double t = j * dt;
    const double phase = 37.3 * t + 0.5 * (20.0 / (T * T)) * t * t;
    const double cycle = phase - std::floor(phase);
    samples[size_t(j)] = float(noise(rng) + 0.6 * std::exp(-0.5 * std::pow((cycle - 0.5) / 0.02, 2)));
  }
  return packed_real_fft(samples);
}

void expect_same_candidates(const AccelSearchResult& cpu, const AccelSearchResult& gpu) {
  ASSERT_EQ(cpu.raw.size(), gpu.raw.size());
  for (size_t i = 0; i < cpu.raw.size(); ++i) {
    EXPECT_DOUBLE_EQ(cpu.raw[i].r, gpu.raw[i].r) << "candidate " << i + 1;
    EXPECT_DOUBLE_EQ(cpu.raw[i].z, gpu.raw[i].z) << "candidate " << i + 1;
    EXPECT_EQ(cpu.raw[i].numharm, gpu.raw[i].numharm) << "candidate " << i + 1;
    EXPECT_NEAR(cpu.raw[i].sigma, gpu.raw[i].sigma, 0.05) << "candidate " << i + 1;
  }
}

AccelSearchResult search_on(const std::string& device,
                            const std::vector<std::complex<float>>& spectrum,
                            const AccelSearchOptions& options, double T) {
  auto engine = make_accel_engine(device, 2);
  return find_accel_candidates(spectrum, options, T, true, *engine);
}

// In both plane precisions: with --fp16 both engines store the same rounded powers, so they
// still agree.
TEST(AccelGpuEngine, FindsTheSameCandidatesAsTheCpuEngineOnASimulatedPulsar) {
  RAPT_REQUIRE_GPU();
  const int64_t n = 1 << 20;
  const double dt = 64e-6;
  const auto spectrum = noise_with_pulsar(n, dt, 7);
  for (const PlanePrecision precision : {PlanePrecision::Float32, PlanePrecision::Float16}) {
    for (const int zmax : {0, 50, 200}) {
      AccelSearchOptions o;
      o.zmax = zmax;
      o.numharm = 16;
      o.plane_precision = precision;
      const auto cpu = search_on("cpu", spectrum, o, n * dt);
      const auto gpu = search_on("gpu", spectrum, o, n * dt);
      ASSERT_FALSE(cpu.raw.empty()) << "zmax " << zmax;
      expect_same_candidates(cpu, gpu);
    }
  }
}

// zmax 800 needs 10240-point FFTs, five times the usual length.
TEST(AccelGpuEngine, LongKernelsMatchTheCpuEngine) {
  RAPT_REQUIRE_GPU();
  const int64_t n = 1 << 18;
  const double dt = 64e-6;
  const auto spectrum = noise_with_pulsar(n, dt, 9);
  AccelSearchOptions o;
  o.zmax = 800;
  o.numharm = 4;
  const auto cpu = search_on("cpu", spectrum, o, n * dt);
  ASSERT_EQ(cpu.plan.fftlen, 10240);
  expect_same_candidates(cpu, search_on("gpu", spectrum, o, n * dt));
}

TEST(AccelGpuEngine, FindsTheSameCandidatesAsTheCpuEngineOnPrestosSeries) {
  RAPT_REQUIRE_GPU();
  RAPT_REQUIRE_SHARED_FILE(fft, "presto-golden/test_DM56.00.fft");
  const auto spectrum = read_fft(fft);
  AccelSearchOptions o;
  o.zmax = 50;
  o.numharm = 8;
  const auto cpu = search_on("cpu", spectrum, o, 67.108864);
  const auto gpu = search_on("gpu", spectrum, o, 67.108864);
  expect_same_candidates(cpu, gpu);
}

TEST(AccelGpuEngine, InterbinPathMatchesTheCpuEngine) {
  RAPT_REQUIRE_GPU();
  const int64_t n = 1 << 20;
  const auto spectrum = noise_with_pulsar(n, 64e-6, 8);
  AccelSearchOptions o;
  o.zmax = 0;
  o.numharm = 32;
  o.plane_mode = PlaneMode::Interbin;
  for (const PlanePrecision precision : {PlanePrecision::Float32, PlanePrecision::Float16}) {
    o.plane_precision = precision;
    expect_same_candidates(search_on("cpu", spectrum, o, n * 64e-6),
                           search_on("gpu", spectrum, o, n * 64e-6));
  }
}

// zmax 400 needs 4096-point FFTs, the second fused length.
TEST(AccelGpuEngine, FourThousandPointCorrelationsMatchTheCpuEngine) {
  RAPT_REQUIRE_GPU();
  const int64_t n = 1 << 18;
  const double dt = 64e-6;
  const auto spectrum = noise_with_pulsar(n, dt, 11);
  AccelSearchOptions o;
  o.zmax = 400;
  o.numharm = 8;
  for (const PlanePrecision precision : {PlanePrecision::Float32, PlanePrecision::Float16}) {
    o.plane_precision = precision;
    const auto cpu = search_on("cpu", spectrum, o, n * dt);
    ASSERT_EQ(cpu.plan.fftlen, 4096);
    ASSERT_FALSE(cpu.raw.empty());
    expect_same_candidates(cpu, search_on("gpu", spectrum, o, n * dt));
  }
}

// Two searches in flight on one engine (each on its own thread and workspace) give what each
// gives alone.
TEST(AccelGpuEngine, ConcurrentSearchesGiveTheSameCandidatesAsOneAtATime) {
  RAPT_REQUIRE_GPU();
  const int64_t n = 1 << 20;
  const double dt = 64e-6;
  auto engine = make_accel_engine("gpu", 2);
  ASSERT_GE(engine->concurrent_searches(), 2);
  AccelSearchOptions o;
  o.zmax = 50;
  o.numharm = 8;
  std::vector<std::vector<std::complex<float>>> spectra;
  std::vector<AccelSearchResult> alone;
  for (uint64_t seed = 20; seed < 24; ++seed) {
    spectra.push_back(noise_with_pulsar(n, dt, seed));
    alone.push_back(find_accel_candidates(spectra.back(), o, n * dt, true, *engine));
  }
  std::vector<std::future<AccelSearchResult>> together;
  for (const auto& spectrum : spectra) {
    together.push_back(std::async(std::launch::async, [&] {
      return find_accel_candidates(spectrum, o, n * dt, true, *engine);
    }));
  }
  for (size_t i = 0; i < spectra.size(); ++i) {
    const AccelSearchResult r = together[i].get();
    ASSERT_EQ(r.raw.size(), alone[i].raw.size()) << "series " << i;
    for (size_t c = 0; c < r.raw.size(); ++c) {
      EXPECT_EQ(r.raw[c].r, alone[i].raw[c].r);
      EXPECT_EQ(r.raw[c].z, alone[i].raw[c].z);
      EXPECT_EQ(r.raw[c].sigma, alone[i].raw[c].sigma);
    }
  }
}

}  // namespace
}  // namespace rapt
