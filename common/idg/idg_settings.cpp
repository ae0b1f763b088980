#include "idg/idg_settings.hpp"

#include <cmath>
#include <string>

#include "cli/errors.hpp"

namespace rapt {

void IdgSettings::validate() const {
  if (grid_size < 16 || grid_size % 2 != 0)
    throw UsageError("IDG grid size must be even and at least 16, not " + std::to_string(grid_size));
  // The field's corners must lie on the sky (l^2 + m^2 < 1) for n to exist there.
  if (!(image_size > 0 && image_size < 1.4))
    throw UsageError("IDG image size (field of view in direction cosines) must lie in (0, 1.4)");
  if (subgrid_size < 8 || subgrid_size % 2 != 0 || subgrid_size > grid_size / 2)
    throw UsageError("IDG subgrid size must be even, at least 8 and at most half the grid size, not " +
                     std::to_string(subgrid_size));
  if (kernel_size < kIdgTaperSupportPx || kernel_size >= subgrid_size)
    throw UsageError("IDG kernel size must be at least 7 (the taper's support) and less than the "
                     "subgrid size, not " + std::to_string(kernel_size));
  if (max_timesteps_per_subgrid < 1)
    throw UsageError("IDG needs at least 1 time step per subgrid");
  if (max_channels_per_subgrid < 1)
    throw UsageError("IDG needs at least 1 channel per subgrid");
  if (nr_w_layers < 1) throw UsageError("IDG needs at least 1 w-layer");
  if (!(w_step_lambda >= 0) || !std::isfinite(w_step_lambda))
    throw UsageError("IDG w-step must be a finite number >= 0");
  if (nr_w_layers > 1 && w_step_lambda == 0)
    throw UsageError("IDG W-stacking with " + std::to_string(nr_w_layers) + " layers needs a w-step > 0");
  if (npol != 1 && npol != 2 && npol != 4)
    throw UsageError("IDG grids 1, 2 or 4 polarisations, not " + std::to_string(npol));
}

double idg_w_support_px(const IdgSettings& settings, double dw_lambda) {
  const double s = settings.image_size;
  const double n_corner = std::sqrt(1.0 - 0.5 * s * s);
  return std::fabs(dw_lambda) * s * s / n_corner;
}

int64_t idg_w_layer(const IdgSettings& settings, double w_lambda) {
  if (settings.w_step_lambda == 0) return 0;
  return int64_t(std::floor(w_lambda / settings.w_step_lambda + 0.5 * settings.nr_w_layers));
}

double idg_w_layer_centre(const IdgSettings& settings, int64_t z) {
  return (double(z) + 0.5 - 0.5 * settings.nr_w_layers) * settings.w_step_lambda;
}

}  // namespace rapt
