#include "idg/idg_engine.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "cli/errors.hpp"
#include "idg/idg_gpu_factory.hpp"
#include "idg/idg_host_passes.hpp"

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

// Large blocks aligned to 2 MiB: where transparent huge pages are on for all memory, the
// kernel can then back them with huge pages. No madvise(MADV_HUGEPAGE): with the usual "defrag
// on madvise" setting a first touch may then stall for seconds compacting memory.
void* idg_pixel_allocate(size_t bytes) {
  constexpr size_t kHugePage = size_t(2) << 20;
  void* p = bytes >= 2 * kHugePage
                ? std::aligned_alloc(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage)
                : std::malloc(bytes ? bytes : 1);
  if (!p) throw std::bad_alloc();
  return p;
}

IdgEngine::IdgEngine(const IdgSettings& settings, int host_threads)
    : settings_(settings), host_threads_(host_threads) {
  settings_.validate();
  if (host_threads < 1) throw UsageError("IDG needs at least 1 thread");
}

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
  if (vis.aterms) {
    check_aterms(*vis.aterms, settings_.npol, settings_.subgrid_size);
    for (const IdgSubgrid& s : plan.subgrids) {
      const int64_t row = plan.timestep_rows[size_t(s.first_timestep)];
      if (s.aterm_slot < 0 || s.aterm_slot >= vis.aterms->nr_slots ||
          vis.antenna1[row] >= vis.aterms->nr_stations || vis.antenna2[row] >= vis.aterms->nr_stations)
        throw UsageError("IDG plan does not fit the A-terms' slots or stations");
    }
  }
}

void IdgEngine::size_image(IdgImage& image) const {
  const int n = settings_.grid_size;
  image.npol = settings_.npol;
  image.size = n;
  image.pixels.resize(size_t(image.npol) * n * n);  // new values unset: the engine sets every one
  image.weight_sum.clear();
}

void IdgEngine::grid_normalised(const IdgPlan& plan, const IdgVisibilities& vis, bool unit,
                                IdgImage& image) {
  check(plan, vis);
  if (!unit && !plan.timestep_rows.empty() && !vis.vis) throw UsageError("IDG visibilities: no values to grid");
  const int npol = settings_.npol;
  const size_t plane = size_t(settings_.grid_size) * settings_.grid_size;
  size_image(image);
  const bool normalised = grid_image(plan, vis, unit, image);
  if (image.weight_sum.size() != size_t(npol)) {
    if (normalised) throw std::logic_error("IDG engine normalised an image without its weights");
    image.weight_sum = idg_weight_sums(plan, vis, host_threads_);
  }
  for (int p = 0; p < npol && !normalised; ++p) {
    if (image.weight_sum[size_t(p)] == 0) continue;
    idg_scale(image.plane(p), plane, float(1.0 / image.weight_sum[size_t(p)]), host_threads_);
  }
}

IdgImage IdgEngine::grid(const IdgPlan& plan, const IdgVisibilities& vis) {
  IdgImage image;
  grid_normalised(plan, vis, false, image);
  return image;
}

IdgImage IdgEngine::psf(const IdgPlan& plan, const IdgVisibilities& vis) {
  IdgImage image;
  grid_normalised(plan, vis, true, image);
  return image;
}

void IdgEngine::grid(const IdgPlan& plan, const IdgVisibilities& vis, IdgImage& image) {
  grid_normalised(plan, vis, false, image);
}

void IdgEngine::psf(const IdgPlan& plan, const IdgVisibilities& vis, IdgImage& image) {
  grid_normalised(plan, vis, true, image);
}

void IdgEngine::check_model(const IdgImage& model) const {
  if (model.npol != settings_.npol || model.size != settings_.grid_size ||
      model.pixels.size() != size_t(model.npol) * model.size * model.size)
    throw UsageError("IDG model image must hold " + std::to_string(settings_.npol) + " planes of " +
                     std::to_string(settings_.grid_size) + " x " + std::to_string(settings_.grid_size));
}

void IdgEngine::degrid(const IdgPlan& plan, const IdgImage& model, const IdgVisibilities& vis,
                       std::complex<float>* predicted) {
  check(plan, vis);
  check_model(model);
  if (vis.nrows * vis.nchan > 0 && !predicted) throw UsageError("IDG degrid: no output array");
  // The engine writes every planned value; the rest are set to 0 here.
  idg_zero_unplanned(plan, vis, host_threads_, predicted);
  degrid_image(plan, model, vis, predicted);
}

void IdgEngine::hold(const IdgPlan& plan, const IdgVisibilities& vis) {
  release_held();
  check(plan, vis);
  if (!plan.timestep_rows.empty() && !vis.vis) throw UsageError("IDG visibilities: no values to hold");
  hold_visibilities(plan, vis);
  holding_ = true;
}

void IdgEngine::check_holding(const char* call) const {
  if (!holding_) throw UsageError(std::string("IDG ") + call + ": no visibilities held");
}

void IdgEngine::grid_held(IdgImage& image) {
  check_holding("grid_held");
  size_image(image);
  grid_held_image(false, image);
}

void IdgEngine::psf_held(IdgImage& image) {
  check_holding("psf_held");
  size_image(image);
  grid_held_image(true, image);
}

void IdgEngine::subtract_held(const IdgImage& model) {
  check_holding("subtract_held");
  check_model(model);
  subtract_held_model(model);
}

void IdgEngine::subtract_held_points(const std::vector<IdgModelPoint>& points) {
  check_holding("subtract_held_points");
  const int64_t plane = int64_t(settings_.grid_size) * settings_.grid_size;
  for (size_t i = 0; i < points.size(); ++i) {
    const IdgModelPoint& p = points[i];
    if (p.pol < 0 || p.pol >= settings_.npol || p.index < 0 || p.index >= plane)
      throw UsageError("IDG model point " + std::to_string(i) + " lies outside the " +
                       std::to_string(settings_.npol) + " planes of " +
                       std::to_string(settings_.grid_size) + " x " + std::to_string(settings_.grid_size));
  }
  // One point per pixel, summed in the caller's order (a stable sort keeps it), so every
  // engine sees the same values.
  std::vector<IdgModelPoint> sorted = points, merged;
  const auto key = [](const IdgModelPoint& p) { return std::make_pair(p.pol, p.index); };
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const IdgModelPoint& a, const IdgModelPoint& b) { return key(a) < key(b); });
  for (const IdgModelPoint& p : sorted) {
    if (!merged.empty() && key(merged.back()) == key(p))
      merged.back().value += p.value;
    else
      merged.push_back(p);
  }
  subtract_held_model_points(merged);
}

void IdgEngine::grid_held_real(int pol, std::vector<float>& plane) {
  check_holding("grid_held_real");
  if (pol < 0 || pol >= settings_.npol)
    throw UsageError("IDG grid_held_real: polarisation " + std::to_string(pol) + " of " +
                     std::to_string(settings_.npol));
  plane.resize(size_t(settings_.grid_size) * settings_.grid_size);
  grid_held_real_plane(pol, plane);
}

void IdgEngine::release_held() {
  if (holding_) release_held_visibilities();
  holding_ = false;
  held_scratch_ = IdgImage{};
}

void IdgEngine::hold_visibilities(const IdgPlan& plan, const IdgVisibilities& vis) {
  held_plan_ = plan;
  held_view_ = vis;
}

void IdgEngine::grid_held_image(bool unit, IdgImage& image) {
  grid_normalised(held_plan_, held_view_, unit, image);
}

void IdgEngine::subtract_held_model(const IdgImage& model) {
  const IdgVisibilities& v = held_view_;
  if (!v.vis) return;  // a view without values holds no planned ones: nothing to subtract from
  const size_t count = v.nrows * v.nchan * v.products;
  std::vector<std::complex<float>> predicted(count);  // 0 where nothing is predicted
  degrid(held_plan_, model, v, predicted.data());
  if (held_residuals_.empty()) {
    held_residuals_.assign(v.vis, v.vis + count);
    held_view_.vis = held_residuals_.data();
  }
  std::complex<float>* residual = held_residuals_.data();
  idg_for_blocks(count, host_threads_, [&](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) residual[i] -= predicted[i];
  });
}

void IdgEngine::subtract_held_model_points(const std::vector<IdgModelPoint>& points) {
  IdgImage& model = held_scratch_;
  size_image(model);
  idg_fill_zero(model.pixels.data(), model.pixels.size(), host_threads_);
  for (const IdgModelPoint& p : points) model.plane(p.pol)[p.index] = p.value;
  subtract_held_model(model);
}

void IdgEngine::grid_held_real_plane(int pol, std::vector<float>& plane) {
  IdgImage& image = held_scratch_;
  size_image(image);
  grid_held_image(false, image);
  const std::complex<float>* from = image.plane(pol);
  idg_for_blocks(plane.size(), host_threads_, [&](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) plane[i] = from[i].real();
  });
}

void IdgEngine::release_held_visibilities() {
  held_plan_ = IdgPlan{};
  held_view_ = IdgVisibilities{};
  held_residuals_ = {};
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
