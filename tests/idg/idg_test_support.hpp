// Test helpers for IDG: a small synthetic observation (baselines turning with the Earth, so
// tracks curve and w varies), point-source visibilities in rapt(7)'s sign convention, and a
// direct double-precision DFT image to compare against.
#pragma once
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "geometry/interferometer_geometry.hpp"
#include "idg/idg_engine.hpp"

namespace rapt::testing {

struct IdgSource {
  double l = 0, m = 0, flux = 1;
  Vector3 lmn() const { return {l, m, std::sqrt(1.0 - l * l - m * m)}; }
};

// Owns what an IdgVisibilities view points at.
struct IdgObservation {
  int npol = 1;
  std::vector<int> antenna1, antenna2;
  std::vector<std::array<double, 3>> uvw_m;
  std::vector<double> freq_hz;
  std::vector<std::complex<float>> vis;  // [row][chan][pol]
  std::vector<float> weight;

  size_t nrows() const { return antenna1.size(); }
  IdgVisibilities view() const {
    IdgVisibilities v;
    v.nrows = nrows();
    v.nchan = freq_hz.size();
    v.products = size_t(npol);
    v.antenna1 = antenna1.data();
    v.antenna2 = antenna2.data();
    v.uvw_m = uvw_m.data();
    v.freq_hz = freq_hz.data();
    v.vis = vis.data();
    v.weight = weight.data();
    return v;
  }
};

// Antennas on a ring-and-spokes layout of radius `radius_m` with heights up to `height_m`;
// `ntimes` steps of `step_rad` hour angle, declination 50 degrees; `nchan` channels of
// `chan_width_hz` from `freq0_hz`. Rows time-major (all baselines of step 0, then step 1, ...),
// autocorrelations left out. Weights vary between 0.5 and 1.5 so weighting is exercised.
inline IdgObservation make_idg_observation(int nant, double radius_m, double height_m, int ntimes,
                                           double step_rad, int nchan, double freq0_hz,
                                           double chan_width_hz, int npol) {
  IdgObservation obs;
  obs.npol = npol;
  std::vector<Vector3> pos;
  for (int a = 0; a < nant; ++a) {
    const double r = radius_m * (0.15 + 0.85 * std::fmod(0.618034 * (a + 1), 1.0));
    const double angle = 2.399963 * a;
    pos.push_back({r * std::cos(angle), r * std::sin(angle), height_m * std::sin(1.7 * a)});
  }
  const double dec = 50.0 * M_PI / 180.0;
  for (int c = 0; c < nchan; ++c) obs.freq_hz.push_back(freq0_hz + c * chan_width_hz);
  for (int t = 0; t < ntimes; ++t) {
    const double h = -0.5 * ntimes * step_rad + t * step_rad;
    for (int a1 = 0; a1 < nant; ++a1)
      for (int a2 = a1 + 1; a2 < nant; ++a2) {
        const double bx = pos[a1][0] - pos[a2][0], by = pos[a1][1] - pos[a2][1],
                     bz = pos[a1][2] - pos[a2][2];
        const double u = bx * std::cos(h) - by * std::sin(h);
        const double q = bx * std::sin(h) + by * std::cos(h);
        obs.antenna1.push_back(a1);
        obs.antenna2.push_back(a2);
        obs.uvw_m.push_back({u, q * std::sin(dec) + bz * std::cos(dec),
                             -q * std::cos(dec) + bz * std::sin(dec)});
      }
  }
  const size_t n = obs.nrows() * nchan * npol;
  obs.vis.assign(n, {0.0f, 0.0f});
  obs.weight.resize(n);
  for (size_t i = 0; i < n; ++i) obs.weight[i] = float(1.0 + 0.5 * std::sin(0.37 * double(i)));
  return obs;
}

// Sets every visibility (all polarisations alike) to the sum of the sources'.
inline void fill_point_sources(IdgObservation& obs, const std::vector<IdgSource>& sources) {
  const size_t nchan = obs.freq_hz.size();
  for (size_t r = 0; r < obs.nrows(); ++r)
    for (size_t c = 0; c < nchan; ++c) {
      std::complex<double> v = 0;
      for (const IdgSource& s : sources)
        v += point_source_visibility(s.flux, obs.uvw_m[r], obs.freq_hz[c], s.lmn());
      for (int p = 0; p < obs.npol; ++p) obs.vis[(r * nchan + c) * obs.npol + p] = std::complex<float>(v);
    }
}

// l, m of image pixel (x, y) (idg_settings.hpp).
inline double pixel_l(const IdgSettings& s, int x) { return -(x - s.grid_size / 2) * s.cell_rad(); }
inline double pixel_m(const IdgSettings& s, int y) { return (y - s.grid_size / 2) * s.cell_rad(); }

// The dirty image of polarisation `pol` at pixel (x, y) by a direct DFT in double over every
// visibility the plan placed: sum w V exp(-2 pi i (u l + v m + w (n - 1)) nu / c) / sum w.
inline std::complex<double> dft_pixel(const IdgPlan& plan, const IdgObservation& obs, int pol,
                                      int x, int y) {
  const IdgSettings& s = plan.settings;
  const double l = pixel_l(s, x), m = pixel_m(s, y);
  const double n1 = std::sqrt(1.0 - l * l - m * m) - 1.0;
  const size_t nchan = obs.freq_hz.size();
  std::complex<double> sum = 0;
  double weights = 0;
  for (const IdgSubgrid& sub : plan.subgrids)
    for (int t = 0; t < sub.nr_timesteps; ++t) {
      const size_t r = size_t(plan.timestep_rows[size_t(sub.first_timestep + t)]);
      const std::array<double, 3>& uvw = obs.uvw_m[r];
      for (int c = sub.first_channel; c < sub.first_channel + sub.nr_channels; ++c) {
        const size_t i = (r * nchan + size_t(c)) * obs.npol + pol;
        const double phase = -2 * M_PI * (uvw[0] * l + uvw[1] * m + uvw[2] * n1) * obs.freq_hz[c] /
                             kSpeedOfLight_m_s;
        sum += double(obs.weight[i]) * std::complex<double>(obs.vis[i]) * std::polar(1.0, phase);
        weights += obs.weight[i];
      }
    }
  return sum / weights;
}

}  // namespace rapt::testing
