// Batched (r, z) maximisation: block b runs rz_optimise's two simplex passes (rz_optimise_core.hpp)
// from start b. Every thread runs the simplex itself on the same broadcast objective values, so
// all take the same branches and no vertex needs sharing; only the objective is split up.
//
// An evaluation of sum_n |A_n|^2 / norm_n splits each harmonic's bins between a group of warps
// (all sixteen warps for one harmonic, one warp each for sixteen or more harmonics), each lane
// striding through the bins; warps reduce their complex partial sums by shuffles, and thread 0
// adds the groups' partial sums in a fixed order. Shared memory holds one complex value per warp,
// whatever the kernel's half-width (up to ~700 bins for |z| 1200): bins are looped over, not
// stored.
#include "accel/rz_interp_core.hpp"
#include "accel/rz_optimise_core.hpp"
#include "accel_optimise_kernels.hpp"
#include "../cuda/cuda_check.hpp"

namespace rapt::cuda {
namespace {

using fdotmath::Complex;

constexpr int kThreads = 512;
constexpr int kWarpSize = 32;
constexpr int kWarps = kThreads / kWarpSize;

struct BlockObjective {
  const float* spectrum;
  int64_t numbins;
  int numharm;
  const double* norms;  // this start's numharm norms
  const int* halfwidth;
  int evaluations;
  double (*partial)[2];  // shared [kWarps][2]
  double* result;        // shared, one value

  __device__ Complex warp_sum(int harmonic, const double p[2], int member, int group_warps) const {
    const fdotmath::RzSum s = fdotmath::rz_sum_setup(numbins, p[0] * harmonic,
                                                     p[1] * fdotmath::kRzZScale * harmonic,
                                                     *halfwidth);
    const int lane = threadIdx.x % kWarpSize;
    Complex sum{0.0, 0.0};
    if (s.kind == fdotmath::RzSumKind::SingleBin) {
      if (member == 0 && lane == 0) sum = {spectrum[2 * s.first], spectrum[2 * s.first + 1]};
    } else if (s.kind != fdotmath::RzSumKind::Zero) {
      const int stride = group_warps * kWarpSize;
      for (int64_t k = s.first + member * kWarpSize + lane; k <= s.last; k += stride) {
        sum = sum + fdotmath::rz_sum_term(s, spectrum, k);
      }
    }
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
      sum.re += __shfl_down_sync(0xffffffffu, sum.re, offset);
      sum.im += __shfl_down_sync(0xffffffffu, sum.im, offset);
    }
    return sum;
  }

  // Called by every thread of the block with the same point; returns -sum_n |A_n|^2 / norm_n.
  __device__ double operator()(const double p[2]) {
    ++evaluations;
    const int warp = threadIdx.x / kWarpSize;
    const int group_warps = numharm >= kWarps ? 1 : kWarps / numharm;
    const int groups = kWarps / group_warps;
    const int group = warp / group_warps;
    const int member = warp % group_warps;
    double total = 0.0;  // meaningful in thread 0
    for (int first = 1; first <= numharm; first += groups) {
      const int harmonic = first + group;
      const bool active = group < groups && harmonic <= numharm;
      Complex sum{0.0, 0.0};
      if (active) sum = warp_sum(harmonic, p, member, group_warps);
      if (threadIdx.x % kWarpSize == 0) {
        partial[warp][0] = sum.re;
        partial[warp][1] = sum.im;
      }
      __syncthreads();
      if (threadIdx.x == 0) {
        for (int g = 0; g < groups && first + g <= numharm; ++g) {
          Complex a{0.0, 0.0};
          for (int m = 0; m < group_warps; ++m) {
            a = a + Complex{partial[g * group_warps + m][0], partial[g * group_warps + m][1]};
          }
          total += fdotmath::norm(a) / norms[first + g - 1];
        }
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) *result = -total;
    __syncthreads();
    return *result;
  }
};

__global__ void __launch_bounds__(kThreads)
    rz_maximise_kernel(const float* spectrum, int64_t numbins, const RzDeviceStart* starts,
                       const double* norms, RzDeviceResult* results) {
  __shared__ double partial[kWarps][2];
  __shared__ double result;
  const RzDeviceStart start = starts[blockIdx.x];
  int halfwidth = 0;
  BlockObjective f{spectrum, numbins, start.numharm, norms + start.norms_first, &halfwidth, 0,
                   partial, &result};
  fdotmath::SimplexState s;
  fdotmath::run_rz_passes(f, halfwidth, start.r, start.z, start.numharm, s);
  if (threadIdx.x == 0) {
    RzDeviceResult out;
    out.r = s.points[0][0];
    out.z = s.points[0][1] * fdotmath::kRzZScale;
    out.value = -s.values[0];
    out.evaluations = f.evaluations;
    out.halfwidth = halfwidth;
    results[blockIdx.x] = out;
  }
}

}  // namespace

void launch_rz_maximise(const float* spectrum, int64_t numbins, const RzDeviceStart* starts,
                        int nstarts, const double* norms, RzDeviceResult* results,
                        cudaStream_t stream) {
  if (nstarts <= 0) return;
  rz_maximise_kernel<<<nstarts, kThreads, 0, stream>>>(spectrum, numbins, starts, norms, results);
  RAPT_CUDA_CHECK_LAUNCH("rz_maximise_kernel");
}

}  // namespace rapt::cuda
