// How many w-layers (W-stacking) an image needs, and how thick they are: IDG handles the w-term
// inside a subgrid only while its spread fits the kernel (idg_settings.hpp), so the data's w
// range is cut into layers thin enough for that.
// A subgrid's channels share its w-layer, and their w spreads with frequency, so the room left
// for the layers' thickness is what that spread leaves; where it would leave little, subgrids
// take fewer channels.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "geometry/interferometer_geometry.hpp"  // kSpeedOfLight_m_s
#include "idg/idg_settings.hpp"

namespace rapt {

// How far the samples reach in the uv plane and in w, in wavelengths: what the subgrids' channels
// and the w-layers are chosen for.
struct UvExtent {
  double max_uv_lambda = 0;  // largest |u| or |v|
  double max_w_lambda = 0;   // largest |w|
};

// The extent of the samples counted(row, channel) picks, of rows at uvw_m (metres) and channels
// at freq_hz.
template <class Counted>
UvExtent uv_extent(const std::vector<std::array<double, 3>>& uvw_m,
                   const std::vector<double>& freq_hz, Counted counted) {
  UvExtent e;
  for (size_t row = 0; row < uvw_m.size(); ++row)
    for (size_t c = 0; c < freq_hz.size(); ++c) {
      if (!counted(row, c)) continue;
      const double per_m = std::abs(freq_hz[c]) / kSpeedOfLight_m_s;
      e.max_uv_lambda = std::max(
          {e.max_uv_lambda, std::abs(uvw_m[row][0]) * per_m, std::abs(uvw_m[row][1]) * per_m});
      e.max_w_lambda = std::max(e.max_w_lambda, std::abs(uvw_m[row][2]) * per_m);
    }
  return e;
}

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
