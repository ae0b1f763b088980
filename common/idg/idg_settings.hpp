// Settings of image-domain gridding (IDG; Veenboer's thesis ch. 4, our digest 002 §2): the grid,
// the subgrids, the execution plan's limits and W-stacking. A plain struct, validated once.
//
// Geometry (rapt(7) INTERFEROMETRY CONVENTIONS; the image as common/io/fits_image.hpp writes it):
//   image pixel (x, y), 0 <= x, y < N, [y][x] in memory: l = -(x - N/2) cell, m = (y - N/2) cell,
//   cell = S / N. So the phase centre is pixel (N/2, N/2), x = 0 is the east (left) edge and a
//   source east of the centre (l > 0) appears at x < N/2, as WSClean draws it.
//   A visibility of baseline (u, v, w) metres at frequency nu lies on the uv grid at
//   gx = N/2 + u S nu/c, gy = N/2 - v S nu/c (grid pixels; gy runs against v because m runs
//   with y while the image transform has one sign for both axes).
#pragma once
#include <cstdint>

namespace rapt {

struct IdgSettings {
  int grid_size = 0;          // N: grid and image pixels per side; even
  double image_size = 0;      // S: field of view in direction cosines; cell = S / N radians
  int subgrid_size = 32;      // N-bar: subgrid pixels per side; even, 8 <= N-bar <= N / 2
  int kernel_size = 9;        // N_W: uv support the taper and w-term may take in a subgrid
  int max_timesteps_per_subgrid = 128;  // T-bar_max
  int max_channels_per_subgrid = 16;    // C-bar: channel groups have at most this many channels
  // W-stacking: nr_w_layers grids, layer z holding w (wavelengths) in
  // [(z - L/2) w_step, (z + 1 - L/2) w_step), its centre w_z = (z + 0.5 - L/2) w_step.
  // nr_w_layers = 1 with w_step_lambda = 0: one layer at w = 0 with no w range of its own.
  // Within a layer the residual w - w_z is handled inside the subgrids (the n term of the
  // DFT); its uv spread must fit in the kernel (see idg_w_support_px), else the visibility is
  // not placed.
  int nr_w_layers = 1;
  double w_step_lambda = 0;
  int npol = 1;               // polarisations gridded: 1, 2 or 4

  double cell_rad() const { return image_size / grid_size; }
  // Throws UsageError naming the setting that is out of range.
  void validate() const;
};

// uv pixels of the taper's own spread inside a subgrid (the prolate spheroidal's transform):
// N_W must hold this plus the w-term's spread.
inline constexpr double kIdgTaperSupportPx = 7.0;

// Spread on the uv grid (pixels, full width along u or v) of the w-term exp(-2 pi i dw (n - 1))
// across the field of view of `settings`, for a residual w of dw wavelengths: its local
// frequency dw l / n peaks at the field's corner (l = m = S/2), so the spread is
// |dw| S^2 / n(corner) pixels of 1/S. A visibility is placed only when
// kIdgTaperSupportPx + idg_w_support_px(settings, w - w_z) <= N_W.
double idg_w_support_px(const IdgSettings& settings, double dw_lambda);

// The w-layer that holds w (wavelengths); may lie outside [0, nr_w_layers) (then the
// visibility cannot be placed). Always 0 with nr_w_layers = 1 and w_step_lambda = 0.
int64_t idg_w_layer(const IdgSettings& settings, double w_lambda);
// Centre w_z of layer z, wavelengths.
double idg_w_layer_centre(const IdgSettings& settings, int64_t z);

}  // namespace rapt
