#include "idg/idg_engine.hpp"

#include <string>

#include "cli/errors.hpp"
#include "idg/idg_gpu_factory.hpp"

namespace rapt {
namespace {

bool same_settings(const IdgSettings& a, const IdgSettings& b) {
  return a.grid_size == b.grid_size && a.image_size == b.image_size &&
         a.subgrid_size == b.subgrid_size && a.kernel_size == b.kernel_size &&
         a.max_timesteps_per_subgrid == b.max_timesteps_per_subgrid &&
         a.max_channels_per_subgrid == b.max_channels_per_subgrid &&
         a.nr_w_layers == b.nr_w_layers && a.w_step_lambda == b.w_step_lambda && a.npol == b.npol;
}

}  // namespace

IdgEngine::IdgEngine(const IdgSettings& settings) : settings_(settings) { settings_.validate(); }

// The plan indexes rows and channels of the view it was made from; a different view must at
// least hold them all.
void IdgEngine::check(const IdgPlan& plan, const IdgVisibilities& vis) const {
  if (!same_settings(plan.settings, settings_))
    throw UsageError("IDG plan was made with other settings than the engine's");
  for (int p = 0; p < settings_.npol; ++p)
    if (vis.product_index[size_t(p)] < 0 || size_t(vis.product_index[size_t(p)]) >= vis.products)
      throw UsageError("IDG visibilities: polarisation " + std::to_string(p) + " has no product");
  for (int64_t row : plan.timestep_rows)
    if (row < 0 || size_t(row) >= vis.nrows) throw UsageError("IDG plan does not fit the visibilities' rows");
  for (const IdgSubgrid& s : plan.subgrids)
    if (s.first_channel < 0 || size_t(s.first_channel + s.nr_channels) > vis.nchan)
      throw UsageError("IDG plan does not fit the visibilities' channels");
  if (!plan.timestep_rows.empty() && (!vis.uvw_m || !vis.weight || !vis.freq_hz))
    throw UsageError("IDG visibilities: uvw, weights and frequencies are needed");
}

IdgImage IdgEngine::grid_normalised(const IdgPlan& plan, const IdgVisibilities& vis, bool unit) {
  check(plan, vis);
  if (!unit && !plan.timestep_rows.empty() && !vis.vis) throw UsageError("IDG visibilities: no values to grid");
  const int npol = settings_.npol, n = settings_.grid_size;
  IdgImage image;
  image.npol = npol;
  image.size = n;
  image.pixels.assign(size_t(npol) * n * n, {0.0f, 0.0f});
  image.weight_sum.assign(size_t(npol), 0.0);
  for (const IdgSubgrid& s : plan.subgrids)
    for (int t = 0; t < s.nr_timesteps; ++t) {
      const size_t row = size_t(plan.timestep_rows[size_t(s.first_timestep + t)]);
      for (int c = s.first_channel; c < s.first_channel + s.nr_channels; ++c)
        for (int p = 0; p < npol; ++p) image.weight_sum[size_t(p)] += vis.weight_of(row, size_t(c), p);
    }
  grid_image(plan, vis, unit, image);
  for (int p = 0; p < npol; ++p) {
    if (image.weight_sum[size_t(p)] == 0) continue;
    const float scale = float(1.0 / image.weight_sum[size_t(p)]);
    std::complex<float>* plane = image.plane(p);
    for (size_t i = 0; i < size_t(n) * n; ++i) plane[i] *= scale;
  }
  return image;
}

IdgImage IdgEngine::grid(const IdgPlan& plan, const IdgVisibilities& vis) {
  return grid_normalised(plan, vis, false);
}

IdgImage IdgEngine::psf(const IdgPlan& plan, const IdgVisibilities& vis) {
  return grid_normalised(plan, vis, true);
}

void IdgEngine::degrid(const IdgPlan& plan, const IdgImage& model, const IdgVisibilities& vis,
                       std::complex<float>* predicted) {
  check(plan, vis);
  if (model.npol != settings_.npol || model.size != settings_.grid_size ||
      model.pixels.size() != size_t(model.npol) * model.size * model.size)
    throw UsageError("IDG model image must hold " + std::to_string(settings_.npol) + " planes of " +
                     std::to_string(settings_.grid_size) + " x " + std::to_string(settings_.grid_size));
  if (vis.nrows * vis.nchan > 0 && !predicted) throw UsageError("IDG degrid: no output array");
  for (size_t row = 0; row < vis.nrows; ++row)
    for (size_t c = 0; c < vis.nchan; ++c)
      for (int p = 0; p < settings_.npol; ++p) predicted[vis.index(row, c, p)] = {0.0f, 0.0f};
  degrid_image(plan, model, vis, predicted);
}

// In CUDA builds the engine lives in gpu/idg/; elsewhere every call answers as a build
// without CUDA does.
std::unique_ptr<IdgEngine> make_gpu_idg_engine(const IdgSettings& settings, int gpu_index) {
#ifdef RAPT_WITH_CUDA
  return make_cuda_idg_engine(settings, gpu_index);
#else
  (void)settings, (void)gpu_index;
  throw UsageError("the GPU IDG engine needs a build with CUDA");
#endif
}

}  // namespace rapt
