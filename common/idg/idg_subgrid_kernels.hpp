// The per-subgrid kernels of IDG (digest 002 §2.2, Algorithms 1 and 2): the gridder, a direct
// DFT of one subgrid's visibilities onto its N-bar x N-bar image-domain pixels, and the
// degridder, its adjoint. Shared by the CPU engine and the tests; in double, the loops over a
// subgrid row on short vectors.
//
// Subgrid pixel (i, j) looks at l_i = -(i - N-bar/2) S / N-bar, m_j = (j - N-bar/2) S / N-bar:
// the full image's lattice thinned by N / N-bar, so no half-pixel correction is needed in the
// adder. For a subgrid centred on grid pixel (Cx, Cy) from the grid centre and a visibility at
// (px, py) = (u S nu / c, -v S nu / c) grid pixels on w-layer z:
//   phase_ij = 2 pi (i - N-bar/2)/N-bar (px - Cx) + 2 pi (j - N-bar/2)/N-bar (py - Cy)
//              - 2 pi (w nu / c - w_z) (n_ij - 1)
// which equals -2 pi (u l + v m + w (n - 1)) nu / c up to the subgrid's own offset. Taking the
// offset out per visibility (in double) rather than per pixel keeps the phase small, so it is
// exact to rounding far from the grid centre too (digest §12.7).
#pragma once
#include <complex>
#include <vector>

#include "idg/idg_plan.hpp"
#include "idg/idg_settings.hpp"

namespace rapt {

// Per-pixel tables of one subgrid size and field.
struct IdgSubgridTables {
  explicit IdgSubgridTables(const IdgSettings& settings);
  int size = 0;                    // N-bar
  std::vector<double> angle;       // [i] 2 pi (i - N-bar/2) / N-bar
  std::vector<double> n_minus_1;   // [j][i] n - 1 at (l_i, m_j)
  std::vector<double> taper;       // [j][i]
  // The same rows padded to the kernels' vector width (padded_size), for the CPU loops:
  std::vector<double> padded_angle;      // [i], 0 in the padding
  std::vector<double> padded_n_minus_1;  // [j][i], 0 in the padding
  std::vector<double> live;              // [i]: 1 for a pixel, 0 for the padding
  int padded_size = 0;
};

// Per-visibility terms of the phase above, and the visibility itself.
struct IdgSubgridVisibility {
  double dx = 0, dy = 0, dw = 0;   // phase_ij = dx angle_i + dy angle_j + dw (n_ij - 1)
  std::complex<double> value[4];   // per polarisation
};

// One subgrid's visibilities, time-then-channel order ([t][c]).
struct IdgSubgridWork {
  std::vector<IdgSubgridVisibility> visibilities;
  int nr_timesteps = 0;
  int nr_channels = 0;
  // Evenly spaced channels: the phase is then linear in the channel number, so the gridder
  // steps the phasor from channel to channel (one complex multiply) instead of taking a sine
  // and cosine for each, and the degridder (from 4 channels) takes them in pairs about the
  // group's centre, whose phasors are conjugate but for the centre's.
  bool even_channels = false;
};

// The terms of every (time step, channel) of `subgrid`; values are weight * visibility
// (weight alone when `unit_visibilities`; 0 where flagged).
void idg_subgrid_visibilities(const IdgPlan& plan, const IdgSubgrid& subgrid,
                              const IdgVisibilities& vis, bool unit_visibilities,
                              IdgSubgridWork& out);

// Gridder: pixels[pol][j][i] = taper_ij sum_k value_kp exp(i phase_kij).
void idg_grid_subgrid(const IdgSubgridTables& tables, int npol, const IdgSubgridWork& work,
                      std::complex<float>* pixels);

// Degridder, the adjoint: value_kp = sum_ij taper_ij pixels[pol][j][i] exp(-i phase_kij),
// written into work.visibilities[k].value. `scratch` is reused between calls.
void idg_degrid_subgrid(const IdgSubgridTables& tables, int npol, const std::complex<float>* pixels,
                        IdgSubgridWork& work, std::vector<std::complex<double>>& scratch);

}  // namespace rapt
