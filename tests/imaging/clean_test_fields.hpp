// Fields for CLEAN's tests: a PSF with sidelobe rings, point sources seen through a PSF (with
// noise), and a simulated observation of two sources on pixel centres for the major cycles.
#pragma once
#include <cmath>
#include <random>
#include <vector>

#include "../idg/idg_test_support.hpp"
#include "idg/idg_settings.hpp"

namespace rapt::testing {

// A PSF of peak 1 at (n/2, n/2) with sidelobe rings: sin(0.6 r) / (0.6 r).
inline std::vector<float> ringing_psf(int n) {
  std::vector<float> psf(size_t(n) * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const double r = std::hypot(x - n / 2, y - n / 2);
      psf[size_t(y) * n + x] = float(r == 0 ? 1.0 : std::sin(r * 0.6) / (r * 0.6));
    }
  return psf;
}

struct PixelSource {
  int x, y;
  double flux;
};

// The sources seen through `psf` (its centre on each source's pixel), and Gaussian noise of rms
// `noise` where it is above 0.
inline std::vector<float> sources_through_psf(const std::vector<float>& psf, int n,
                                              const std::vector<PixelSource>& sources,
                                              double noise = 0) {
  std::vector<float> dirty(size_t(n) * n, 0.0f);
  for (const PixelSource& s : sources)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const int u = x - s.x + n / 2, v = y - s.y + n / 2;
        if (u >= 0 && v >= 0 && u < n && v < n)
          dirty[size_t(y) * n + x] += float(s.flux) * psf[size_t(v) * n + u];
      }
  if (noise > 0) {
    std::mt19937 rng(7);
    std::normal_distribution<float> gauss(0.0f, float(noise));
    for (float& v : dirty) v += gauss(rng);
  }
  return dirty;
}

// One polarisation of 14 stations imaged on a 256-pixel grid, two sources (2 and 0.7 Jy) on
// pixel centres.
struct TwoSourceObservation {
  IdgSettings settings;
  IdgObservation obs;
  PixelSource sources[2] = {{128 + 20, 128 - 12, 2.0}, {128 - 31, 128 + 25, 0.7}};
};

inline TwoSourceObservation two_source_observation() {
  TwoSourceObservation t;
  IdgSettings& s = t.settings;
  s.grid_size = 256;
  s.image_size = 0.05;
  s.max_timesteps_per_subgrid = 32;
  s.max_channels_per_subgrid = 8;
  s.npol = 1;
  t.obs = make_idg_observation(14, 300.0, 20.0, 32, 0.02, 8, 120e6, 1e6, 1);
  std::vector<IdgSource> sources;
  for (const PixelSource& p : t.sources)
    sources.push_back({pixel_l(s, p.x), pixel_m(s, p.y), p.flux});
  fill_point_sources(t.obs, sources);
  return t;
}

}  // namespace rapt::testing
