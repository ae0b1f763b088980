#include "accel/plane_builder.hpp"

#include <fftw3.h>

#include <cmath>

#include "accel/fdot_kernels.hpp"
#include "accel/half_power.hpp"
#include "accel/plane_segments.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

// Per-thread FFTW buffers.
struct Workspace {
  explicit Workspace(int fftlen)
      : half(fftwf_alloc_complex(size_t(fftlen / 2))),
        spectrum(fftwf_alloc_complex(size_t(fftlen))),
        product(fftwf_alloc_complex(size_t(fftlen))) {}
  ~Workspace() {
    fftwf_free(half);
    fftwf_free(spectrum);
    fftwf_free(product);
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  fftwf_complex* half;
  fftwf_complex* spectrum;
  fftwf_complex* product;
};

struct Plans {
  Plans(int fftlen, Workspace& scratch) {
    forward_half = fftwf_plan_dft_1d(fftlen / 2, scratch.half, scratch.half, FFTW_FORWARD,
                                     FFTW_ESTIMATE);
    inverse = fftwf_plan_dft_1d(fftlen, scratch.product, scratch.product, FFTW_BACKWARD,
                                FFTW_ESTIMATE);
  }
  ~Plans() {
    fftwf_destroy_plan(forward_half);
    fftwf_destroy_plan(inverse);
  }
  Plans(const Plans&) = delete;
  Plans& operator=(const Plans&) = delete;
  fftwf_plan forward_half;
  fftwf_plan inverse;
};

// The spectrum of the half-bin spread amplitudes. Spreading puts amplitude m at point 2m with
// zeros between, whose length-L FFT is the length-L/2 FFT of the amplitudes repeated twice.
void segment_spectrum(const std::vector<std::complex<float>>& spectrum, const AccelPlan& plan,
                      const PlaneSegment& segment, const Plans& plans, Workspace& work) {
  const int half = plan.fftlen / 2;
  auto* amplitudes = reinterpret_cast<std::complex<float>*>(work.half);
  load_segment_amplitudes(spectrum, plan, segment, amplitudes);
  fftwf_execute_dft(plans.forward_half, work.half, work.half);
  for (int k = 0; k < plan.fftlen; ++k) {
    work.spectrum[k][0] = work.half[k % half][0];
    work.spectrum[k][1] = work.half[k % half][1];
  }
}

void correlate_segment(const std::vector<std::complex<float>>& spectrum, const AccelPlan& plan,
                       const FdotKernelBank& kernels, const PlaneSegment& segment,
                       const Plans& plans, Workspace& work, FfdotPlane& plane) {
  segment_spectrum(spectrum, plan, segment, plans, work);
  const int n = plan.fftlen;
  const float scale = 1.0f / (float(n) * float(n));
  const int offset = kAccelNumBetween * plan.kernel_halfwidth;
  for (int row = 0; row < plan.numz; ++row) {
    const std::complex<float>* kernel = kernels.row(row);
    for (int k = 0; k < n; ++k) {
      const float dr = work.spectrum[k][0], di = work.spectrum[k][1];
      const float kr = kernel[k].real(), ki = kernel[k].imag();
      work.product[k][0] = dr * kr - di * ki;
      work.product[k][1] = dr * ki + di * kr;
    }
    fftwf_execute_dft(plans.inverse, work.product, work.product);
    float* out = plane.row(row) + segment.first_column;
    const int64_t count = std::min<int64_t>(plan.uselen, plane.columns - segment.first_column);
    for (int64_t i = 0; i < count; ++i) {
      const float re = work.product[i + offset][0], im = work.product[i + offset][1];
      out[i] = (re * re + im * im) * scale;
    }
    if (plan.options.plane_precision == PlanePrecision::Float16) {
      for (int64_t i = 0; i < count; ++i) out[i] = half_precision_power(out[i]);
    }
  }
}

// harmsum's fast path: powers at whole bins and interbins, no correlation. The interbin
// amplitude between bins k and k + 1 is (A_k - A_k+1) / sqrt(2), not the two-bin
// interpolation's (pi/4)(A_k - A_k+1): in noise the difference of two independent unit-mean
// amplitudes has power 2, so this scale gives the interbins unit mean as the whole bins have
// (with pi/4 their mean would be 1.23, and sigmas computed for unit-mean powers would overstate
// every interbin's). A signal half-way between the bins keeps 8/pi^2 = 81 % of its power; one
// at 0.29 bin from a bin, the worst place, 75 % (whole bins alone keep 41 % half-way).
void interbin_segment(const std::vector<std::complex<float>>& spectrum, const AccelPlan& plan,
                      const PlaneSegment& segment, Workspace& work, FfdotPlane& plane) {
  auto* amplitudes = reinterpret_cast<std::complex<float>*>(work.half);
  load_segment_amplitudes(spectrum, plan, segment, amplitudes);
  const int64_t first = plan.kernel_halfwidth;  // amplitude index of the first good column
  const int64_t count = std::min<int64_t>(plan.uselen, plane.columns - segment.first_column);
  float* out = plane.row(0) + segment.first_column;
  constexpr float kInterbinScale = 0.70710678f;  // 1 / sqrt(2)
  for (int64_t i = 0; i < count; ++i) {
    const int64_t k = first + i / 2;
    if (i % 2 == 0) {
      out[i] = std::norm(amplitudes[k]);
    } else {
      out[i] = std::norm(kInterbinScale * (amplitudes[k] - amplitudes[k + 1]));
    }
  }
  if (plan.options.plane_precision == PlanePrecision::Float16) {
    for (int64_t i = 0; i < count; ++i) out[i] = half_precision_power(out[i]);
  }
}

}  // namespace

FfdotPlane build_ffdot_plane_cpu(const std::vector<std::complex<float>>& spectrum,
                                 const AccelPlan& plan, int threads) {
  FfdotPlane plane(plan.numz, plan.plane_columns());
  const std::vector<PlaneSegment> segments = plane_build_segments(plan);
  // Warm-up segments can overlap the first search segments; build them first, in order, so
  // the search segments' values win as in PRESTO.
  const size_t nwarmup = plan.warmup_segment_starts().size();
  std::vector<std::unique_ptr<Workspace>> workspaces;
  for (int t = 0; t < std::max(threads, 1); ++t) {
    workspaces.push_back(std::make_unique<Workspace>(plan.fftlen));
  }
  const Plans plans(plan.fftlen, *workspaces[0]);
  const bool interbin = plan.options.plane_mode == PlaneMode::Interbin;
  const FdotKernelBank kernels = interbin ? FdotKernelBank{} : make_fdot_kernel_bank(plan);
  auto build = [&](size_t index, int worker) {
    Workspace& work = *workspaces[size_t(worker)];
    if (interbin) {
      interbin_segment(spectrum, plan, segments[index], work, plane);
    } else {
      correlate_segment(spectrum, plan, kernels, segments[index], plans, work, plane);
    }
  };
  parallel_for(threads, nwarmup, [&](size_t i, int worker) { build(i, worker); });
  parallel_for(threads, segments.size() - nwarmup,
               [&](size_t i, int worker) { build(nwarmup + i, worker); });
  return plane;
}

}  // namespace rapt
