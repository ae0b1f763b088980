// How many w-layers (W-stacking) an image needs, and how thick they are: IDG handles the w-term
// inside a subgrid only while its spread fits the kernel (idg_settings.hpp), so the data's w
// range is cut into layers thin enough for that.
// A subgrid's channels share its w-layer, and their w spreads with frequency, so the room left
// for the layers' thickness is what that spread leaves; where it would leave little, subgrids
// take fewer channels.
#pragma once
#include <vector>

#include "idg/idg_settings.hpp"

namespace rapt {

struct WLayerChoice {
  int nr_w_layers = 1;
  double w_step_lambda = 0;
  int max_channels_per_subgrid = 1;  // at most the settings', fewer where w spreads too far
};

// For data whose |w| reaches max_w_lambda, at the channel frequencies freq_hz (those the plan
// groups, from the first, into subgrids of the settings' max_channels_per_subgrid), on the grid
// of `settings` (size, field, kernel):
//   wstep_lambda > 0: that thickness, as many layers as cover -max..max;
//   nwlayers > 0:     that many layers spanning -max..max;
//   neither:          the fewest layers whose half-thickness, with a subgrid's own spread of w,
//                     the kernel can hold (one layer at w = 0 when the whole range fits);
// in every case halving the channels a subgrid takes while their spread of w leaves the layers
// too little room (with the layers chosen: any room; otherwise: half the kernel's).
// Throws UsageError when the kernel leaves no room for any w (--kernel-size too small).
WLayerChoice choose_w_layers(const IdgSettings& settings, double max_w_lambda, int nwlayers,
                             double wstep_lambda, const std::vector<double>& freq_hz);

// `settings` with the channels a subgrid takes (channels_fitting_subgrid) and the w-layers
// (choose_w_layers) for data whose |u| and |v| reach max_uv_lambda and |w| max_w_lambda.
IdgSettings with_w_layers(IdgSettings settings, double max_uv_lambda, double max_w_lambda,
                          int nwlayers, double wstep_lambda, const std::vector<double>& freq_hz);

// The largest |w - w_centre| (wavelengths) among one subgrid's channels, for subgrids of at most
// `channels` adjacent channels of freq_hz from the first and data whose |w| reaches max_w_lambda
// (w scales with frequency: a group of channels lo..hi about its centre spreads by at most
// max_w (hi - lo) / (hi + lo) either side).
double subgrid_w_spread(const std::vector<double>& freq_hz, int channels, double max_w_lambda);

// The most channels (at most the settings' max_channels_per_subgrid, halved as needed) one
// subgrid can take where the data's |u| and |v| reach max_uv_lambda: u and v scale with
// frequency, so a subgrid's channels spread a visibility over up to
// max_uv S (hi - lo) / hi pixels, which with the kernel must fit inside the subgrid.
int channels_fitting_subgrid(const IdgSettings& settings, const std::vector<double>& freq_hz,
                             double max_uv_lambda);

// The largest |w - w_layer| (wavelengths) the kernel holds on this grid.
double largest_w_residual(const IdgSettings& settings);

}  // namespace rapt
