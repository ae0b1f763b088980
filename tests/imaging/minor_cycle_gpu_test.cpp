// CLEAN's minor cycle on the GPU (minor_cycle.hpp) against the host's: the same components,
// model, residual and peaks, bit for bit, on fields through a PSF with sidelobes (stopping at
// the threshold, at mgain and at the budget, with equal peaks to choose between), and in the
// major cycles of a simulated observation. Skipped without CUDA in the build or a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "clean_test_fields.hpp"
#include "cli/errors.hpp"
#include "gpu_device.hpp"
#include "imaging/clean_cycles.hpp"
#include "imaging/minor_cycle.hpp"

namespace rapt {
namespace {

#define SKIP_WITHOUT_GPU()                                                              \
  do {                                                                                  \
    if (!kGpuMinorCycleBuilt) GTEST_SKIP() << "built without CUDA";                     \
    if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU: the GPU minor cycle is not tested"; \
  } while (0)

using testing::ringing_psf;

void expect_same_minor_cycle(const std::vector<float>& psf, int n, const std::vector<float>& dirty,
                             const CleanSettings& s, int budget) {
  std::vector<float> host_residual = dirty, gpu_residual = dirty;
  std::vector<float> host_model(dirty.size(), 0.0f), gpu_model(dirty.size(), 0.0f);
  const MinorCycle host =
      make_cpu_minor_cycle(psf, n, 3)->run(host_residual, s, budget, host_model);
  const MinorCycle gpu = make_gpu_minor_cycle(psf, n, 0)->run(gpu_residual, s, budget, gpu_model);
  EXPECT_GT(host.components, 0);
  EXPECT_EQ(gpu.components, host.components);
  EXPECT_EQ(gpu.first_peak, host.first_peak);
  EXPECT_EQ(gpu.last_peak, host.last_peak);
  EXPECT_EQ(gpu.pixels, host.pixels);
  size_t residual_differ = 0, model_differ = 0;
  for (size_t i = 0; i < dirty.size(); ++i) {
    residual_differ += gpu_residual[i] != host_residual[i];
    model_differ += gpu_model[i] != host_model[i];
  }
  EXPECT_EQ(residual_differ, 0u) << "residual pixels differ";
  EXPECT_EQ(model_differ, 0u) << "model pixels differ";
}

TEST(GpuMinorCycle, MatchesTheHostAtEachStop) {
  SKIP_WITHOUT_GPU();
  for (const int n : {128, 90}) {
    SCOPED_TRACE(n);
    const std::vector<float> psf = ringing_psf(n);
    // A bright source, a negative one, one on the edge of the clean region, and noise.
    const std::vector<float> dirty = testing::sources_through_psf(
        psf, n, {{n / 2 - 14, n / 2 - 4, 3.0}, {n / 2 + 16, n / 2 + 6, -1.0}, {n / 4, n / 2 + 3, 0.5}},
        0.01);
    CleanSettings s;
    s.gain = 0.2;
    s.mgain = 1;
    s.threshold = 0.05;  // stops at the threshold
    expect_same_minor_cycle(psf, n, dirty, s, 5000);
    s.gain = 0.1;
    s.mgain = 0.6;  // stops at mgain
    s.threshold = 0;
    expect_same_minor_cycle(psf, n, dirty, s, 5000);
    s.mgain = 1;  // stops at the budget, deep in the noise
    expect_same_minor_cycle(psf, n, dirty, s, 700);
  }
}

// Two peaks of the same |value|: both take the one first in row order (row 45, not row 50).
TEST(GpuMinorCycle, ChoosesBetweenEqualPeaksAsTheHostDoes) {
  SKIP_WITHOUT_GPU();
  const int n = 128;
  std::vector<float> psf(size_t(n) * n, 0.0f), dirty(size_t(n) * n, 0.0f);
  psf[size_t(n / 2) * n + n / 2] = 1.0f;
  dirty[size_t(50) * n + 40] = 1.0f;
  dirty[size_t(45) * n + 60] = -1.0f;
  CleanSettings s;
  s.gain = 0.5;
  s.mgain = 1;
  std::vector<float> model(dirty.size(), 0.0f), residual = dirty;
  const MinorCycle c = make_gpu_minor_cycle(psf, n, 0)->run(residual, s, 1, model);
  EXPECT_EQ(c.components, 1);
  EXPECT_EQ(model[size_t(45) * n + 60], -0.5f);
  EXPECT_EQ(model[size_t(50) * n + 40], 0.0f);
  expect_same_minor_cycle(psf, n, dirty, s, 40);
}

// A sidelobe of -15 two pixels right of the centre: the first component raises that pixel to
// 2.5 x the first peak, and both stop there (kDivergingPeakRatio).
TEST(GpuMinorCycle, StopsADivergingCycleAsTheHostDoes) {
  SKIP_WITHOUT_GPU();
  const int n = 64;
  std::vector<float> psf(size_t(n) * n, 0.0f), dirty(size_t(n) * n, 0.0f);
  psf[size_t(n / 2) * n + n / 2] = 1.0f;
  psf[size_t(n / 2) * n + n / 2 + 2] = -15.0f;
  dirty[size_t(30) * n + 30] = 1.0f;
  dirty[size_t(30) * n + 32] = 1.0f;
  CleanSettings s;
  s.gain = 0.1;
  s.mgain = 1;
  std::vector<float> model(dirty.size(), 0.0f), residual = dirty;
  const MinorCycle c = make_gpu_minor_cycle(psf, n, 0)->run(residual, s, 1000, model);
  EXPECT_EQ(c.components, 1);
  EXPECT_FLOAT_EQ(c.last_peak, 2.5f);
  expect_same_minor_cycle(psf, n, dirty, s, 1000);
}

TEST(GpuMinorCycle, RefusesAGpuThatDoesNotExist) {
  const std::vector<float> psf = ringing_psf(16);
  EXPECT_THROW(make_gpu_minor_cycle(psf, 16, 99), UsageError);
}

// Whole CLEANs of a simulated observation through the host's IDG engine (one thread, so that
// both runs image alike), their minor cycles on the host and on the GPU.
TEST(GpuMinorCycle, CleanCyclesGiveTheHostsImages) {
  SKIP_WITHOUT_GPU();
  const testing::TwoSourceObservation field = testing::two_source_observation();
  const IdgSettings& s = field.settings;
  const testing::IdgObservation& obs = field.obs;
  const IdgPlan plan = make_idg_plan(s, obs.view());
  CleanSettings c;
  c.niter = 600;
  c.gain = 0.1;
  c.mgain = 0.8;
  CleanResult results[2];
  for (const int minor_gpu : {-1, 0}) {
    std::unique_ptr<IdgEngine> engine = make_cpu_idg_engine(s, 1);
    engine->hold(plan, obs.view());
    IdgImage dirty, psf;
    engine->grid_held(dirty);
    engine->psf_held(psf);
    results[minor_gpu + 1] = clean_held(*engine, dirty, psf, c, 2, minor_gpu);
  }
  const CleanResult &host = results[0], &gpu = results[1];
  EXPECT_GE(host.major_cycles, 2);
  EXPECT_EQ(gpu.components, host.components);
  EXPECT_EQ(gpu.major_cycles, host.major_cycles);
  EXPECT_EQ(gpu.peak, host.peak);
  EXPECT_TRUE(gpu.model == host.model) << "models differ";
  EXPECT_TRUE(gpu.residual == host.residual) << "residuals differ";
}

}  // namespace
}  // namespace rapt
