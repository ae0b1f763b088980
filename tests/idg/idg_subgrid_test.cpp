// One subgrid of the gridder against a long-double DFT written from the definitions
// (digest 002 §12, test 3): relative error <= 1e-5, on a subgrid at the edge of an 8192^2 grid,
// where a phase taken per pixel in single precision would be off by ~1e-3 rad (§12.7).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "idg/idg_subgrid_kernels.hpp"
#include "idg/idg_taper.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

TEST(IdgSubgrid, GridderMatchesLongDoubleDftAtTheGridEdge) {
  IdgSettings s;
  s.grid_size = 8192;
  s.image_size = 0.08;
  s.subgrid_size = 32;
  s.max_channels_per_subgrid = 4;
  s.npol = 2;
  // One baseline whose track lies ~4060 pixels east and ~3900 south of the grid centre.
  testing::IdgObservation obs;
  obs.npol = 2;
  obs.freq_hz = {150e6, 150.05e6, 150.1e6, 150.15e6};
  const double to_px = s.image_size * 150e6 / kSpeedOfLight_m_s;
  for (int t = 0; t < 10; ++t) {
    obs.antenna1.push_back(0);
    obs.antenna2.push_back(1);
    obs.uvw_m.push_back({(4040.0 + 0.4 * t) / to_px, (3890.0 - 0.3 * t) / to_px, 60.0 + 5.0 * t});
  }
  const size_t nvalues = obs.nrows() * obs.freq_hz.size() * 2;
  for (size_t i = 0; i < nvalues; ++i) {
    obs.vis.emplace_back(float(std::cos(1.3 * i)), float(std::sin(0.7 * i + 0.2)));
    obs.weight.push_back(float(0.5 + 0.25 * std::cos(0.9 * i)));
  }
  const IdgPlan plan = make_idg_plan(s, obs.view());
  ASSERT_EQ(plan.subgrids.size(), 1u);
  const IdgSubgrid& sub = plan.subgrids[0];
  ASSERT_GT(sub.x, s.grid_size - 3 * s.subgrid_size);

  std::vector<IdgSubgridVisibility> work;
  idg_subgrid_visibilities(plan, sub, obs.view(), false, work);
  const IdgSubgridTables tables(s);
  const int nb = s.subgrid_size;
  std::vector<std::complex<float>> pixels(size_t(2) * nb * nb);
  idg_grid_subgrid(tables, 2, work, pixels.data());

  // phase = -2 pi ((u l + v m + w (n - 1)) nu / c + (Cx (i - Nb/2) + Cy (j - Nb/2)) / Nb),
  // the subgrid's own offset taken out after the full phase is formed.
  const std::vector<double> taper = idg_subgrid_taper(nb);
  const long double two_pi = 2.0L * 3.14159265358979323846264338327950288L;
  const long double cx = sub.x + nb / 2 - s.grid_size / 2, cy = sub.y + nb / 2 - s.grid_size / 2;
  double max_diff = 0, max_ref = 0;
  for (int p = 0; p < 2; ++p)
    for (int j = 0; j < nb; ++j)
      for (int i = 0; i < nb; ++i) {
        const long double l = -(i - nb / 2) * (long double)s.image_size / nb;
        const long double m = (j - nb / 2) * (long double)s.image_size / nb;
        const long double n1 = std::sqrt(1.0L - l * l - m * m) - 1.0L;
        std::complex<long double> sum = 0;
        for (size_t r = 0; r < obs.nrows(); ++r)
          for (size_t c = 0; c < obs.freq_hz.size(); ++c) {
            const auto& uvw = obs.uvw_m[r];
            const long double cycles =
                (uvw[0] * l + uvw[1] * m + uvw[2] * n1) * (long double)obs.freq_hz[c] / kSpeedOfLight_m_s +
                (cx * (i - nb / 2) + cy * (j - nb / 2)) / nb;
            const size_t k = (r * obs.freq_hz.size() + c) * 2 + p;
            const long double phase = -two_pi * (cycles - std::floor(cycles));
            sum += (long double)obs.weight[k] * std::complex<long double>(obs.vis[k].real(), obs.vis[k].imag()) *
                   std::complex<long double>(std::cos(phase), std::sin(phase));
          }
        const std::complex<double> ref(double(sum.real()), double(sum.imag()));
        const std::complex<double> expected = taper[size_t(i)] * taper[size_t(j)] * ref;
        max_ref = std::max(max_ref, std::abs(expected));
        max_diff = std::max(max_diff, std::abs(expected - std::complex<double>(pixels[(size_t(p) * nb + j) * nb + i])));
      }
  EXPECT_GT(max_ref, 1.0);
  EXPECT_LE(max_diff, 1e-5 * max_ref) << "max |kernel - DFT| " << max_diff << " of " << max_ref;
}

}  // namespace
}  // namespace rapt
