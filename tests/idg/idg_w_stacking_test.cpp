// W-stacking: visibilities with w far beyond what one subgrid's kernel holds are refused
// without it, and with it the dirty image still matches a direct DFT to 1e-3 of the peak.
#include <gtest/gtest.h>

#include <cmath>

#include "idg/idg_engine.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

TEST(IdgWStacking, LargeWMatchesDirectDft) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 16;
  s.max_channels_per_subgrid = 4;
  // Heights to 1 km: w up to ~700 wavelengths, several turns of w (n - 1) at the field's edge.
  testing::IdgObservation obs = testing::make_idg_observation(7, 400.0, 1000.0, 16, 0.03, 4, 150e6, 2e6, 1);
  const double cell = s.cell_rad();
  testing::fill_point_sources(obs, {{100.3 * cell, -90.6 * cell, 1.0}, {-70.0 * cell, 85.0 * cell, 0.8}});
  ASSERT_GT(make_idg_plan(s, obs.view()).unplaced_w, 0);

  s.nr_w_layers = 16;
  s.w_step_lambda = 150.0;
  const IdgPlan plan = make_idg_plan(s, obs.view());
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  const IdgImage image = make_cpu_idg_engine(s, 2)->grid(plan, obs.view());
  const int n = s.grid_size, margin = n / 10;
  double max_diff = 0, peak = 0;
  for (int y = margin; y < n - margin; y += 3)
    for (int x = margin; x < n - margin; x += 3) {
      const double dft = testing::dft_pixel(plan, obs, 0, x, y).real();
      peak = std::max(peak, std::fabs(dft));
      max_diff = std::max(max_diff, std::fabs(dft - image.plane(0)[size_t(y) * n + x].real()));
    }
  EXPECT_GT(peak, 0.5);
  EXPECT_LE(max_diff, 1e-3 * peak) << "max |IDG - DFT| " << max_diff << " of peak " << peak;
}

}  // namespace
}  // namespace rapt
