// One integration's sums made into visibility rows (rapt(7), CORRELATION).
//
// For each baseline (antenna 2 slowest, a1 <= a2: the engine's order; autocorrelations unless
// left out) one row: in output channel c' and file product p,
//     V = (1 / (K n)) sum over k < K of sums[c' K + k][baseline][engine product of p]
// with n the samples valid at both antennas and K the channels averaged: the mean product over
// the valid samples of the K channels. weight = n K; a baseline with n = 0 is flagged (V = 0,
// weight 0). uvw = antenna_uvw[a1] - antenna_uvw[a2]; no conjugation anywhere, since the
// engines' V12 = X1 conj(X2) is what UVFITS and Measurement Sets hold.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "corr/correlation_products.hpp"
#include "geometry/interferometer_geometry.hpp"
#include "io/visibility_set.hpp"

namespace rapt {

struct RowSettings {
  int nant = 1;
  int nchan = 1;  // channels of the sums; a multiple of chan_avg
  int npol = 1;
  int chan_avg = 1;
  bool autos = true;
  CorrelationProducts products;
};

// Appends the rows of one integration to `rows`, whose channel_freq_hz (nchan / chan_avg) and
// stokes must be set. `sums`: [chan][baseline][p1][p2] as CorrelatorEngine::take gives them;
// `valid_counts`: [baseline]. Throws std::invalid_argument when the sizes disagree.
void append_integration_rows(const RowSettings& settings,
                             const std::vector<std::complex<double>>& sums,
                             const std::vector<int64_t>& valid_counts, double time_mjd,
                             double integration_s, const std::vector<Vector3>& antenna_uvw_m,
                             VisibilitySet& rows);

// The centre of each group of `chan_avg` adjacent channels (the mean of their centres).
// Throws std::invalid_argument unless chan_avg divides the number of channels.
std::vector<double> averaged_channel_freqs(const std::vector<double>& freqs_hz, int chan_avg);

// Drops the rows of `rows`, keeping its metadata.
void clear_rows(VisibilitySet& rows);

}  // namespace rapt
