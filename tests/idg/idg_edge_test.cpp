// Subgrids at the edge of a 2048^2 grid keep their accuracy (digest 002 §12, test 7): there
// the subgrid offset reaches ~pi N/2 rad, and a phase formed per pixel in single precision
// would lose ~1e-4 of it. Gridding against a direct DFT, degridding against rapt(7)'s analytic
// visibilities, both to 1e-3.
#include <gtest/gtest.h>

#include <cmath>

#include "idg/idg_engine.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

IdgSettings edge_settings() {
  IdgSettings s;
  s.grid_size = 2048;
  s.image_size = 0.05;
  s.max_timesteps_per_subgrid = 16;
  s.max_channels_per_subgrid = 4;
  return s;
}

// Two baselines whose tracks run ~1000 pixels out (east-south, west-north), and a short one.
testing::IdgObservation edge_observation(const IdgSettings& s) {
  testing::IdgObservation obs;
  obs.freq_hz = {150e6, 150.2e6, 150.4e6, 150.6e6};
  const double to_px = s.image_size * 150e6 / kSpeedOfLight_m_s;
  for (int t = 0; t < 16; ++t) {
    const double tracks[3][3] = {{985.0 + 0.5 * t, 980.0 - 0.3 * t, 300.0 + 10.0 * t},
                                 {-990.0 + 0.2 * t, -985.0 - 0.4 * t, -200.0 + 8.0 * t},
                                 {20.0 + 0.5 * t, -15.0 + 0.2 * t, 5.0}};
    for (int b = 0; b < 3; ++b) {
      obs.antenna1.push_back(0);
      obs.antenna2.push_back(b + 1);
      obs.uvw_m.push_back({tracks[b][0] / to_px, -tracks[b][1] / to_px, tracks[b][2]});
    }
  }
  const size_t n = obs.nrows() * obs.freq_hz.size();
  obs.vis.assign(n, {0.0f, 0.0f});
  obs.weight.assign(n, 1.0f);
  return obs;
}

TEST(IdgEdgeSubgrids, GridAndDegridKeepTheirAccuracy) {
  const IdgSettings s = edge_settings();
  testing::IdgObservation obs = edge_observation(s);
  const testing::IdgSource source{300 * s.cell_rad(), 200 * s.cell_rad(), 1.5};
  testing::fill_point_sources(obs, {source});
  const IdgPlan plan = make_idg_plan(s, obs.view());
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  int edge_subgrids = 0;
  for (const IdgSubgrid& sub : plan.subgrids)
    edge_subgrids += sub.x < 60 || sub.x > s.grid_size - s.subgrid_size - 60;
  ASSERT_GE(edge_subgrids, 2);

  auto engine = make_cpu_idg_engine(s, 2);
  const IdgImage image = engine->grid(plan, obs.view());
  const int n = s.grid_size, margin = n / 10;
  double max_diff = 0, peak = 0;
  for (int y = margin; y < n - margin; y += 23)
    for (int x = margin; x < n - margin; x += 23) {
      const double dft = testing::dft_pixel(plan, obs, 0, x, y).real();
      peak = std::max(peak, std::fabs(dft));
      max_diff = std::max(max_diff, std::fabs(dft - image.plane(0)[size_t(y) * n + x].real()));
    }
  const int sx = n / 2 - 300, sy = n / 2 + 200;
  EXPECT_NEAR(image.plane(0)[size_t(sy) * n + sx].real(), 1.5, 1.5e-3);
  EXPECT_LE(max_diff, 1e-3 * peak) << "max |IDG - DFT| " << max_diff << " of peak " << peak;

  IdgImage model;
  model.npol = 1;
  model.size = n;
  model.pixels.assign(size_t(n) * n, {0.0f, 0.0f});
  model.plane(0)[size_t(sy) * n + sx] = 1.5f;
  std::vector<std::complex<float>> predicted(obs.vis.size());
  engine->degrid(plan, model, obs.view(), predicted.data());
  double max_err = 0;
  for (size_t i = 0; i < obs.vis.size(); ++i)
    max_err = std::max(max_err, std::abs(std::complex<double>(obs.vis[i]) - std::complex<double>(predicted[i])));
  EXPECT_LE(max_err, 1.5e-3);
}

}  // namespace
}  // namespace rapt
