// The visibilities IDG takes (a view onto the caller's arrays, laid out as VisibilitySet holds
// them, so nothing is copied) and the execution plan that splits them into subgrids
// (digest 002 §2.4).
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "idg/idg_aterms.hpp"
#include "idg/idg_settings.hpp"

namespace rapt {

// Rows are (baseline, time) pairs in any order; the rows of one baseline must come in time
// order (as UVFITS and Measurement Sets store them). Per row and channel the arrays hold
// `products` values, of which polarisation p (0 <= p < npol) is product `product_index[p]`:
// a VisibilitySet `vs` maps on with products = vs.nstokes() and e.g. {0, 1} for XX YY.
// Autocorrelations (antenna1 == antenna2) are not imaged. A value whose weight is 0 (or whose
// flag is set, when `flag` is given) is flagged.
struct IdgVisibilities {
  size_t nrows = 0;
  size_t nchan = 0;
  size_t products = 1;                   // values per (row, channel) in vis, weight, flag
  std::array<int, 4> product_index = {0, 1, 2, 3};
  const int* antenna1 = nullptr;         // [row]
  const int* antenna2 = nullptr;         // [row]
  const std::array<double, 3>* uvw_m = nullptr;  // [row], metres, antenna1 - antenna2
  const double* freq_hz = nullptr;       // [chan]
  const std::complex<float>* vis = nullptr;  // [row][chan][product]; may be null for the PSF
  const float* weight = nullptr;         // [row][chan][product], >= 0
  const uint8_t* flag = nullptr;         // [row][chan][product], 1 = flagged; may be null
  // Optional A-terms (idg_aterms.hpp; settings.npol must then be 4) and the A-term time slot
  // of each row ([row], 0 <= slot < aterms->nr_slots; null: every row in slot 0). Antenna
  // indices must be below aterms->nr_stations.
  const IdgATerms* aterms = nullptr;
  const int* aterm_slot = nullptr;

  size_t index(size_t row, size_t chan, int pol) const {
    return (row * nchan + chan) * products + size_t(product_index[size_t(pol)]);
  }
  // Weight of polarisation `pol`, 0 when flagged.
  float weight_of(size_t row, size_t chan, int pol) const {
    const size_t i = index(row, chan, pol);
    return flag && flag[i] ? 0.0f : weight[i];
  }
};

// One task: the visibilities of one baseline over consecutive time steps and one channel
// group, all on one w-layer, gridded onto an N-bar x N-bar subgrid whose top-left corner is
// grid pixel (x, y), 1 <= x, y <= N - N-bar.
struct IdgSubgrid {
  int64_t first_timestep = 0;  // into IdgPlan::timestep_rows
  int nr_timesteps = 0;
  int first_channel = 0;
  int nr_channels = 0;
  int w_layer = 0;
  int aterm_slot = 0;  // the A-term time slot of every time step (0 without A-terms)
  int x = 0;
  int y = 0;
};

struct IdgPlan {
  IdgSettings settings;
  // Input row of each planned time step; subgrid s takes
  // timestep_rows[s.first_timestep .. s.first_timestep + s.nr_timesteps).
  std::vector<int64_t> timestep_rows;
  std::vector<IdgSubgrid> subgrids;
  // Unflagged visibilities (row, channel pairs with any polarisation's weight > 0 that are not
  // autocorrelations): placed on a subgrid, and not placed because their uv footprint falls
  // off the grid or their channel group's footprint alone does not fit a subgrid, or because
  // their w lies outside the w-layers or spreads too far for N_W. Strict: the caller decides
  // what to do about unplaced ones (the engines skip them).
  int64_t visibilities_placed = 0;
  int64_t unplaced_off_grid = 0;
  int64_t unplaced_w = 0;
};

// Greedy per baseline and channel group (digest 002 §2.4): starting at a baseline's first
// time step, consecutive time steps join the subgrid while the uv footprint of all of them at
// the group's first and last channel satisfies max(du, dv) + N_W < N-bar, they share the
// subgrid's A-term time slot and w-layer (the layer of the group's central w; the residual
// w - w_z at the first and last channel must fit N_W, see idg_settings.hpp) and the subgrid
// has fewer than T-bar_max steps; the subgrid is then centred on the footprint (rounded to a pixel). Time steps whose channels in
// the group are all flagged are left out. Throws UsageError for invalid settings or a view
// that does not fit them (npol products, null arrays, A-terms that do not fit the settings,
// the slots or the antennas). Baselines are planned on up to `threads`
// threads; the plan does not depend on how many.
IdgPlan make_idg_plan(const IdgSettings& settings, const IdgVisibilities& visibilities,
                      int threads = 1);

}  // namespace rapt
