// `simulate --visibilities`: the exact visibilities of a sky of point sources seen by an
// array, with optional Gaussian noise, as a VisibilitySet for write_uvfits or
// write_measurement_set.
//
// Rows: for each integration i (centre at start + (i + 1/2) integration_s), the baselines
// a1 < a2 in layout order (with a1 = a2 first in each antenna's run when autocorrelations are
// asked for). uvw = antenna_uvw_m[a1] - antenna_uvw_m[a2] at the integration's centre.
// Values (flux convention, man page): an unpolarised source of Stokes I = S gives
//   XX = YY = RR = LL = I = sum_s point_source_visibility(S_s(nu), uvw, nu, lmn_s),
//   XY = YX = RL = LR = Q = U = V = 0,
// evaluated at the channel's centre frequency and the integration's centre (no time or
// bandwidth smearing). Noise, when asked for, adds independent Gaussian deviates of rms
// `noise_jy` to the real and the imaginary part of every value (the cross-hand and Stokes Q,
// U, V values too), a pure function of (seed, row, channel, product).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/interferometer_geometry.hpp"
#include "io/visibility_set.hpp"
#include "sim/sky_model.hpp"

namespace rapt {

struct VisibilityPlan {
  ArrayLayout layout;
  SkyDirection phase_centre;
  std::string object = "SIMULATED";
  UtcInstant start{60000, 0.0};
  double integration_s = 8.0;
  int nintegrations = 10;
  int nchan = 64;
  double centre_freq_mhz = 1284.0;
  double bandwidth_mhz = 64.0;  // signed
  std::vector<int> stokes{-5, -6, -7, -8};  // XX YY XY YX
  bool autocorrelations = false;
  double noise_jy = 0.0;        // rms per real and imaginary part
  uint64_t seed = 1;
  std::vector<PointSourceSpec> sources;

  double channel_freq_mhz(int c) const {
    return centre_freq_mhz - bandwidth_mhz / 2 + (c + 0.5) * bandwidth_mhz / nchan;
  }
  void validate() const;  // UsageError naming the option
};

// "XX,YY,XY,YX" (also RR LL RL LR, I Q U V; case-insensitive) to FITS/AIPS Stokes codes.
// Throws UsageError naming --products.
std::vector<int> parse_products(const std::string& text);

// True for the products that carry an unpolarised source's flux (XX YY RR LL I).
bool product_sees_total_intensity(int stokes_code);

VisibilitySet simulate_visibilities(const VisibilityPlan& plan);

}  // namespace rapt
