// The folding kernel: one block per (chunk of one part, subband), bins accumulated in shared
// memory and added to the cube once per block.
#include "fold_kernels.hpp"

#include "../cuda/cuda_check.hpp"
#include "../cuda/dynamic_shared_memory.hpp"

namespace rapt::cuda {
namespace {

constexpr int kThreads = 256;

// The CPU engine's phase, with the same rounding (no fused multiply-adds), so both engines
// put every sample's span at the same place.
__device__ inline double phase_at(const FoldKernelLayout& l, double t) {
  const double inner = __dadd_rn(__ddiv_rn(l.fdot, 2.0), __ddiv_rn(__dmul_rn(t, l.fddot), 6.0));
  return __dmul_rn(t, __dadd_rn(l.f_hz, __dmul_rn(t, inner)));
}

__global__ void fold_chunks_kernel(const float* block, size_t stride, const FoldChunk* chunks,
                                   FoldKernelLayout layout, double* sums, double* weights,
                                   double* data_sum, double* data_sumsq) {
  extern __shared__ double shared[];
  double* profile = shared;                  // [nbins]
  double* shares = shared + layout.nbins;    // [nbins], sub 0 only
  double* moments = shares + layout.nbins;   // [2]: sum, sum of squares
  const FoldChunk chunk = chunks[blockIdx.x];
  const int sub = blockIdx.y;
  const bool with_weights = sub == 0;
  for (int b = threadIdx.x; b < 2 * layout.nbins + 2; b += blockDim.x) shared[b] = 0.0;
  __syncthreads();
  const float* x = block + size_t(sub) * stride + chunk.offset;
  double local_sum = 0.0, local_sumsq = 0.0;
  const int nbins = layout.nbins;
  for (int64_t sample = chunk.first + threadIdx.x; sample < chunk.last; sample += blockDim.x) {
    const double value = x[sample - chunk.first];
    local_sum += value;
    local_sumsq += value * value;
    const double phase_lo = phase_at(layout, double(sample) * layout.dt_s);
    const double phase_hi = phase_at(layout, double(sample + 1) * layout.dt_s);
    const double span_bins = (phase_hi - phase_lo) * nbins;
    double pos = (phase_lo - floor(phase_lo)) * nbins;
    if (pos >= nbins) pos -= nbins;
    if (!(span_bins > 0.0)) {
      const int bin = min(int(pos), nbins - 1);
      atomicAdd(&profile[bin], value);
      if (with_weights) atomicAdd(&shares[bin], 1.0);
      continue;
    }
    const double end = pos + span_bins;
    while (pos < end) {
      const double bin_floor = floor(pos);
      const double next = fmin(bin_floor + 1.0, end);
      const int bin = int(fmod(bin_floor, double(nbins)));
      const double fraction = (next - pos) / span_bins;
      atomicAdd(&profile[bin], value * fraction);
      if (with_weights) atomicAdd(&shares[bin], fraction);
      pos = next;
    }
  }
  atomicAdd(&moments[0], local_sum);
  atomicAdd(&moments[1], local_sumsq);
  __syncthreads();
  const size_t cell = size_t(chunk.part) * layout.nsub + sub;
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
    atomicAdd(&sums[cell * nbins + b], profile[b]);
    if (with_weights) atomicAdd(&weights[size_t(chunk.part) * nbins + b], shares[b]);
  }
  if (threadIdx.x == 0) {
    atomicAdd(&data_sum[cell], moments[0]);
    atomicAdd(&data_sumsq[cell], moments[1]);
  }
}

}  // namespace

void launch_fold_chunks(const float* block, size_t stride, const FoldChunk* chunks, int nchunks,
                        const FoldKernelLayout& layout, double* sums, double* weights,
                        double* data_sum, double* data_sumsq, cudaStream_t stream) {
  if (nchunks == 0) return;
  const size_t shared = (2 * size_t(layout.nbins) + 2) * sizeof(double);
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(fold_chunks_kernel),
                                    size_t(shared), "fold_chunks_kernel");
  const dim3 grid(unsigned(nchunks), unsigned(layout.nsub));
  fold_chunks_kernel<<<grid, kThreads, shared, stream>>>(block, stride, chunks, layout, sums,
                                                         weights, data_sum, data_sumsq);
  RAPT_CUDA_CHECK_LAUNCH("fold_chunks_kernel");
}

}  // namespace rapt::cuda
