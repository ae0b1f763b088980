#include "imaging/w_layers.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "cli/errors.hpp"

namespace rapt {

double largest_w_residual(const IdgSettings& settings) {
  const double room_px = settings.kernel_size - kIdgTaperSupportPx;
  const double px_per_lambda = idg_w_support_px(settings, 1.0);  // linear in |dw|
  if (room_px <= 0) return 0;
  return px_per_lambda > 0 ? room_px / px_per_lambda : INFINITY;
}

namespace {

// The largest (hi - lo) / (hi + lo * with_lo) over subgrids of at most `channels` adjacent
// channels of freq_hz from the first (hi, lo: a subgrid's highest and lowest frequency).
double widest_subgrid(const std::vector<double>& freq_hz, int channels, double with_lo) {
  double widest = 0;
  const size_t n = freq_hz.size(), step = size_t(std::max(channels, 1));
  for (size_t c0 = 0; c0 < n; c0 += step) {
    const double a = freq_hz[c0], b = freq_hz[std::min(c0 + step, n) - 1];
    const double lo = std::min(std::abs(a), std::abs(b)), hi = std::max(std::abs(a), std::abs(b));
    if (hi > 0) widest = std::max(widest, (hi - lo) / (hi + lo * with_lo));
  }
  return widest;
}

}  // namespace

double subgrid_w_spread(const std::vector<double>& freq_hz, int channels, double max_w_lambda) {
  return std::abs(max_w_lambda) * widest_subgrid(freq_hz, channels, 1.0);
}

int channels_fitting_subgrid(const IdgSettings& settings, const std::vector<double>& freq_hz,
                             double max_uv_lambda) {
  int channels = settings.max_channels_per_subgrid;
  // The planner needs spread + kernel < subgrid; a pixel to spare for the timesteps' own.
  const double room_px = settings.subgrid_size - settings.kernel_size - 1;
  while (channels > 1 && std::abs(max_uv_lambda) * settings.image_size *
                                 widest_subgrid(freq_hz, channels, 0.0) >= room_px)
    channels = (channels + 1) / 2;
  return channels;
}

WLayerChoice choose_w_layers(const IdgSettings& settings, double max_w_lambda, int nwlayers,
                             double wstep_lambda, const std::vector<double>& freq_hz) {
  WLayerChoice c;
  c.max_channels_per_subgrid = settings.max_channels_per_subgrid;
  const double w = std::abs(max_w_lambda);
  const double residual = largest_w_residual(settings);
  // Halves the subgrids' channels while their spread of w exceeds `room` (one channel has none).
  // No room at all is not mended by fewer channels: the plan then names the visibilities.
  auto narrow_to = [&](double room) {
    if (!(room > 0)) return;
    while (c.max_channels_per_subgrid > 1 &&
           subgrid_w_spread(freq_hz, c.max_channels_per_subgrid, w) > room)
      c.max_channels_per_subgrid = (c.max_channels_per_subgrid + 1) / 2;
  };
  // With the layers given, a w lies at most half a layer from its layer's centre, or with one
  // layer (centred on 0) at most the largest |w|.
  auto room_beside_layers = [&] {
    return residual - (c.nr_w_layers == 1 ? w : c.w_step_lambda / 2);
  };
  if (wstep_lambda > 0) {
    c.w_step_lambda = wstep_lambda;
    c.nr_w_layers = int(std::floor(2 * w / wstep_lambda)) + 1;
    narrow_to(room_beside_layers());
    return c;
  }
  if (nwlayers > 0) {
    c.nr_w_layers = nwlayers;
    // A hair more than 2 max / L, so that w = +max lies inside the top layer.
    c.w_step_lambda = w > 0 ? 2 * w / nwlayers * (1 + 1e-9) + 1e-9 : 0;
    if (nwlayers == 1 && w <= residual) c.w_step_lambda = 0;
    narrow_to(room_beside_layers());
    return c;
  }
  if (!(residual > 0))
    throw UsageError("--kernel-size " + std::to_string(settings.kernel_size) +
                     " leaves no room for the w-term (the taper takes " +
                     std::to_string(int(kIdgTaperSupportPx)) + " pixels): give at least " +
                     std::to_string(int(kIdgTaperSupportPx) + 1));
  if (w <= residual) return c;  // one layer at w = 0 holds every channel's w
  narrow_to(residual / 2);
  const double room = residual - subgrid_w_spread(freq_hz, c.max_channels_per_subgrid, w);
  c.w_step_lambda = 2 * room * 0.98;  // each layer's residual stays within the kernel
  c.nr_w_layers = int(std::floor(2 * w / c.w_step_lambda)) + 1;
  return c;
}

IdgSettings with_w_layers(IdgSettings settings, double max_uv_lambda, double max_w_lambda,
                          int nwlayers, double wstep_lambda, const std::vector<double>& freq_hz) {
  settings.max_channels_per_subgrid = channels_fitting_subgrid(settings, freq_hz, max_uv_lambda);
  const WLayerChoice layers = choose_w_layers(settings, max_w_lambda, nwlayers, wstep_lambda, freq_hz);
  settings.nr_w_layers = layers.nr_w_layers;
  settings.w_step_lambda = layers.w_step_lambda;
  settings.max_channels_per_subgrid = layers.max_channels_per_subgrid;
  return settings;
}

}  // namespace rapt
