// Known answers of IDG gridding (digest 002 §12, tests 1 and 2): a point source lands on the
// right pixel with the right flux (east = left, as WSClean draws it), with w != 0, and the
// whole dirty image agrees with a direct double-precision DFT.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "idg/idg_engine.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

using testing::IdgObservation;
using testing::IdgSource;

IdgSettings small_settings() {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.subgrid_size = 32;
  s.kernel_size = 9;
  s.max_timesteps_per_subgrid = 16;
  s.max_channels_per_subgrid = 4;
  return s;
}

IdgObservation small_observation() {
  return testing::make_idg_observation(8, 400.0, 50.0, 24, 0.02, 4, 150e6, 2e6, 1);
}

// Pixel of the largest real value in the inner 80 % of plane `pol`.
std::pair<int, int> peak_pixel(const IdgImage& image, int pol) {
  const int n = image.size, margin = n / 10;
  std::pair<int, int> best{-1, -1};
  float best_value = -1e30f;
  for (int y = margin; y < n - margin; ++y)
    for (int x = margin; x < n - margin; ++x)
      if (image.plane(pol)[size_t(y) * n + x].real() > best_value) {
        best_value = image.plane(pol)[size_t(y) * n + x].real();
        best = {x, y};
      }
  return best;
}

TEST(IdgPointSource, EastIsLeftAndFluxIsKeptOffCentreWithW) {
  const IdgSettings s = small_settings();
  const double cell = s.cell_rad();
  // Centre; 90 cells east and 60 south (w (n - 1) reaches 0.17 turn there); 40 west, 70 north.
  const int offsets[3][2] = {{0, 0}, {90, -60}, {-40, 70}};
  for (const auto& off : offsets) {
    IdgObservation obs = small_observation();
    testing::fill_point_sources(obs, {IdgSource{off[0] * cell, off[1] * cell, 2.5}});
    const IdgPlan plan = make_idg_plan(s, obs.view());
    ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
    double max_w = 0;
    for (const auto& uvw : obs.uvw_m) max_w = std::max(max_w, std::fabs(uvw[2]));
    ASSERT_GT(max_w, 200.0);  // metres: the w-term is exercised
    const IdgImage image = make_cpu_idg_engine(s, 2)->grid(plan, obs.view());
    const int n = s.grid_size;
    // l > 0 (east) is x < N/2; m > 0 (north) is y > N/2.
    const int x = n / 2 - off[0], y = n / 2 + off[1];
    EXPECT_EQ(peak_pixel(image, 0), std::make_pair(x, y)) << "source at " << off[0] << ", " << off[1];
    EXPECT_NEAR(image.plane(0)[size_t(y) * n + x].real(), 2.5, 2.5e-3);
  }
}

TEST(IdgPointSource, DirtyImageMatchesDirectDft) {
  const IdgSettings s = small_settings();
  const double cell = s.cell_rad();
  IdgObservation obs = small_observation();
  // Off-pixel positions too, so sidelobes and the w-term fill the whole image.
  const std::vector<IdgSource> sources = {
      {3.3 * cell, -2.6 * cell, 1.0}, {95.5 * cell, 70.2 * cell, 0.7}, {-80.3 * cell, -99.7 * cell, 1.3}};
  testing::fill_point_sources(obs, sources);
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
