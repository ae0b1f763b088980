// How many w-layers (W-stacking) an image needs, and how thick they are: IDG handles the w-term
// inside a subgrid only while its spread fits the kernel (idg_settings.hpp), so the data's w
// range is cut into layers thin enough for that.
#pragma once
#include "idg/idg_settings.hpp"

namespace rapt {

struct WLayerChoice {
  int nr_w_layers = 1;
  double w_step_lambda = 0;
};

// For data whose |w| reaches max_w_lambda, on the grid of `settings` (size, field, kernel):
//   wstep_lambda > 0: that thickness, as many layers as cover -max..max;
//   nwlayers > 0:     that many layers spanning -max..max;
//   neither:          the fewest layers whose half-thickness the kernel can hold (one layer
//                     at w = 0 when the whole range fits).
// Throws UsageError when the kernel leaves no room for any w (--kernel-size too small).
WLayerChoice choose_w_layers(const IdgSettings& settings, double max_w_lambda, int nwlayers,
                             double wstep_lambda);

// The largest |w - w_layer| (wavelengths) the kernel holds on this grid.
double largest_w_residual(const IdgSettings& settings);

}  // namespace rapt
