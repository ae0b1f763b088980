// Every IDG engine against the CPU reference (one thread), on the same plan: dirty image within
// 1e-5 of its peak, predicted visibilities within 1e-5 of their largest. The GPU instance skips
// while no GPU engine can be made (no CUDA build, no device).
//
// Images are compared as idg_engine_comparison.hpp says: the difference times the taper, and the
// degridded model only where 1 / taper <= 100 (beyond, its values are amplified rounding, and
// degridding multiplies them by 1 / taper once more).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "idg/idg_engine.hpp"
#include "idg/idg_taper.hpp"
#include "idg_engine_comparison.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

using testing::tapered_difference;
using testing::trusted_part;
using testing::ImageDifference;

class IdgEngines : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<IdgEngine> make(const IdgSettings& s) {
    if (GetParam() == "cpu") return make_cpu_idg_engine(s, 3);
    return testing::gpu_engine_or_null(s);
  }
};

TEST_P(IdgEngines, MatchTheCpuReference) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 16;
  s.max_channels_per_subgrid = 4;
  s.npol = 4;
  s.nr_w_layers = 8;
  s.w_step_lambda = 150.0;
  std::unique_ptr<IdgEngine> engine = make(s);
  if (!engine) GTEST_SKIP() << "no " << GetParam() << " IDG engine in this build or on this machine";
  testing::IdgObservation obs = testing::make_idg_observation(8, 400.0, 400.0, 16, 0.03, 4, 150e6, 2e6, 4);
  testing::fill_point_sources(obs, {{0.01, 0.005, 1.0}, {-0.02, 0.015, 0.5}});
  const IdgPlan plan = make_idg_plan(s, obs.view());
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  auto reference = make_cpu_idg_engine(s, 1);

  const IdgImage expected = reference->grid(plan, obs.view());
  const IdgImage image = engine->grid(plan, obs.view());
  ASSERT_EQ(image.pixels.size(), expected.pixels.size());
  const ImageDifference d = tapered_difference(s, expected, image);
  EXPECT_LE(d.diff, 1e-5 * d.peak) << engine->name() << " image vs cpu, worst at " << d.where;

  const IdgImage model = trusted_part(s, expected);
  std::vector<std::complex<float>> want(obs.vis.size()), got(obs.vis.size());
  reference->degrid(plan, model, obs.view(), want.data());
  engine->degrid(plan, model, obs.view(), got.data());
  const auto [error, largest] = testing::prediction_difference(want, got);
  EXPECT_LE(error, 1e-5 * largest) << engine->name() << " predictions vs cpu";
}

// Two polarisations on one w-layer, with flagged values that hold NaN (they must add 0), and the
// PSF (unit visibilities).
TEST_P(IdgEngines, MatchTheCpuReferenceWithFlagsAndPsf) {
  IdgSettings s;
  s.grid_size = 512;
  s.image_size = 0.05;
  s.max_timesteps_per_subgrid = 32;
  s.max_channels_per_subgrid = 8;
  s.npol = 2;
  std::unique_ptr<IdgEngine> engine = make(s);
  if (!engine) GTEST_SKIP() << "no " << GetParam() << " IDG engine in this build or on this machine";
  testing::IdgObservation obs = testing::make_idg_observation(10, 300.0, 2.0, 24, 0.01, 8, 120e6, 1e6, 2);
  testing::fill_point_sources(obs, {{0.004, -0.006, 1.0}, {-0.01, 0.002, 0.3}});
  for (size_t i = 0; i < obs.weight.size(); i += 13) {
    obs.weight[i] = 0.0f;
    obs.vis[i] = {std::nanf(""), std::nanf("")};
  }
  const IdgPlan plan = make_idg_plan(s, obs.view());
  ASSERT_GT(plan.visibilities_placed, 0);
  auto reference = make_cpu_idg_engine(s, 1);
  for (const bool psf : {false, true}) {
    const IdgImage expected = psf ? reference->psf(plan, obs.view()) : reference->grid(plan, obs.view());
    const IdgImage image = psf ? engine->psf(plan, obs.view()) : engine->grid(plan, obs.view());
    ASSERT_EQ(image.pixels.size(), expected.pixels.size());
    const ImageDifference d = tapered_difference(s, expected, image);
    EXPECT_LE(d.diff, 1e-5 * d.peak) << engine->name() << (psf ? " psf" : " image")
                                     << " vs cpu, worst at " << d.where;
  }
}

// Image and predictions of `engine` against the single-threaded CPU engine on `obs`.
void expect_matches_reference(const IdgSettings& s, IdgEngine& engine, const testing::IdgObservation& obs,
                              const char* what) {
  const IdgPlan plan = make_idg_plan(s, obs.view());
  ASSERT_GT(plan.visibilities_placed, 0) << what;
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0) << what;
  auto reference = make_cpu_idg_engine(s, 1);
  const IdgImage expected = reference->grid(plan, obs.view());
  const IdgImage image = engine.grid(plan, obs.view());
  ASSERT_EQ(image.pixels.size(), expected.pixels.size());
  const ImageDifference d = tapered_difference(s, expected, image);
  EXPECT_LE(d.diff, 1e-5 * d.peak) << engine.name() << " " << what << " image vs cpu, worst at " << d.where;
  const IdgImage model = trusted_part(s, expected);
  std::vector<std::complex<float>> want(obs.vis.size()), got(obs.vis.size());
  reference->degrid(plan, model, obs.view(), want.data());
  engine.degrid(plan, model, obs.view(), got.data());
  const auto [error, largest] = testing::prediction_difference(want, got);
  EXPECT_LE(error, 1e-5 * largest) << engine.name() << " " << what << " predictions vs cpu";
}

// Subgrids of 128 x 128 pixels and 4 polarisations: the GPU engine's batches then hold 256
// subgrids, so the plan's 360 take two, and a call alternates its batch buffers.
TEST_P(IdgEngines, MatchTheCpuReferenceOverSeveralBatches) {
  IdgSettings s;
  s.grid_size = 512;
  s.image_size = 0.08;
  s.subgrid_size = 128;
  s.max_timesteps_per_subgrid = 2;
  s.max_channels_per_subgrid = 2;
  s.npol = 4;
  std::unique_ptr<IdgEngine> engine = make(s);
  if (!engine) GTEST_SKIP() << "no " << GetParam() << " IDG engine in this build or on this machine";
  testing::IdgObservation obs = testing::make_idg_observation(10, 400.0, 5.0, 16, 0.03, 2, 150e6, 2e6, 4);
  testing::fill_point_sources(obs, {{0.01, 0.005, 1.0}, {-0.02, 0.015, 0.5}});
  ASSERT_GT(make_idg_plan(s, obs.view()).subgrids.size(), 256u);
  expect_matches_reference(s, *engine, obs, "several batches");
}

// 160 channels in one subgrid: more than the GPU gridder stages at once (128), so it takes the
// channels in two groups.
TEST_P(IdgEngines, MatchTheCpuReferenceWithWideChannelGroups) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 4;
  s.max_channels_per_subgrid = 160;
  s.npol = 1;
  std::unique_ptr<IdgEngine> engine = make(s);
  if (!engine) GTEST_SKIP() << "no " << GetParam() << " IDG engine in this build or on this machine";
  testing::IdgObservation obs = testing::make_idg_observation(8, 400.0, 5.0, 8, 0.01, 160, 150e6, 50e3, 1);
  testing::fill_point_sources(obs, {{0.01, 0.005, 1.0}, {-0.02, 0.015, 0.5}});
  int widest = 0;
  for (const IdgSubgrid& sub : make_idg_plan(s, obs.view()).subgrids) widest = std::max(widest, sub.nr_channels);
  ASSERT_GT(widest, 128);
  expect_matches_reference(s, *engine, obs, "wide channel groups");
}

// Unevenly spaced channels: the GPU kernels then take a sine and cosine per channel rather than
// pairing channels about a run's centre (the other tests' channels are even).
TEST_P(IdgEngines, MatchTheCpuReferenceWithUnevenChannels) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 8;
  s.max_channels_per_subgrid = 8;
  s.npol = 2;
  std::unique_ptr<IdgEngine> engine = make(s);
  if (!engine) GTEST_SKIP() << "no " << GetParam() << " IDG engine in this build or on this machine";
  testing::IdgObservation obs = testing::make_idg_observation(8, 400.0, 5.0, 12, 0.02, 8, 150e6, 1e6, 2);
  for (size_t c = 0; c < obs.freq_hz.size(); ++c) obs.freq_hz[c] += 0.05e6 * double(c * c);
  testing::fill_point_sources(obs, {{0.01, 0.005, 1.0}, {-0.02, 0.015, 0.5}});
  expect_matches_reference(s, *engine, obs, "uneven channels");
}

// Channel groups of 19 and 7: odd runs, whose middle channel is a pair of its own, for the GPU
// gridder (runs of 16, then 3; and 7) and the degridder (8, 8, 3; and 7).
TEST_P(IdgEngines, MatchTheCpuReferenceWithOddChannelRuns) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 8;
  s.max_channels_per_subgrid = 19;
  s.npol = 4;
  std::unique_ptr<IdgEngine> engine = make(s);
  if (!engine) GTEST_SKIP() << "no " << GetParam() << " IDG engine in this build or on this machine";
  testing::IdgObservation obs = testing::make_idg_observation(8, 400.0, 5.0, 12, 0.02, 26, 150e6, 0.2e6, 4);
  testing::fill_point_sources(obs, {{0.01, 0.005, 1.0}, {-0.02, 0.015, 0.5}});
  std::vector<int> widths;
  for (const IdgSubgrid& sub : make_idg_plan(s, obs.view()).subgrids) widths.push_back(sub.nr_channels);
  ASSERT_NE(std::find(widths.begin(), widths.end(), 19), widths.end());
  ASSERT_NE(std::find(widths.begin(), widths.end(), 7), widths.end());
  expect_matches_reference(s, *engine, obs, "odd channel runs");
}

INSTANTIATE_TEST_SUITE_P(Idg, IdgEngines, ::testing::Values("cpu", "gpu"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace rapt
