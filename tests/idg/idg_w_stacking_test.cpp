// W-stacking: visibilities with w far beyond what one subgrid's kernel holds are refused
// without it, and with it the dirty image still matches a direct DFT to 1e-3 of the peak and
// degridding predicts rapt(7)'s analytic visibilities to 1e-3.
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

TEST(IdgWStacking, DegridPredictsAnalyticVisibilitiesWithLargeW) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 16;
  s.max_channels_per_subgrid = 4;
  s.nr_w_layers = 16;
  s.w_step_lambda = 150.0;
  testing::IdgObservation obs = testing::make_idg_observation(7, 400.0, 1000.0, 16, 0.03, 4, 150e6, 2e6, 1);
  const IdgPlan plan = make_idg_plan(s, obs.view());
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  // 1 Jy 90 cells east and 70 south (off the subgrids' 8-pixel lattice, where interpolation
  // errors are largest): w (n - 1) reaches half a turn there.
  const int n = s.grid_size, x = n / 2 - 90, y = n / 2 - 70;
  IdgImage model;
  model.npol = 1;
  model.size = n;
  model.pixels.assign(size_t(n) * n, {0.0f, 0.0f});
  model.plane(0)[size_t(y) * n + x] = 1.0f;
  const testing::IdgSource source{90 * s.cell_rad(), -70 * s.cell_rad(), 1.0};
  std::vector<std::complex<float>> predicted(obs.vis.size());
  make_cpu_idg_engine(s, 2)->degrid(plan, model, obs.view(), predicted.data());
  double max_err = 0, max_w_turns = 0;
  for (size_t r = 0; r < obs.nrows(); ++r)
    for (size_t c = 0; c < obs.freq_hz.size(); ++c) {
      const auto v = point_source_visibility(1.0, obs.uvw_m[r], obs.freq_hz[c], source.lmn());
      max_err = std::max(max_err, std::abs(v - std::complex<double>(predicted[r * obs.freq_hz.size() + c])));
      max_w_turns = std::max(max_w_turns, std::fabs(obs.uvw_m[r][2] * (source.lmn()[2] - 1) *
                                                    obs.freq_hz[c] / kSpeedOfLight_m_s));
    }
  EXPECT_GT(max_w_turns, 0.5);
  EXPECT_LE(max_err, 1e-3);
}

}  // namespace
}  // namespace rapt
