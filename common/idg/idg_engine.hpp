// Image-domain gridding and degridding (digest 002 §2): one interface, a CPU engine (the
// reference: threads over subgrids, FFTW) and later a CUDA engine behind the same calls.
//
// What every engine computes, for the view `vis` and a plan made from it (idg_plan.hpp), with
// the image geometry of idg_settings.hpp (l = -(x - N/2) cell, m = (y - N/2) cell):
//   grid:   I_p(l, m) = sum_k w_kp V_kp exp(-2 pi i (u_k l + v_k m + w_k (n - 1)) nu_k / c)
//                       / sum_k w_kp
//           over the placed visibilities k, per polarisation p; the real part is the dirty
//           image in Jy/beam (rapt(7): V = S exp(+2 pi i (u l + v m + w (n - 1)) nu / c)).
//   psf:    the same with every V = 1.
//   degrid: V_kp = sum_(x, y) M_p(x, y) exp(+2 pi i (u_k l + v_k m + w_k (n - 1)) nu_k / c),
//           the exact adjoint of grid before its weighting and normalisation.
// IDG approximates these sums: subgrid DFTs with a prolate spheroidal taper, subgrid FFTs, the
// adder, grid FFTs, taper correction. The error grows towards the image edge, where the taper
// correction amplifies what the taper's spectrum leaks past the subgrid (its kink at the field
// edge). Measured with N-bar = 32, N_W = 9: dirty images within 1e-3 of the peak over the
// inner 80 % for sources within it; a point source's predicted visibilities within 3e-4 of
// its flux out to 70 % of the half-width, 1.5e-3 at 78 %, 5e-3 at 86 %, and exact to
// rounding on the subgrids' sample points (every N / N-bar pixels). Pad the image where more
// is needed. Pixels where the taper has fallen below 1e-6 (the outermost) are set to 0.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "idg/idg_plan.hpp"
#include "idg/idg_settings.hpp"

namespace rapt {

// Storage of image planes (hundreds of MB at N = 4096): resize() leaves new values unset, so
// an engine fills them once, on all its threads, rather than the allocating thread zeroing
// them first (the page faults of a fresh block then spread over the threads too);
// assign(n, value) and the other constructors set values as usual.
void* idg_pixel_allocate(size_t bytes);
template <typename T>
struct IdgPixelAllocator {
  static_assert(std::is_trivially_copyable_v<T>);
  using value_type = T;
  IdgPixelAllocator() = default;
  template <typename U>
  IdgPixelAllocator(const IdgPixelAllocator<U>&) noexcept {}
  T* allocate(size_t n) { return static_cast<T*>(idg_pixel_allocate(n * sizeof(T))); }
  void deallocate(T* p, size_t) noexcept { std::free(p); }
  template <typename U>
  void construct(U*) noexcept {}  // value left unset
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U>
  bool operator==(const IdgPixelAllocator<U>&) const noexcept { return true; }
  template <typename U>
  bool operator!=(const IdgPixelAllocator<U>&) const noexcept { return false; }
};
using IdgPixels = std::vector<std::complex<float>, IdgPixelAllocator<std::complex<float>>>;

// One complex image per polarisation, [pol][y][x], N x N, in the geometry above.
struct IdgImage {
  int npol = 0;
  int size = 0;
  IdgPixels pixels;
  // grid/psf: sum of the weights per polarisation the image was divided by (0: nothing
  // gridded, image left at zero).
  std::vector<double> weight_sum;

  std::complex<float>* plane(int pol) { return pixels.data() + size_t(pol) * size * size; }
  const std::complex<float>* plane(int pol) const {
    return pixels.data() + size_t(pol) * size * size;
  }
};

// A point of a model image: `value` at pixel index = y N + x of polarisation plane `pol`.
struct IdgModelPoint {
  int pol = 0;
  int64_t index = 0;
  std::complex<float> value;
};

class IdgEngine {
 public:
  virtual ~IdgEngine() = default;
  const IdgSettings& settings() const { return settings_; }
  virtual std::string name() const = 0;
  // Threads of the host's passes around the engine's own work (also a good count for
  // make_idg_plan).
  int host_threads() const { return host_threads_; }

  // Dirty image per polarisation, normalised by the sum of the weights. Throws UsageError
  // when the plan was made with other settings or `vis` does not fit it.
  IdgImage grid(const IdgPlan& plan, const IdgVisibilities& vis);
  // Point spread function: grid() with every visibility 1 (vis.vis is not read).
  IdgImage psf(const IdgPlan& plan, const IdgVisibilities& vis);
  // The same into `image`, whose memory is kept when it already holds npol planes of N x N: a
  // fresh image of a large grid costs page faults (hundreds of MB at N = 4096) that can
  // outweigh the gridding itself, so callers that grid repeatedly pass one image back in.
  void grid(const IdgPlan& plan, const IdgVisibilities& vis, IdgImage& image);
  void psf(const IdgPlan& plan, const IdgVisibilities& vis, IdgImage& image);
  // Predicted visibilities of `model` (npol planes of N x N, e.g. a CLEAN model in Jy per
  // pixel) into `predicted`, laid out [row][chan][product] like vis.vis (vis.products values
  // per row and channel; only the planned polarisations' products are written). Every value
  // the plan placed is written, flagged or not; others are set to 0.
  void degrid(const IdgPlan& plan, const IdgImage& model, const IdgVisibilities& vis,
              std::complex<float>* predicted);

  // Major cycles (CLEAN, self-calibration) on visibilities the engine holds where it works on
  // them, so that a cycle's gridding and prediction neither pack nor send nor unpack them
  // again (the GPU engine keeps them in device memory: digest 002 §11's I/O wall).
  // hold(): takes the plan (copied) and the view's placed values and weights, replacing what
  // was held. The view's arrays must stay alive and unchanged until release_held() or the
  // next hold(): an engine may read them again (the CPU engine grids from them in place).
  // Throws as grid() does, and DataError when the engine's memory cannot hold them; a hold
  // that throws leaves nothing held.
  void hold(const IdgPlan& plan, const IdgVisibilities& vis);
  bool holding() const { return holding_; }
  // grid() and psf() of the held visibilities (the residuals, after subtract_held). Throw
  // UsageError when nothing is held.
  void grid_held(IdgImage& image);
  void psf_held(IdgImage& image);
  // Held values V become V - degrid(model), the residuals of the model; what grid_held images
  // next. Subtracting two models in turn equals subtracting their sum (to rounding).
  void subtract_held(const IdgImage& model);
  // CLEAN's major cycle without whole images crossing to and from the engine:
  // subtract_held of the model that is zero but at `points` (points at one pixel add up, in
  // their order), and grid_held's real part of plane `pol` into `plane` (N x N, [y][x];
  // resized). Each computes what its whole-image call computes, in the same arithmetic.
  void subtract_held_points(const std::vector<IdgModelPoint>& points);
  void grid_held_real(int pol, std::vector<float>& plane);
  void release_held();

 protected:
  // `host_threads` (>= 1) run the host's passes over visibilities and images around the
  // engine's own work (weight sums, zeroing, normalisation; idg_host_passes.hpp).
  IdgEngine(const IdgSettings& settings, int host_threads);

 private:
  // Un-normalised image sum_k c_kp exp(-2 pi i ...) into `image` (npol x N x N allocated,
  // values unset: the engine sets every one), with c = w V, or c = w when `unit_visibilities`.
  // An engine that reads every planned weight may also set image.weight_sum (empty on entry)
  // to what idg_weight_sums gives, else it is worked out after; one that does may also divide
  // each plane p by it (by float(1 / weight_sum[p]) where that is not 0, as grid() would) and
  // return true. Returns false when the image is left un-normalised.
  virtual bool grid_image(const IdgPlan& plan, const IdgVisibilities& vis, bool unit_visibilities,
                          IdgImage& image) = 0;
  virtual void degrid_image(const IdgPlan& plan, const IdgImage& model,
                            const IdgVisibilities& vis, std::complex<float>* predicted) = 0;
  // The held visibilities' hooks. By default the engine keeps the view and the plan and runs
  // its ordinary calls on them; subtract_held then makes a copy of the values it changes.
  // An engine that keeps them elsewhere overrides all four; its grid_held_image gets an image
  // sized as grid_image's and sets every value, normalised, and weight_sum.
  virtual void hold_visibilities(const IdgPlan& plan, const IdgVisibilities& vis);
  virtual void grid_held_image(bool unit_visibilities, IdgImage& image);
  virtual void subtract_held_model(const IdgImage& model);
  virtual void release_held_visibilities();
  // By default these go through the hooks above with a whole image (kept between calls);
  // `points` holds one point per pixel and plane, checked.
  virtual void subtract_held_model_points(const std::vector<IdgModelPoint>& points);
  virtual void grid_held_real_plane(int pol, std::vector<float>& plane);
  void check(const IdgPlan& plan, const IdgVisibilities& vis) const;
  void check_model(const IdgImage& model) const;
  void check_holding(const char* call) const;
  void size_image(IdgImage& image) const;
  void grid_normalised(const IdgPlan& plan, const IdgVisibilities& vis, bool unit,
                       IdgImage& image);
  IdgSettings settings_;
  int host_threads_ = 1;
  bool holding_ = false;
  IdgPlan held_plan_;
  IdgVisibilities held_view_;
  // The default hooks' residual values, [row][chan][product] as the view's: empty until the
  // first subtract_held, then what held_view_.vis points at.
  std::vector<std::complex<float>> held_residuals_;
  IdgImage held_scratch_;  // the default point and real-plane hooks' whole image
};

// Make engines from one thread at a time (FFTW's planner is not thread-safe); a made engine's
// calls may run in any one thread. `threads` >= 1.
std::unique_ptr<IdgEngine> make_cpu_idg_engine(const IdgSettings& settings, int threads);
// Throws UsageError in a build without CUDA ("needs a build with CUDA").
std::unique_ptr<IdgEngine> make_gpu_idg_engine(const IdgSettings& settings, int gpu_index);

}  // namespace rapt
