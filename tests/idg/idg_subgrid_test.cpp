// One subgrid of the gridder and degridder against long-double DFTs written from the
// definitions (digest 002 §12, test 3): relative error <= 1e-5, on a subgrid at the edge of an
// 8192^2 grid, where a phase taken per pixel in single precision would be off by ~1e-3 rad
// (§12.7). Evenly spaced channels (the kernels step the phasor from channel to channel) and
// uneven ones (a sine and cosine per channel).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "idg/idg_subgrid_kernels.hpp"
#include "idg/idg_taper.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

struct EdgeSubgrid {
  IdgSettings settings;
  testing::IdgObservation obs;
  IdgPlan plan;
};

// One baseline whose track lies ~4060 pixels east and ~3900 south of the centre of an 8192^2
// grid, two polarisations of pseudo-random values.
EdgeSubgrid edge_subgrid(const std::vector<double>& freq_hz) {
  EdgeSubgrid e;
  IdgSettings& s = e.settings;
  s.grid_size = 8192;
  s.image_size = 0.08;
  s.subgrid_size = 32;
  s.max_channels_per_subgrid = int(freq_hz.size());
  s.npol = 2;
  e.obs.npol = 2;
  e.obs.freq_hz = freq_hz;
  const double to_px = s.image_size * 150e6 / kSpeedOfLight_m_s;
  for (int t = 0; t < 10; ++t) {
    e.obs.antenna1.push_back(0);
    e.obs.antenna2.push_back(1);
    e.obs.uvw_m.push_back({(4040.0 + 0.4 * t) / to_px, (3890.0 - 0.3 * t) / to_px, 60.0 + 5.0 * t});
  }
  const size_t nvalues = e.obs.nrows() * freq_hz.size() * 2;
  for (size_t i = 0; i < nvalues; ++i) {
    e.obs.vis.emplace_back(float(std::cos(1.3 * i)), float(std::sin(0.7 * i + 0.2)));
    e.obs.weight.push_back(float(0.5 + 0.25 * std::cos(0.9 * i)));
  }
  e.plan = make_idg_plan(s, e.obs.view());
  return e;
}

// exp(i phase) of visibility (row r, channel c) at subgrid pixel (i, j):
// phase = -2 pi ((u l + v m + w (n - 1)) nu / c + (Cx (i - Nb/2) + Cy (j - Nb/2)) / Nb),
// the subgrid's own offset taken out after the full phase is formed.
std::complex<long double> reference_phasor(const EdgeSubgrid& e, const IdgSubgrid& sub, size_t r,
                                           size_t c, int i, int j) {
  const IdgSettings& s = e.settings;
  const int nb = s.subgrid_size;
  const long double two_pi = 2.0L * 3.14159265358979323846264338327950288L;
  const long double cx = sub.x + nb / 2 - s.grid_size / 2, cy = sub.y + nb / 2 - s.grid_size / 2;
  const long double l = -(i - nb / 2) * (long double)s.image_size / nb;
  const long double m = (j - nb / 2) * (long double)s.image_size / nb;
  const long double n1 = std::sqrt(1.0L - l * l - m * m) - 1.0L;
  const auto& uvw = e.obs.uvw_m[r];
  const long double cycles =
      (uvw[0] * l + uvw[1] * m + uvw[2] * n1) * (long double)e.obs.freq_hz[c] / kSpeedOfLight_m_s +
      (cx * (i - nb / 2) + cy * (j - nb / 2)) / nb;
  const long double phase = -two_pi * (cycles - std::floor(cycles));
  return {std::cos(phase), std::sin(phase)};
}

void expect_gridder_matches(const std::vector<double>& freq_hz, bool even) {
  const EdgeSubgrid e = edge_subgrid(freq_hz);
  ASSERT_EQ(e.plan.subgrids.size(), 1u);
  const IdgSubgrid& sub = e.plan.subgrids[0];
  ASSERT_GT(sub.x, e.settings.grid_size - 3 * e.settings.subgrid_size);
  IdgSubgridWork work;
  idg_subgrid_visibilities(e.plan, sub, e.obs.view(), false, work);
  ASSERT_EQ(work.even_channels, even);
  const IdgSubgridTables tables(e.settings);
  const int nb = e.settings.subgrid_size;
  std::vector<std::complex<float>> pixels(size_t(2) * nb * nb);
  idg_grid_subgrid(tables, 2, work, pixels.data());

  const std::vector<double> taper = idg_subgrid_taper(nb);
  double max_diff = 0, max_ref = 0;
  for (int p = 0; p < 2; ++p)
    for (int j = 0; j < nb; ++j)
      for (int i = 0; i < nb; ++i) {
        std::complex<long double> sum = 0;
        for (size_t r = 0; r < e.obs.nrows(); ++r)
          for (size_t c = 0; c < freq_hz.size(); ++c) {
            const size_t k = (r * freq_hz.size() + c) * 2 + p;
            sum += (long double)e.obs.weight[k] *
                   std::complex<long double>(e.obs.vis[k].real(), e.obs.vis[k].imag()) *
                   reference_phasor(e, sub, r, c, i, j);
          }
        const std::complex<double> expected =
            taper[size_t(i)] * taper[size_t(j)] * std::complex<double>(double(sum.real()), double(sum.imag()));
        max_ref = std::max(max_ref, std::abs(expected));
        max_diff = std::max(max_diff, std::abs(expected - std::complex<double>(pixels[(size_t(p) * nb + j) * nb + i])));
      }
  EXPECT_GT(max_ref, 1.0);
  EXPECT_LE(max_diff, 1e-5 * max_ref) << "max |gridder - DFT| " << max_diff << " of " << max_ref;
}

void expect_degridder_matches(const std::vector<double>& freq_hz, bool even) {
  const EdgeSubgrid e = edge_subgrid(freq_hz);
  ASSERT_EQ(e.plan.subgrids.size(), 1u);
  const IdgSubgrid& sub = e.plan.subgrids[0];
  IdgSubgridWork work;
  idg_subgrid_visibilities(e.plan, sub, e.obs.view(), false, work);
  ASSERT_EQ(work.even_channels, even);
  const IdgSubgridTables tables(e.settings);
  const int nb = e.settings.subgrid_size;
  // Pixels with real signal at the visibilities' frequencies: the gridded visibilities, plus
  // a pattern of their own.
  std::vector<std::complex<float>> pixels(size_t(2) * nb * nb);
  idg_grid_subgrid(tables, 2, work, pixels.data());
  for (int k = 0; k < 2 * nb * nb; ++k) pixels[size_t(k)] += std::complex<float>(float(std::sin(0.3 * k)), 0.0f);
  std::vector<std::complex<double>> scratch;
  idg_degrid_subgrid(tables, 2, pixels.data(), work, scratch);

  const std::vector<double> taper = idg_subgrid_taper(nb);
  double max_diff = 0, max_ref = 0;
  for (size_t r = 0; r < e.obs.nrows(); ++r)
    for (size_t c = 0; c < freq_hz.size(); ++c)
      for (int p = 0; p < 2; ++p) {
        std::complex<long double> sum = 0;
        for (int j = 0; j < nb; ++j)
          for (int i = 0; i < nb; ++i) {
            const std::complex<float> x = pixels[(size_t(p) * nb + j) * nb + i];
            sum += (long double)(taper[size_t(i)] * taper[size_t(j)]) *
                   std::complex<long double>(x.real(), x.imag()) * std::conj(reference_phasor(e, sub, r, c, i, j));
          }
        const std::complex<double> expected(double(sum.real()), double(sum.imag()));
        max_ref = std::max(max_ref, std::abs(expected));
        max_diff = std::max(max_diff, std::abs(expected - work.visibilities[r * freq_hz.size() + c].value[p]));
      }
  EXPECT_GT(max_ref, 1.0);
  EXPECT_LE(max_diff, 1e-5 * max_ref) << "max |degridder - DFT| " << max_diff << " of " << max_ref;
}

// Even channels (4 and 5 of them), whose phasors the kernels step from channel to channel, and
// uneven ones, each channel's phasor taken afresh.
const std::vector<double> kEvenChannels = {150e6, 150.05e6, 150.1e6, 150.15e6};
const std::vector<double> kOddEvenChannels = {150e6, 150.05e6, 150.1e6, 150.15e6, 150.2e6};
const std::vector<double> kUnevenChannels = {150e6, 150.05e6, 150.12e6, 150.15e6};

TEST(IdgSubgrid, GridderMatchesLongDoubleDftAtTheGridEdge) {
  expect_gridder_matches(kEvenChannels, true);
  expect_gridder_matches(kOddEvenChannels, true);
  expect_gridder_matches(kUnevenChannels, false);
}

TEST(IdgSubgrid, DegridderMatchesLongDoubleDftAtTheGridEdge) {
  expect_degridder_matches(kEvenChannels, true);
  expect_degridder_matches(kOddEvenChannels, true);
  expect_degridder_matches(kUnevenChannels, false);
}

}  // namespace
}  // namespace rapt
