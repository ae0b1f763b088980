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
#include <memory>
#include <string>
#include <vector>

#include "idg/idg_plan.hpp"
#include "idg/idg_settings.hpp"

namespace rapt {

// One complex image per polarisation, [pol][y][x], N x N, in the geometry above.
struct IdgImage {
  int npol = 0;
  int size = 0;
  std::vector<std::complex<float>> pixels;
  // grid/psf: sum of the weights per polarisation the image was divided by (0: nothing
  // gridded, image left at zero).
  std::vector<double> weight_sum;

  std::complex<float>* plane(int pol) { return pixels.data() + size_t(pol) * size * size; }
  const std::complex<float>* plane(int pol) const {
    return pixels.data() + size_t(pol) * size * size;
  }
};

class IdgEngine {
 public:
  virtual ~IdgEngine() = default;
  const IdgSettings& settings() const { return settings_; }
  virtual std::string name() const = 0;

  // Dirty image per polarisation, normalised by the sum of the weights. Throws UsageError
  // when the plan was made with other settings or `vis` does not fit it.
  IdgImage grid(const IdgPlan& plan, const IdgVisibilities& vis);
  // Point spread function: grid() with every visibility 1 (vis.vis is not read).
  IdgImage psf(const IdgPlan& plan, const IdgVisibilities& vis);
  // Predicted visibilities of `model` (npol planes of N x N, e.g. a CLEAN model in Jy per
  // pixel) into `predicted`, laid out [row][chan][product] like vis.vis (vis.products values
  // per row and channel; only the planned polarisations' products are written). Every value
  // the plan placed is written, flagged or not; others are set to 0.
  void degrid(const IdgPlan& plan, const IdgImage& model, const IdgVisibilities& vis,
              std::complex<float>* predicted);

 protected:
  explicit IdgEngine(const IdgSettings& settings);

 private:
  // Un-normalised image sum_k c_kp exp(-2 pi i ...) into `image` (zeroed, npol x N x N), with
  // c = w V, or c = w when `unit_visibilities`.
  virtual void grid_image(const IdgPlan& plan, const IdgVisibilities& vis, bool unit_visibilities,
                          IdgImage& image) = 0;
  virtual void degrid_image(const IdgPlan& plan, const IdgImage& model,
                            const IdgVisibilities& vis, std::complex<float>* predicted) = 0;
  void check(const IdgPlan& plan, const IdgVisibilities& vis) const;
  IdgImage grid_normalised(const IdgPlan& plan, const IdgVisibilities& vis, bool unit);
  IdgSettings settings_;
};

// Make engines from one thread at a time (FFTW's planner is not thread-safe); a made engine's
// calls may run in any one thread. `threads` >= 1.
std::unique_ptr<IdgEngine> make_cpu_idg_engine(const IdgSettings& settings, int threads);
// Throws UsageError in a build without CUDA ("needs a build with CUDA").
std::unique_ptr<IdgEngine> make_gpu_idg_engine(const IdgSettings& settings, int gpu_index);

}  // namespace rapt
