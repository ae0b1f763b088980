// The CUDA folding engine against the CPU engine (skipped without a GPU).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "fold/fold_engine.hpp"
#include "fold/fold_gpu_factory.hpp"
#include "gpu_device.hpp"

namespace {

// Folds `data` (nsub series of n samples) with `engine` in blocks of `block` samples.
rapt::FoldCube fold_in_blocks(rapt::FoldEngine& engine, const std::vector<float>& data,
                              int64_t n, int nsub, int64_t block) {
  std::vector<float> buffer;
  for (int64_t first = 0; first < n; first += block) {
    const int64_t count = std::min(block, n - first);
    buffer.assign(size_t(nsub) * size_t(count), 0.0f);
    for (int sub = 0; sub < nsub; ++sub) {
      std::copy_n(data.begin() + sub * n + first, count, buffer.begin() + sub * count);
    }
    engine.fold(buffer.data(), size_t(count), first, size_t(count));
  }
  return engine.cube();
}

TEST(FoldGpuEngine, FoldsLikeTheCpuEngine) {
  if (!rapt::kGpuFoldEngineBuilt || rapt::gpu_device_count() == 0) {
    GTEST_SKIP() << "no GPU: the CUDA fold engine is not tested here";
  }
  const int64_t n = 300007;
  const int nsub = 5;
  rapt::FoldLayout layout;
  layout.npart = 7;
  layout.nsub = nsub;
  layout.nbins = 50;
  layout.total_samples = n;
  layout.dt_s = 2.56e-4;
  layout.spin = {11.4841, 3.1e-6, 2e-9};
  std::mt19937_64 rng(3);
  std::normal_distribution<float> noise(5.0f, 2.0f);
  std::vector<float> data(size_t(nsub) * n);
  for (float& x : data) x = noise(rng);
  auto cpu = rapt::make_cpu_fold_engine(layout);
  auto gpu = rapt::make_gpu_fold_engine(layout, 0);
  const rapt::FoldCube a = fold_in_blocks(*cpu, data, n, nsub, 65536);
  const rapt::FoldCube b = fold_in_blocks(*gpu, data, n, nsub, 40000);
  ASSERT_EQ(a.sums.size(), b.sums.size());
  for (size_t i = 0; i < a.sums.size(); ++i) {
    ASSERT_NEAR(a.sums[i], b.sums[i], 1e-5 * std::fabs(a.sums[i]) + 1e-3) << "bin " << i;
    ASSERT_NEAR(a.weights[i], b.weights[i], 1e-6 * std::fabs(a.weights[i]) + 1e-6) << "bin " << i;
  }
  EXPECT_EQ(a.count, b.count);
  for (size_t c = 0; c < a.data_sum.size(); ++c) {
    EXPECT_NEAR(a.data_sum[c], b.data_sum[c], 1e-9 * std::fabs(a.data_sum[c]));
    EXPECT_NEAR(a.data_sumsq[c], b.data_sumsq[c], 1e-9 * std::fabs(a.data_sumsq[c]));
  }
}

}  // namespace
