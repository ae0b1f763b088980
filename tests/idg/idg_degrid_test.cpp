// Known answers of IDG degridding (digest 002 §12, tests 4 and 5): a point-source model
// predicts the analytic visibilities of rapt(7) to 1e-3, and degridding is the adjoint of
// gridding (dot-product test to 1e-5), with and without W-stacking.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "idg/idg_engine.hpp"
#include "idg/idg_taper.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

IdgSettings small_settings(int npol) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 16;
  s.max_channels_per_subgrid = 4;
  s.npol = npol;
  return s;
}

TEST(IdgDegrid, PointSourceModelPredictsAnalyticVisibilities) {
  const IdgSettings s = small_settings(2);
  // Four products per value, of which the engine takes XX (0) and YY (3).
  testing::IdgObservation obs = testing::make_idg_observation(8, 400.0, 50.0, 24, 0.02, 4, 150e6, 2e6, 4);
  IdgVisibilities view = obs.view();
  view.product_index = {0, 3, 1, 2};
  const IdgPlan plan = make_idg_plan(s, view);
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);

  // XX: 2 Jy 90 cells east, 60 south; YY: 0.5 Jy at the centre.
  const int n = s.grid_size;
  IdgImage model;
  model.npol = 2;
  model.size = n;
  model.pixels.assign(size_t(2) * n * n, {0.0f, 0.0f});
  model.plane(0)[size_t(n / 2 - 60) * n + (n / 2 - 90)] = 2.0f;
  model.plane(1)[size_t(n / 2) * n + n / 2] = 0.5f;
  const testing::IdgSource xx{90 * s.cell_rad(), -60 * s.cell_rad(), 2.0}, yy{0, 0, 0.5};

  std::vector<std::complex<float>> predicted(obs.vis.size(), {7.0f, 7.0f});
  make_cpu_idg_engine(s, 2)->degrid(plan, model, view, predicted.data());
  double max_err[2] = {0, 0};
  for (size_t r = 0; r < obs.nrows(); ++r)
    for (size_t c = 0; c < obs.freq_hz.size(); ++c) {
      const auto v_xx = point_source_visibility(xx.flux, obs.uvw_m[r], obs.freq_hz[c], xx.lmn());
      const auto v_yy = point_source_visibility(yy.flux, obs.uvw_m[r], obs.freq_hz[c], yy.lmn());
      max_err[0] = std::max(max_err[0], std::abs(v_xx - std::complex<double>(predicted[view.index(r, c, 0)])) / 2.0);
      max_err[1] = std::max(max_err[1], std::abs(v_yy - std::complex<double>(predicted[view.index(r, c, 1)])) / 0.5);
      // Products not asked for stay as they were.
      EXPECT_EQ(predicted[(r * obs.freq_hz.size() + c) * 4 + 1], std::complex<float>(7.0f, 7.0f));
    }
  EXPECT_LE(max_err[0], 1e-3);
  EXPECT_LE(max_err[1], 1e-3);
}

// <degrid(I), w V> = <I, sum(w) grid(V)>, both sides complex. I is random (times the image
// taper, which the taper correction divides by up to 1e6 near the edge); V is degrid(I) with
// random complex factors 1 + 0.3 exp(i theta), so the products are large and the test is not
// lost in the rounding of nearly orthogonal random vectors.
void expect_adjoint(const IdgSettings& s, double height_m) {
  testing::IdgObservation obs = testing::make_idg_observation(7, 400.0, height_m, 12, 0.03, 3, 150e6, 3e6, s.npol);
  const IdgPlan plan = make_idg_plan(s, obs.view());
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  const int n = s.grid_size;
  IdgImage image;
  image.npol = s.npol;
  image.size = n;
  const std::vector<double> taper = idg_image_taper(s.subgrid_size, n);
  std::mt19937 random(12345);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (int p = 0; p < s.npol; ++p)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const float t = float(taper[size_t(x)] * taper[size_t(y)]);
        const float re = uniform(random), im = uniform(random);
        image.pixels.emplace_back(t * re, t * im);
      }

  auto engine = make_cpu_idg_engine(s, 2);
  std::vector<std::complex<float>> predicted(obs.vis.size());
  engine->degrid(plan, image, obs.view(), predicted.data());
  for (size_t i = 0; i < obs.vis.size(); ++i)
    obs.vis[i] = predicted[i] * (1.0f + 0.3f * std::polar(1.0f, 3.0f * uniform(random)));
  const IdgImage dirty = engine->grid(plan, obs.view());
  std::complex<double> lhs = 0, rhs = 0;
  for (size_t i = 0; i < obs.vis.size(); ++i)
    lhs += std::conj(std::complex<double>(predicted[i])) * double(obs.weight[i]) * std::complex<double>(obs.vis[i]);
  for (int p = 0; p < s.npol; ++p)
    for (size_t i = 0; i < size_t(n) * n; ++i)
      rhs += std::conj(std::complex<double>(image.plane(p)[i])) *
             std::complex<double>(dirty.plane(p)[i]) * dirty.weight_sum[size_t(p)];
  EXPECT_GT(std::abs(lhs), 1.0);
  EXPECT_LE(std::abs(lhs - rhs), 1e-5 * std::abs(lhs)) << lhs << " vs " << rhs;
}

TEST(IdgDegrid, IsTheAdjointOfGridding) { expect_adjoint(small_settings(2), 50.0); }

TEST(IdgDegrid, IsTheAdjointOfGriddingWithWStacking) {
  IdgSettings s = small_settings(1);
  s.nr_w_layers = 9;
  s.w_step_lambda = 150.0;
  expect_adjoint(s, 400.0);
}

}  // namespace
}  // namespace rapt
