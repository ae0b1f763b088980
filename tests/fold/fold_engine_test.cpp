// The folding engine: pulse shape and phase, chunking, no dropped samples, device choice.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "cli/errors.hpp"
#include "fold/fold_engine.hpp"
#include "fold/fold_gpu_factory.hpp"
#include "gpu_device.hpp"
#include "test_statistics.hpp"

namespace {

// A narrow Gaussian pulse in phase (turns), centred at `centre`, wrapped.
double pulse(double phase, double centre, double width) {
  double d = phase - centre;
  d -= std::round(d);
  return std::exp(-0.5 * d * d / (width * width));
}

rapt::FoldLayout layout(int64_t n, int npart, int nsub, int nbins, rapt::FoldSpin spin) {
  rapt::FoldLayout l;
  l.npart = npart;
  l.nsub = nsub;
  l.nbins = nbins;
  l.total_samples = n;
  l.dt_s = 1e-3;
  l.spin = spin;
  return l;
}

// Mean profile over all parts (sums / weights) of subband `sub`.
std::vector<double> mean_profile(const rapt::FoldCube& cube, int sub) {
  std::vector<double> sums(size_t(cube.nbins)), weights(size_t(cube.nbins));
  for (int p = 0; p < cube.npart; ++p)
    for (int b = 0; b < cube.nbins; ++b) {
      sums[b] += cube.sum(p, sub, b);
      weights[b] += cube.weights[cube.cell(p, sub) * cube.nbins + b];
    }
  for (int b = 0; b < cube.nbins; ++b) sums[b] /= weights[b];
  return sums;
}

}  // namespace

TEST(FoldEngine, GivesTheInjectedPulseShapeAtTheRightPhase) {
  const rapt::FoldSpin spin{1.0 / 0.1234, -3e-5, 0.0};
  const int64_t n = 300000;
  std::mt19937 rng(7);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::vector<float> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    x[i] = noise(rng) + 0.8f * float(pulse(spin.phase((i + 0.5) * 1e-3), 0.3, 0.03));
  auto engine = rapt::make_cpu_fold_engine(layout(n, 16, 1, 64, spin));
  engine->fold(x.data(), x.size(), 0, x.size());
  const std::vector<double> profile = mean_profile(engine->cube(), 0);
  std::vector<double> injected(64);
  for (int b = 0; b < 64; ++b) injected[b] = pulse((b + 0.5) / 64.0, 0.3, 0.03);
  EXPECT_GE(rapt::testing::pearson_correlation(profile, injected), 0.95);
  const int peak = int(std::max_element(profile.begin(), profile.end()) - profile.begin());
  EXPECT_NEAR(peak, int(0.3 * 64), 1);
}

TEST(FoldEngine, PutsAOneBinPulseTrainInOneBin) {
  // Period of exactly 32 samples and 32 bins: every sample covers exactly one bin.
  const rapt::FoldSpin spin{1.0 / 0.032, 0.0, 0.0};
  std::vector<float> x(32 * 100, 0.0f);
  for (size_t i = 5; i < x.size(); i += 32) x[i] = 1.0f;
  auto engine = rapt::make_cpu_fold_engine(layout(int64_t(x.size()), 4, 1, 32, spin));
  engine->fold(x.data(), x.size(), 0, x.size());
  const rapt::FoldCube cube = engine->cube();
  for (int b = 0; b < 32; ++b) {
    double total = 0;
    for (int p = 0; p < 4; ++p) total += cube.sum(p, 0, b);
    EXPECT_NEAR(total, b == 5 ? 100.0 : 0.0, 1e-4) << "bin " << b;
  }
}

TEST(FoldEngine, FoldingInChunksEqualsFoldingAtOnce) {
  const rapt::FoldSpin spin{7.3, 1e-3, -2e-6};
  const int64_t n = 50001;
  const int nsub = 3;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> value(-2.0f, 5.0f);
  std::vector<float> x(size_t(n) * nsub);
  for (float& v : x) v = value(rng);
  const rapt::FoldLayout l = layout(n, 7, nsub, 37, spin);
  auto whole = rapt::make_cpu_fold_engine(l);
  whole->fold(x.data(), size_t(n), 0, size_t(n));
  auto chunked = rapt::make_cpu_fold_engine(l);
  const size_t sizes[] = {1, 999, 4096, 7, 12345, 3};
  std::vector<float> block;
  int64_t first = 0;
  for (size_t k = 0; first < n; ++k) {
    const size_t len = std::min<size_t>(sizes[k % 6], size_t(n - first));
    block.assign(len * nsub, 0.0f);
    for (int s = 0; s < nsub; ++s)
      std::copy_n(&x[size_t(s) * n + size_t(first)], len, &block[size_t(s) * len]);
    chunked->fold(block.data(), len, first, len);
    first += int64_t(len);
  }
  const rapt::FoldCube a = whole->cube(), b = chunked->cube();
  EXPECT_EQ(a.sums, b.sums);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.data_sum, b.data_sum);
  EXPECT_EQ(a.data_sumsq, b.data_sumsq);
}

TEST(FoldEngine, FoldsEverySample) {
  const rapt::FoldSpin spin{3.1, 0.0, 0.0};
  const int64_t n = 10007;  // not a multiple of the parts
  std::vector<float> x(size_t(n), 2.0f);
  auto engine = rapt::make_cpu_fold_engine(layout(n, 10, 1, 16, spin));
  engine->fold(x.data(), x.size(), 0, x.size());
  const rapt::FoldCube cube = engine->cube();
  EXPECT_EQ(std::accumulate(cube.count.begin(), cube.count.end(), int64_t(0)), n);
  const double weight = std::accumulate(cube.weights.begin(), cube.weights.end(), 0.0);
  const double sum = std::accumulate(cube.sums.begin(), cube.sums.end(), 0.0);
  EXPECT_NEAR(weight, double(n), 1e-2);
  EXPECT_NEAR(sum, 2.0 * n, 2e-2);
  for (int p = 0; p < 10; ++p) EXPECT_NEAR(double(cube.count[p]), n / 10.0, 1.0);
}

TEST(FoldLayout, SplitsPartsEvenlyAndFindsThem) {
  const rapt::FoldLayout l = layout(103, 10, 1, 8, {1.0, 0.0, 0.0});
  for (int64_t i = 0; i < 103; ++i) {
    const int p = l.part_of(i);
    EXPECT_LE(l.part_start(p), i);
    EXPECT_GT(p + 1 < 10 ? l.part_start(p + 1) : 103, i);
  }
}

TEST(FoldLayout, RejectsMorePartsThanSamples) {
  EXPECT_THROW(rapt::make_cpu_fold_engine(layout(5, 10, 1, 8, {1.0, 0.0, 0.0})), rapt::UsageError);
}

TEST(FoldEngineFactory, GivesTheEngineTheDeviceOptionAsksFor) {
  const rapt::FoldLayout l = layout(100, 2, 1, 8, {1.0, 0.0, 0.0});
  EXPECT_EQ(rapt::make_fold_engine(l, "cpu")->name(), "cpu");
  if (!rapt::kGpuFoldEngineBuilt) {
    EXPECT_EQ(rapt::make_fold_engine(l, "auto")->name(), "cpu");
    try {
      rapt::make_fold_engine(l, "gpu");
      FAIL() << "gpu accepted";
    } catch (const rapt::UsageError& e) {
      EXPECT_STREQ(e.what(),
                   "--device gpu: fold has no GPU engine in this build; use --device cpu or auto");
    }
  } else if (rapt::gpu_device_count() == 0) {
    EXPECT_EQ(rapt::make_fold_engine(l, "auto")->name(), "cpu");
    EXPECT_THROW(rapt::make_fold_engine(l, "gpu"), rapt::UsageError);
  } else {
    EXPECT_EQ(rapt::make_fold_engine(l, "auto")->name(), "gpu:0");
    EXPECT_EQ(rapt::make_fold_engine(l, "gpu")->name(), "gpu:0");
  }
}

TEST(FoldEngine, RefusesSamplesOutsideTheObservation) {
  auto engine = rapt::make_cpu_fold_engine(layout(100, 2, 1, 8, {1.0, 0.0, 0.0}));
  std::vector<float> x(10);
  EXPECT_THROW(engine->fold(x.data(), 10, 95, 10), rapt::UsageError);
}
