// How many w-layers idg-grid asks for: one when the kernel holds every w, else layers thin
// enough for the kernel that cover the data's whole w range; --wstep and --nwlayers obeyed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "cli/errors.hpp"
#include "../idg/idg_test_support.hpp"
#include "idg/idg_plan.hpp"
#include "imaging/w_layers.hpp"

namespace rapt {
namespace {

constexpr double kArcsec = 3.14159265358979323846 / 180 / 3600;

TEST(WLayers, OneLayerWhenTheKernelHoldsEveryW) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 256 * 60 * kArcsec;
  const double residual = largest_w_residual(s);
  ASSERT_GT(residual, 0);
  WLayerChoice c = choose_w_layers(s, residual * 0.9, 0, 0, {});
  EXPECT_EQ(c.nr_w_layers, 1);
  EXPECT_EQ(c.w_step_lambda, 0);
  c = choose_w_layers(s, residual * 10, 0, 0, {});
  EXPECT_GT(c.nr_w_layers, 1);
  EXPECT_LT(c.w_step_lambda / 2, residual);
  EXPECT_GT(c.nr_w_layers * c.w_step_lambda / 2, residual * 10);  // covers -max..max
  c = choose_w_layers(s, 100, 4, 0, {});
  EXPECT_EQ(c.nr_w_layers, 4);
  EXPECT_GT(c.w_step_lambda * 2, 100);
  c = choose_w_layers(s, 100, 0, 30, {});
  EXPECT_EQ(c.nr_w_layers, 7);  // floor(200 / 30) + 1
  s.kernel_size = 7;
  EXPECT_THROW(choose_w_layers(s, 100, 0, 0, {}), UsageError);
}

TEST(WLayers, SubgridWSpreadFollowsTheChannelGroups) {
  // Channels of 1 MHz from 100 MHz: groups of 4 from the first (100-103, 104-107, 108-109).
  std::vector<double> f;
  for (int c = 0; c < 10; ++c) f.push_back((100 + c) * 1e6);
  EXPECT_DOUBLE_EQ(subgrid_w_spread(f, 1, 1000), 0);
  EXPECT_NEAR(subgrid_w_spread(f, 4, 1000), 1000 * 3.0 / 203.0, 1e-9);  // the first is widest
  EXPECT_NEAR(subgrid_w_spread(f, 10, 1000), 1000 * 9.0 / 209.0, 1e-9);
  std::reverse(f.begin(), f.end());  // descending frequencies spread alike
  EXPECT_NEAR(subgrid_w_spread(f, 10, 1000), 1000 * 9.0 / 209.0, 1e-9);
}

TEST(WLayers, LayersLeaveRoomForTheSubgridsSpreadOfW) {
  // A wide field whose w reaches many kernels' room, on 8 channels spanning 1.2 % of the band.
  IdgSettings s;
  s.grid_size = 1536;
  s.image_size = 1536 * 40 * kArcsec;
  s.max_channels_per_subgrid = 16;
  const double residual = largest_w_residual(s);
  const double max_w = 100 * residual;
  std::vector<double> f;
  for (int c = 0; c < 8; ++c) f.push_back(149.125e6 + c * 0.25e6);
  const WLayerChoice c = choose_w_layers(s, max_w, 0, 0, f);
  // Every channel of a subgrid, at the worst place in its layer, stays within the kernel.
  const double spread = subgrid_w_spread(f, c.max_channels_per_subgrid, max_w);
  EXPECT_LE(c.w_step_lambda / 2 + spread, residual);
  EXPECT_GT(c.nr_w_layers * c.w_step_lambda / 2, max_w);
  // Here the whole band's spread (about half the kernel's room) was too much: fewer channels.
  EXPECT_GT(subgrid_w_spread(f, 8, max_w), residual / 2);
  EXPECT_LT(c.max_channels_per_subgrid, 8);
  EXPECT_LE(spread, residual / 2);
  // Layers given: subgrids narrowed until their spread fits beside the layers' half-thickness.
  const WLayerChoice given = choose_w_layers(s, max_w, 300, 0, f);
  EXPECT_EQ(given.nr_w_layers, 300);
  EXPECT_LE(given.w_step_lambda / 2 + subgrid_w_spread(f, given.max_channels_per_subgrid, max_w),
            residual);
  // Layers leaving a quarter of the room: subgrids narrowed to fit that.
  const WLayerChoice thick = choose_w_layers(s, max_w, 0, 1.5 * residual, f);
  EXPECT_LE(subgrid_w_spread(f, thick.max_channels_per_subgrid, max_w), 0.25 * residual);
  // Layers thicker than the kernel holds: fewer channels would not mend that (the plan names the
  // visibilities), and one layer that holds every w needs none fewer.
  EXPECT_EQ(choose_w_layers(s, max_w, 0, 3 * residual, f).max_channels_per_subgrid, 16);
  EXPECT_EQ(choose_w_layers(s, 0, 0, 3 * residual, f).max_channels_per_subgrid, 16);
  EXPECT_EQ(choose_w_layers(s, residual / 2, 1, 0, f).max_channels_per_subgrid, 16);
}

// The choices hold where it counts: the plan places every visibility. Random grids, kernels,
// subgrids, bands (rising or falling, unevenly spaced, up to 60 % wide, one channel), baselines
// reaching the grid's edge and w up to three times u, with the automatic layers or as many
// given, and with the upper channels of long baselines left out (as --maxuv-l does).
TEST(WLayers, ThePlanPlacesEveryVisibilityOnTheLayersAndSubgridsChosen) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(0, 1);
  constexpr double kC = 299792458.0;
  for (int trial = 0; trial < 300; ++trial) {
    IdgSettings s;
    s.grid_size = 512;
    s.kernel_size = 9 + int(uniform(random) * 6);
    s.subgrid_size = s.kernel_size + 2 + 2 * int(uniform(random) * 12);
    s.subgrid_size += s.subgrid_size % 2;
    s.image_size = 0.02 + uniform(random) * 0.5;
    s.max_channels_per_subgrid = 1 + int(uniform(random) * 20);
    const int nchan = 1 + int(uniform(random) * 40);
    const double f0 = 50e6 + uniform(random) * 1e9, width = uniform(random) * 0.6;
    std::vector<double> f(size_t(nchan), f0);
    for (int c = 1; c < nchan; ++c)
      f[size_t(c)] = f0 * (1 + width * double(c) / (nchan - 1) * (0.7 + 0.3 * uniform(random)));
    std::sort(f.begin(), f.end());
    if (uniform(random) < 0.5) std::reverse(f.begin(), f.end());
    const double f_max = *std::max_element(f.begin(), f.end());
    const double uv_m = ((s.grid_size - s.subgrid_size) / 2.0 - 3) / s.image_size * kC / f_max;
    const double w_m = uniform(random) < 0.2 ? 0 : uv_m * uniform(random) * 3;
    const bool cut = uniform(random) < 0.3;  // long baselines' upper channels weightless
    const int nrows = 200;
    testing::IdgObservation obs;
    obs.antenna1.resize(nrows);
    obs.antenna2.resize(nrows);
    obs.uvw_m.resize(nrows);
    obs.freq_hz = f;
    obs.weight.assign(size_t(nrows) * size_t(nchan), 1.0f);
    double max_uv = 0, max_w = 0;
    for (int r = 0; r < nrows; ++r) {
      obs.antenna1[size_t(r)] = r % 7;
      obs.antenna2[size_t(r)] = r % 7 + 1 + r / 7 % 3;
      const std::array<double, 3> uvw = {uv_m * (2 * uniform(random) - 1),
                                         uv_m * (2 * uniform(random) - 1),
                                         w_m * (2 * uniform(random) - 1)};
      obs.uvw_m[size_t(r)] = uvw;
      for (int c = 0; c < nchan; ++c) {
        const double per_m = f[size_t(c)] / kC;
        const double u = std::abs(uvw[0]) * per_m, v = std::abs(uvw[1]) * per_m;
        if (cut && std::hypot(u, v) > 0.5 * uv_m * f0 / kC) {
          obs.weight[size_t(r) * size_t(nchan) + size_t(c)] = 0;
          continue;
        }
        max_uv = std::max({max_uv, u, v});
        max_w = std::max(max_w, std::abs(uvw[2]) * per_m);
      }
    }
    s.max_channels_per_subgrid = channels_fitting_subgrid(s, f, max_uv);
    WLayerChoice c = choose_w_layers(s, max_w, 0, 0, f);
    if (trial % 3 == 1 && max_w > 0) c = choose_w_layers(s, max_w, c.nr_w_layers + 1, 0, f);
    s.nr_w_layers = c.nr_w_layers;
    s.w_step_lambda = c.w_step_lambda;
    s.max_channels_per_subgrid = c.max_channels_per_subgrid;
    const IdgVisibilities vis = obs.view();
    const IdgPlan plan = make_idg_plan(s, vis, 1);
    EXPECT_EQ(plan.unplaced_w, 0) << "trial " << trial;
    EXPECT_EQ(plan.unplaced_off_grid, 0) << "trial " << trial;
  }
}

TEST(WLayers, SubgridsTakeNoMoreChannelsThanTheirSpreadOfUvAllows) {
  // 16 channels spanning 10 % of the band: a long baseline's u moves 10 % across them.
  IdgSettings s;
  s.grid_size = 512;
  s.image_size = 512 * 80 * kArcsec;
  s.subgrid_size = 32;
  s.kernel_size = 9;
  s.max_channels_per_subgrid = 16;
  std::vector<double> f;
  for (int c = 0; c < 16; ++c) f.push_back(142.5e6 + c * 1e6);
  const double max_uv = 1200;  // 238 grid pixels from the centre
  const int channels = channels_fitting_subgrid(s, f, max_uv);
  EXPECT_LT(channels, 16);
  EXPECT_GE(channels, 1);
  // The channels taken spread a visibility over fewer pixels than the subgrid leaves the kernel;
  // twice as many would not.
  auto spread_px = [&](int n) {
    double widest = 0;
    for (size_t c0 = 0; c0 < f.size(); c0 += size_t(n)) {
      const double lo = f[c0], hi = f[std::min(c0 + size_t(n), f.size()) - 1];
      widest = std::max(widest, max_uv * s.image_size * (hi - lo) / hi);
    }
    return widest;
  };
  EXPECT_LT(spread_px(channels) + s.kernel_size, s.subgrid_size);
  EXPECT_GE(spread_px(2 * channels) + s.kernel_size + 1, s.subgrid_size);
  // Short baselines leave every channel in one subgrid.
  EXPECT_EQ(channels_fitting_subgrid(s, f, 10), 16);
}

}  // namespace
}  // namespace rapt
