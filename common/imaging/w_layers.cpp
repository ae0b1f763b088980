#include "imaging/w_layers.hpp"

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

WLayerChoice choose_w_layers(const IdgSettings& settings, double max_w_lambda, int nwlayers,
                             double wstep_lambda) {
  WLayerChoice c;
  const double w = std::abs(max_w_lambda);
  if (wstep_lambda > 0) {
    c.w_step_lambda = wstep_lambda;
    c.nr_w_layers = int(std::floor(2 * w / wstep_lambda)) + 1;
    return c;
  }
  if (nwlayers > 0) {
    c.nr_w_layers = nwlayers;
    // A hair more than 2 max / L, so that w = +max lies inside the top layer.
    c.w_step_lambda = w > 0 ? 2 * w / nwlayers * (1 + 1e-9) + 1e-9 : 0;
    if (nwlayers == 1 && w <= largest_w_residual(settings)) c.w_step_lambda = 0;
    return c;
  }
  const double residual = largest_w_residual(settings);
  if (!(residual > 0))
    throw UsageError("--kernel-size " + std::to_string(settings.kernel_size) +
                     " leaves no room for the w-term (the taper takes " +
                     std::to_string(int(kIdgTaperSupportPx)) + " pixels): give at least " +
                     std::to_string(int(kIdgTaperSupportPx) + 1));
  if (w <= residual) return c;  // one layer at w = 0
  c.w_step_lambda = 2 * residual * 0.98;  // each layer's residual stays within the kernel
  c.nr_w_layers = int(std::floor(2 * w / c.w_step_lambda)) + 1;
  return c;
}

}  // namespace rapt
