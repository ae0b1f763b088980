// Every IDG engine against the CPU reference (one thread), on the same plan: dirty image within
// 1e-5 of its peak, predicted visibilities within 1e-5 of their largest. The GPU instance skips
// while no GPU engine can be made (no CUDA build, no device, or none written yet).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "cli/errors.hpp"
#include "idg/idg_engine.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

class IdgEngines : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<IdgEngine> make(const IdgSettings& s) {
    if (GetParam() == "cpu") return make_cpu_idg_engine(s, 3);
    try {
      return make_gpu_idg_engine(s, 0);
    } catch (const UsageError&) {
      return nullptr;
    } catch (const DataError&) {
      return nullptr;
    }
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
  double peak = 0, diff = 0;
  for (size_t i = 0; i < expected.pixels.size(); ++i) {
    peak = std::max(peak, double(std::abs(expected.pixels[i])));
    diff = std::max(diff, double(std::abs(expected.pixels[i] - image.pixels[i])));
  }
  EXPECT_LE(diff, 1e-5 * peak) << engine->name() << " image vs cpu";

  std::vector<std::complex<float>> want(obs.vis.size()), got(obs.vis.size());
  reference->degrid(plan, expected, obs.view(), want.data());
  engine->degrid(plan, expected, obs.view(), got.data());
  double largest = 0, error = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    largest = std::max(largest, double(std::abs(want[i])));
    error = std::max(error, double(std::abs(want[i] - got[i])));
  }
  EXPECT_LE(error, 1e-5 * largest) << engine->name() << " predictions vs cpu";
}

INSTANTIATE_TEST_SUITE_P(Idg, IdgEngines, ::testing::Values("cpu", "gpu"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace rapt
