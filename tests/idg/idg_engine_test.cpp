// The IDG engine interface: the PSF peaks at 1 in the centre, flagged values (by weight 0 or
// by flag, NaN or not) do not reach the image, and misuse is a UsageError with a message.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "cli/errors.hpp"
#include "idg/idg_engine.hpp"
#include "idg/idg_gpu_factory.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

IdgSettings small_settings() {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 16;
  s.max_channels_per_subgrid = 4;
  return s;
}

TEST(IdgEngine, PsfPeaksAtOneInTheCentre) {
  const IdgSettings s = small_settings();
  const testing::IdgObservation obs = testing::make_idg_observation(6, 400.0, 50.0, 8, 0.05, 2, 150e6, 2e6, 1);
  IdgVisibilities view = obs.view();
  view.vis = nullptr;  // the PSF reads weights only
  const IdgPlan plan = make_idg_plan(s, view);
  const IdgImage psf = make_cpu_idg_engine(s, 1)->psf(plan, view);
  const int n = s.grid_size;
  EXPECT_NEAR(psf.plane(0)[size_t(n / 2) * n + n / 2].real(), 1.0, 1e-5);
  double max_elsewhere = 0;
  for (int y = n / 10; y < n - n / 10; ++y)
    for (int x = n / 10; x < n - n / 10; ++x)
      if (x != n / 2 || y != n / 2) max_elsewhere = std::max(max_elsewhere, double(psf.plane(0)[size_t(y) * n + x].real()));
  EXPECT_LT(max_elsewhere, 1.0);
  double weights = 0;
  for (float w : obs.weight) weights += w;
  EXPECT_NEAR(psf.weight_sum[0], weights, 1e-6 * weights);
}

TEST(IdgEngine, FlaggedValuesDoNotReachTheImage) {
  const IdgSettings s = small_settings();
  testing::IdgObservation obs = testing::make_idg_observation(6, 400.0, 50.0, 8, 0.05, 2, 150e6, 2e6, 1);
  testing::fill_point_sources(obs, {{0.01, 0.005, 1.0}});
  const IdgPlan plan = make_idg_plan(s, obs.view());
  auto engine = make_cpu_idg_engine(s, 2);
  // Reference: value 0 wherever the weight is set to 0 below.
  testing::IdgObservation zeroed = obs;
  std::vector<uint8_t> flags(obs.vis.size(), 0);
  testing::IdgObservation flagged = obs;
  for (size_t i = 0; i < obs.vis.size(); i += 5) {
    zeroed.weight[i] = 0;
    flagged.vis[i] = {std::numeric_limits<float>::quiet_NaN(), 0.0f};
    flags[i] = 1;
  }
  const IdgImage reference = engine->grid(plan, zeroed.view());
  IdgVisibilities view = flagged.view();
  view.flag = flags.data();
  const IdgImage image = engine->grid(plan, view);
  EXPECT_EQ(image.weight_sum[0], reference.weight_sum[0]);
  const int n = s.grid_size;
  for (size_t i = 0; i < size_t(n) * n; ++i) {
    ASSERT_TRUE(std::isfinite(image.pixels[i].real()) && std::isfinite(image.pixels[i].imag())) << i;
    ASSERT_EQ(image.pixels[i], reference.pixels[i]) << i;
  }
}

TEST(IdgEngine, ThreadsDoNotChangeTheAnswer) {
  IdgSettings s = small_settings();
  s.npol = 2;
  testing::IdgObservation obs = testing::make_idg_observation(8, 400.0, 50.0, 24, 0.02, 4, 150e6, 2e6, 2);
  testing::fill_point_sources(obs, {{0.01, 0.005, 1.0}, {-0.02, 0.01, 0.5}});
  const IdgPlan plan = make_idg_plan(s, obs.view());
  const IdgImage one = make_cpu_idg_engine(s, 1)->grid(plan, obs.view());
  const IdgImage three = make_cpu_idg_engine(s, 3)->grid(plan, obs.view());
  std::vector<std::complex<float>> predicted_one(obs.vis.size()), predicted_three(obs.vis.size());
  make_cpu_idg_engine(s, 1)->degrid(plan, one, obs.view(), predicted_one.data());
  make_cpu_idg_engine(s, 3)->degrid(plan, one, obs.view(), predicted_three.data());
  // Only the adder's summation order differs (batches scale with the thread count).
  for (size_t i = 0; i < one.pixels.size(); ++i) ASSERT_LE(std::abs(one.pixels[i] - three.pixels[i]), 1e-5f) << i;
  EXPECT_EQ(predicted_one, predicted_three);
}

TEST(IdgEngine, GridIntoAnImageKeepsItsMemoryAndGivesTheSameAnswer) {
  const IdgSettings s = small_settings();
  testing::IdgObservation obs = testing::make_idg_observation(6, 400.0, 50.0, 8, 0.05, 2, 150e6, 2e6, 1);
  testing::fill_point_sources(obs, {{0.01, 0.005, 1.0}});
  const IdgPlan plan = make_idg_plan(s, obs.view());
  auto engine = make_cpu_idg_engine(s, 2);
  const IdgImage fresh = engine->grid(plan, obs.view());
  const IdgImage fresh_psf = engine->psf(plan, obs.view());
  IdgImage image = fresh_psf;  // other values in it
  const std::complex<float>* memory = image.pixels.data();
  engine->grid(plan, obs.view(), image);
  EXPECT_EQ(image.pixels.data(), memory);
  EXPECT_EQ(image.pixels, fresh.pixels);
  EXPECT_EQ(image.weight_sum, fresh.weight_sum);
  engine->psf(plan, obs.view(), image);
  EXPECT_EQ(image.pixels, fresh_psf.pixels);
}

TEST(IdgEngine, MisuseIsAUsageError) {
  const IdgSettings s = small_settings();
  const testing::IdgObservation obs = testing::make_idg_observation(4, 400.0, 50.0, 4, 0.05, 2, 150e6, 2e6, 1);
  IdgSettings other = s;
  other.grid_size = 512;
  const IdgPlan plan = make_idg_plan(other, obs.view());
  auto engine = make_cpu_idg_engine(s, 1);
  EXPECT_THROW(engine->grid(plan, obs.view()), UsageError);
  const IdgPlan good = make_idg_plan(s, obs.view());
  IdgImage model;
  model.npol = 1;
  model.size = 128;
  model.pixels.assign(size_t(128) * 128, {0.0f, 0.0f});
  std::vector<std::complex<float>> predicted(obs.vis.size());
  EXPECT_THROW(engine->degrid(good, model, obs.view(), predicted.data()), UsageError);
  EXPECT_THROW(make_cpu_idg_engine(s, 0), UsageError);
  IdgSettings bad = s;
  bad.image_size = 0;
  EXPECT_THROW(make_cpu_idg_engine(bad, 1), UsageError);
}

// Without CUDA the factory says so; with it, it makes an engine or names why it cannot (no
// device, too little memory) as a UsageError or DataError, never a raw CUDA failure.
TEST(IdgEngine, GpuEngineNeedsCuda) {
  try {
    const std::unique_ptr<IdgEngine> engine = make_gpu_idg_engine(small_settings(), 0);
    EXPECT_TRUE(kGpuIdgBuilt) << "a build without CUDA made a GPU IDG engine";
    EXPECT_EQ(engine->name(), "gpu");
  } catch (const UsageError& e) {
    if (!kGpuIdgBuilt) {
      EXPECT_NE(std::string(e.what()).find("needs a build with CUDA"), std::string::npos) << e.what();
    }
  } catch (const DataError& e) {
    EXPECT_TRUE(kGpuIdgBuilt) << e.what();
  }
}

TEST(IdgEngine, GpuEngineRefusesAGridThatDoesNotFit) {
  IdgSettings s = small_settings();
  s.grid_size = 65536;  // 4 x 65536^2 x 8 bytes, twice (grid and image): 275 GB
  s.npol = 4;
  try {
    make_gpu_idg_engine(s, 0);
    FAIL() << "a grid of 275 GB was accepted";
  } catch (const UsageError&) {
    // no CUDA build or no device: nothing to check here
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("needs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("free"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rapt
