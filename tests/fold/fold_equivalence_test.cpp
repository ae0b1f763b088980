// Every folding engine against the CPU reference: same cube within float rounding (relative
// 1e-5 of the largest bin sum), same counts and data sums, for blocks of uneven sizes. The
// "gpu" instance skips in a build without the GPU engine (fold_gpu_factory.hpp) or when no device is
// present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "fold/fold_engine.hpp"
#include "fold/fold_gpu_factory.hpp"
#include "gpu_device.hpp"

namespace {

class FoldEngineEquivalence : public ::testing::TestWithParam<std::string> {};

TEST_P(FoldEngineEquivalence, MatchesTheCpuReference) {
  const std::string device = GetParam();
  if (device != "cpu" && (!rapt::kGpuFoldEngineBuilt || rapt::gpu_device_count() == 0))
    GTEST_SKIP() << "no GPU fold engine in this build, or no GPU";
  rapt::FoldLayout l;
  l.npart = 9;
  l.nsub = 5;
  l.nbins = 48;
  l.total_samples = 40000;
  l.dt_s = 2.5e-4;
  l.spin = {1.0 / 0.0311, -2e-4, 1e-7};
  std::mt19937 rng(17);
  std::normal_distribution<float> noise(10.0f, 3.0f);
  std::vector<float> x(size_t(l.nsub) * size_t(l.total_samples));
  for (float& v : x) v = noise(rng);
  auto reference = rapt::make_cpu_fold_engine(l);
  auto engine = rapt::make_fold_engine(l, device);
  reference->fold(x.data(), size_t(l.total_samples), 0, size_t(l.total_samples));
  std::vector<float> block;
  for (int64_t first = 0, k = 0; first < l.total_samples; ++k) {
    const size_t n = std::min<size_t>(k % 2 ? 7919 : 1013, size_t(l.total_samples - first));
    block.resize(n * l.nsub);
    for (int s = 0; s < l.nsub; ++s)
      std::copy_n(&x[size_t(s) * l.total_samples + first], n, &block[s * n]);
    engine->fold(block.data(), n, first, n);
    first += int64_t(n);
  }
  const rapt::FoldCube a = reference->cube(), b = engine->cube();
  ASSERT_EQ(a.sums.size(), b.sums.size());
  const float scale = *std::max_element(a.sums.begin(), a.sums.end());
  for (size_t i = 0; i < a.sums.size(); ++i) {
    ASSERT_NEAR(a.sums[i], b.sums[i], 1e-5f * scale) << i;
    ASSERT_NEAR(a.weights[i], b.weights[i], 1e-4f) << i;
  }
  EXPECT_EQ(a.count, b.count);
  for (size_t i = 0; i < a.data_sum.size(); ++i)
    EXPECT_NEAR(a.data_sum[i], b.data_sum[i], 1e-6 * std::fabs(a.data_sum[i])) << i;
}

INSTANTIATE_TEST_SUITE_P(Engines, FoldEngineEquivalence, ::testing::Values("cpu", "gpu"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
