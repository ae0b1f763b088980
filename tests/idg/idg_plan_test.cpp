// Invariants of the IDG execution plan (digest 002 §12, test 6): every unflagged
// cross-correlation value is on exactly one subgrid, footprints fit, subgrids lie within
// [1, N - N-bar], no subgrid crosses a w-layer, the caps hold, and what cannot be placed is
// counted, not dropped silently.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cli/errors.hpp"
#include "idg/idg_plan.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

// `all_placed`: every unflagged cross-correlation value must be on a subgrid (else at most
// one, and the counts must add up).
void expect_invariants(const IdgPlan& plan, const testing::IdgObservation& obs, bool all_placed) {
  const IdgSettings& s = plan.settings;
  const IdgVisibilities view = obs.view();
  const size_t nchan = obs.freq_hz.size();
  std::vector<int> times_placed(obs.nrows() * nchan, 0);
  const double to_px = s.image_size / kSpeedOfLight_m_s;
  for (const IdgSubgrid& sub : plan.subgrids) {
    EXPECT_GE(sub.x, 1);
    EXPECT_GE(sub.y, 1);
    EXPECT_LE(sub.x, s.grid_size - s.subgrid_size);
    EXPECT_LE(sub.y, s.grid_size - s.subgrid_size);
    EXPECT_GE(sub.nr_timesteps, 1);
    EXPECT_LE(sub.nr_timesteps, s.max_timesteps_per_subgrid);
    EXPECT_LE(sub.nr_channels, s.max_channels_per_subgrid);
    const double cx = sub.x + s.subgrid_size / 2 - s.grid_size / 2;
    const double cy = sub.y + s.subgrid_size / 2 - s.grid_size / 2;
    double px_min = 1e30, px_max = -1e30, py_min = 1e30, py_max = -1e30;
    const int a1 = obs.antenna1[size_t(plan.timestep_rows[size_t(sub.first_timestep)])];
    const int a2 = obs.antenna2[size_t(plan.timestep_rows[size_t(sub.first_timestep)])];
    for (int t = 0; t < sub.nr_timesteps; ++t) {
      const size_t r = size_t(plan.timestep_rows[size_t(sub.first_timestep + t)]);
      EXPECT_EQ(obs.antenna1[r], a1);  // one baseline per subgrid
      EXPECT_EQ(obs.antenna2[r], a2);
      for (int c = sub.first_channel; c < sub.first_channel + sub.nr_channels; ++c) {
        bool flagged = true;
        for (int p = 0; p < s.npol; ++p) flagged = flagged && view.weight_of(r, size_t(c), p) == 0;
        // A flagged value may ride along on a subgrid (weight 0); an unflagged one is counted.
        if (!flagged) ++times_placed[r * nchan + size_t(c)];
        const double f = obs.freq_hz[size_t(c)];
        const double px = obs.uvw_m[r][0] * f * to_px, py = -obs.uvw_m[r][1] * f * to_px;
        px_min = std::min(px_min, px), px_max = std::max(px_max, px);
        py_min = std::min(py_min, py), py_max = std::max(py_max, py);
        // Every value within the subgrid, a kernel's half-width from its edge (to the half
        // pixel the rounding of the centre may cost).
        EXPECT_LE(std::fabs(px - cx), 0.5 * (s.subgrid_size - s.kernel_size) + 0.5);
        EXPECT_LE(std::fabs(py - cy), 0.5 * (s.subgrid_size - s.kernel_size) + 0.5);
        const double dw = obs.uvw_m[r][2] * f / kSpeedOfLight_m_s - idg_w_layer_centre(s, sub.w_layer);
        EXPECT_LE(kIdgTaperSupportPx + idg_w_support_px(s, dw), s.kernel_size);
      }
    }
    EXPECT_LT(std::max(px_max - px_min, py_max - py_min) + s.kernel_size, s.subgrid_size);
  }
  int64_t unflagged = 0;
  for (size_t r = 0; r < obs.nrows(); ++r)
    for (size_t c = 0; c < nchan; ++c) {
      bool any = false;
      for (int p = 0; p < s.npol; ++p) any = any || view.weight_of(r, c, p) > 0;
      const bool imaged = any && obs.antenna1[r] != obs.antenna2[r];
      unflagged += imaged;
      if (all_placed)
        EXPECT_EQ(times_placed[r * nchan + c], imaged ? 1 : 0) << "row " << r << " channel " << c;
      else
        EXPECT_LE(times_placed[r * nchan + c], imaged ? 1 : 0) << "row " << r << " channel " << c;
    }
  int64_t placed = 0;
  for (int count : times_placed) placed += count;
  EXPECT_EQ(plan.visibilities_placed, placed);
  EXPECT_EQ(plan.visibilities_placed + plan.unplaced_off_grid + plan.unplaced_w, unflagged);
}

IdgSettings plan_settings() {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 8;
  s.max_channels_per_subgrid = 4;
  return s;
}

TEST(IdgPlan, PlacesEveryUnflaggedValueOnceWithinTheRules) {
  const IdgSettings s = plan_settings();
  // 10 channels: groups of 4, 4 and 2.
  testing::IdgObservation obs = testing::make_idg_observation(8, 400.0, 50.0, 40, 0.02, 10, 150e6, 1e6, 1);
  for (size_t i = 0; i < obs.weight.size(); i += 7) obs.weight[i] = 0;  // scattered flags
  for (size_t c = 0; c < 10; ++c) obs.weight[5 * 10 + c] = 0;           // one whole row
  obs.antenna1.push_back(3), obs.antenna2.push_back(3), obs.uvw_m.push_back({0, 0, 0});  // auto
  for (int c = 0; c < 10; ++c) obs.vis.emplace_back(1.0f, 0.0f), obs.weight.push_back(1.0f);
  const IdgPlan plan = make_idg_plan(s, obs.view());
  EXPECT_EQ(plan.unplaced_off_grid, 0);
  EXPECT_EQ(plan.unplaced_w, 0);
  EXPECT_GE(plan.subgrids.size(), 28u * 3u * 5u);  // 28 baselines, 3 groups, 40 / 8 steps each
  expect_invariants(plan, obs, true);
}

TEST(IdgPlan, CountsValuesOffTheGridAndWithTooMuchW) {
  IdgSettings s = plan_settings();
  // Baselines to 2.4 km: the longest fall off a 256-pixel grid at S = 0.08 (W-stacking keeps
  // their w placeable).
  s.nr_w_layers = 32;
  s.w_step_lambda = 150.0;
  testing::IdgObservation obs = testing::make_idg_observation(8, 2400.0, 50.0, 10, 0.02, 4, 150e6, 1e6, 1);
  IdgPlan plan = make_idg_plan(s, obs.view());
  EXPECT_GT(plan.unplaced_off_grid, 0);
  EXPECT_EQ(plan.unplaced_w, 0);
  EXPECT_GT(plan.visibilities_placed, 0);
  expect_invariants(plan, obs, false);
  s = plan_settings();
  // Heights to 1 km: w beyond what one layer's kernel holds, until W-stacking takes it.
  obs = testing::make_idg_observation(8, 400.0, 1000.0, 10, 0.02, 4, 150e6, 1e6, 1);
  plan = make_idg_plan(s, obs.view());
  EXPECT_GT(plan.unplaced_w, 0);
  expect_invariants(plan, obs, false);
  s.nr_w_layers = 16;
  s.w_step_lambda = 150.0;
  plan = make_idg_plan(s, obs.view());
  EXPECT_EQ(plan.unplaced_w, 0);
  int min_layer = 99, max_layer = -1;
  for (const IdgSubgrid& sub : plan.subgrids)
    min_layer = std::min(min_layer, sub.w_layer), max_layer = std::max(max_layer, sub.w_layer);
  EXPECT_GE(max_layer - min_layer, 4);
  expect_invariants(plan, obs, true);
}

TEST(IdgPlan, RejectsBadSettings) {
  IdgSettings s = plan_settings();
  const testing::IdgObservation obs = testing::make_idg_observation(4, 400.0, 0.0, 2, 0.02, 2, 150e6, 1e6, 1);
  s.subgrid_size = 30 + 1;
  EXPECT_THROW(make_idg_plan(s, obs.view()), UsageError);
  s = plan_settings();
  s.npol = 3;
  EXPECT_THROW(make_idg_plan(s, obs.view()), UsageError);
  s = plan_settings();
  s.nr_w_layers = 4;  // without a w-step
  EXPECT_THROW(make_idg_plan(s, obs.view()), UsageError);
  s = plan_settings();
  s.npol = 2;  // the view has one product per value
  EXPECT_THROW(make_idg_plan(s, obs.view()), UsageError);
}

}  // namespace
}  // namespace rapt
