// Brute-force folding on the GPU: every (DM, period) of a grid folded into a few bins, then its
// S/N (definitions: common/fold/brute_force_fold.hpp).
//
// Layout. A block takes kDms DMs and kThreads periods, one period per thread. The block's kDms
// series pass through shared memory in tiles of kTile samples, stored sample-major as float4
// (one sample of the kDms DMs), so that every thread reads the same float4 at the same time: a
// broadcast, one shared-memory wavefront per warp for 32 periods x 4 DMs = 128 folds. Each
// sample is read from global memory once per block, and each tile is reused by kThreads
// periods. A thread follows its period's phase in 32-bit fixed point (an integer add per
// sample, the bin from __umulhi) and adds the sample into a float4 running sum in registers;
// only when the bin changes is the run added to the thread's own histogram in shared memory
// ([bin][dm][thread]: conflict-free, no atomics). The histograms never leave the chip: the S/N
// is computed at the end from them, the per-DM moments and the per-period bin counts.
//
// Estimate (H100 SXM: 132 SMs, 4 schedulers each, ~1.98 GHz boost). 2048 DMs x 2048 periods x
// 24,414 samples = 1.02e11 folds. Per sample a thread issues ~9.5 instructions for its 4 folds
// (LDS.128, IMAD.HI for the bin, compare and branch, 4 FADD, the phase add, 1/8 of the loop):
// 1.02e11 / 128 folds per warp-sample x 9.5 = 7.6e9 warp instructions; at 4 per clock per SM,
// 132 x 4 x 1.98e9 = 1.05e12 per second, so ~7 ms. Shared-memory reads: 1.02e11 / 128 = 8e8
// warp loads at one per clock per SM = 3 ms, hidden under the issue rate. The FP32 adds alone
// (the floor of any method that adds every sample once per fold) take 1.02e11 / (132 x 128 x
// 1.98e9) = 3 ms. Global memory: each series is read once per period group of 128 (16 times
// for 2048 periods), 3.2 GB, mostly from L2 since the period groups of a DM group are adjacent
// in launch order: < 1 ms. Flushes cost ~12 instructions and happen nbins / P times per sample
// (P in samples): negligible for P >> nbins, and about 2x the time at the shortest allowed
// period (P = nbins samples). Target: <= 20 ms for the 2048 x 2048 x 32 one-second case.
#include <cstdint>

#include "brute_force_fold_kernels.hpp"
#include "../cuda/cuda_check.hpp"

namespace rapt::gpu {
namespace {

constexpr int kThreads = 128;   // periods per block
constexpr int kDms = 4;         // DMs per block (one float4)
constexpr int kTile = 512;      // samples per shared-memory tile
constexpr int kUnroll = 8;      // samples loaded into registers before they are binned
constexpr int kMaxBins = 64;    // kMaxBruteForceBins
constexpr int kReduceThreads = 256;

size_t fold_shared_bytes(int nbins) {
  return sizeof(float4) * kTile + sizeof(float) * size_t(nbins) * kDms * kThreads;
}

// Adds the run to the thread's histogram row for `bin` and clears it.
__device__ __forceinline__ void flush_run(float* hist, int bin, float4& run) {
  float* h = hist + bin * (kDms * kThreads) + threadIdx.x;
  h[0] += run.x;
  h[kThreads] += run.y;
  h[2 * kThreads] += run.z;
  h[3 * kThreads] += run.w;
  run = make_float4(0.f, 0.f, 0.f, 0.f);
}

__device__ __forceinline__ void fold_sample(const float4 v, uint32_t step, int nbins, float* hist,
                                            uint32_t& phase, int& current, float4& run) {
  const int bin = int(__umulhi(phase, uint32_t(nbins)));
  if (bin != current) {
    flush_run(hist, current, run);
    current = bin;
  }
  run.x += v.x;
  run.y += v.y;
  run.z += v.z;
  run.w += v.w;
  phase += step;
}

// The tile's samples in order; kUnroll of them go to registers first so that the loads need
// not wait behind the (possibly aliasing) histogram stores.
__device__ __forceinline__ void fold_tile(const float4* tile, int len, uint32_t step, int nbins,
                                          float* hist, uint32_t& phase, int& current,
                                          float4& run) {
  int s = 0;
  for (; s + kUnroll <= len; s += kUnroll) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = tile[s + u];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) fold_sample(v[u], step, nbins, hist, phase, current, run);
  }
  for (; s < len; ++s) fold_sample(tile[s], step, nbins, hist, phase, current, run);
}

// S/N of the thread's kDms profiles (brute_force_fold.hpp's definition).
__device__ void write_snr(const BruteForceFoldParams& p, const float* hist, int dm0, int period) {
  const int* counts = p.counts + size_t(period) * size_t(p.nbins);
#pragma unroll
  for (int d = 0; d < kDms; ++d) {
    if (dm0 + d >= p.ndm) break;
    const float sigma = p.sigmas[dm0 + d];
    float best = -3.0e38f, total = 0.f;
    int filled = 0;
    for (int b = 0; b < p.nbins; ++b) {
      const int c = counts[b];
      if (c <= 0) continue;
      const float z = hist[(b * kDms + d) * kThreads + threadIdx.x] * rsqrtf(float(c)) / sigma;
      best = fmaxf(best, z);
      total += z;
      ++filled;
    }
    p.snr[size_t(dm0 + d) * size_t(p.nperiods) + size_t(period)] =
        (sigma > 0.f && filled >= 2) ? best - total / float(filled) : 0.f;
  }
}

__global__ void __launch_bounds__(kThreads) brute_force_fold_kernel(BruteForceFoldParams p,
                                                                    const double* means) {
  extern __shared__ float4 shared[];
  float4* tile = shared;
  float* hist = reinterpret_cast<float*>(shared + kTile);
  const int period = blockIdx.x * kThreads + threadIdx.x;
  const int dm0 = blockIdx.y * kDms;
  const bool active = period < p.nperiods;
  const uint32_t step = active ? p.steps[period] : 0u;
  for (int i = 0; i < p.nbins * kDms; ++i) hist[i * kThreads + threadIdx.x] = 0.f;
  double mean[kDms];
#pragma unroll
  for (int d = 0; d < kDms; ++d) mean[d] = dm0 + d < p.ndm ? means[dm0 + d] : 0.0;
  uint32_t phase = 0;
  int current = 0;
  float4 run = make_float4(0.f, 0.f, 0.f, 0.f);
  float* tile_words = reinterpret_cast<float*>(tile);
  for (int64_t first = 0; first < p.nsamples; first += kTile) {
    const int len = int(min(int64_t(kTile), p.nsamples - first));
    __syncthreads();  // every thread is done with the previous tile
#pragma unroll
    for (int d = 0; d < kDms; ++d) {
      const bool have = dm0 + d < p.ndm;
      const float* row = p.series + size_t(have ? dm0 + d : 0) * size_t(p.nsamples) + first;
      for (int s = threadIdx.x; s < kTile; s += kThreads)
        tile_words[s * kDms + d] = have && s < len ? float(double(__ldg(row + s)) - mean[d]) : 0.f;
    }
    __syncthreads();
    if (active) fold_tile(tile, len, step, p.nbins, hist, phase, current, run);
  }
  if (!active) return;
  flush_run(hist, current, run);
  write_snr(p, hist, dm0, period);
}

// One block per period; each thread counts a contiguous stretch of samples run by run.
__global__ void __launch_bounds__(kReduceThreads) bin_counts_kernel(const uint32_t* steps,
                                                                    int64_t nsamples, int nbins,
                                                                    int* counts) {
  __shared__ int block_counts[kMaxBins];
  for (int b = threadIdx.x; b < nbins; b += kReduceThreads) block_counts[b] = 0;
  __syncthreads();
  const uint32_t step = steps[blockIdx.x];
  const int64_t stretch = (nsamples + kReduceThreads - 1) / kReduceThreads;
  const int64_t begin = min(nsamples, stretch * threadIdx.x);
  const int64_t end = min(nsamples, begin + stretch);
  uint32_t phase = uint32_t(uint64_t(begin) * step);
  int current = -1, run = 0;
  for (int64_t n = begin; n < end; ++n, phase += step) {
    const int bin = int(__umulhi(phase, uint32_t(nbins)));
    if (bin != current) {
      if (run > 0) atomicAdd(&block_counts[current], run);
      current = bin;
      run = 0;
    }
    ++run;
  }
  if (run > 0) atomicAdd(&block_counts[current], run);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += kReduceThreads)
    counts[size_t(blockIdx.x) * size_t(nbins) + size_t(b)] = block_counts[b];
}

// One block per series: sums about the first sample, in double.
__global__ void __launch_bounds__(kReduceThreads) series_moments_kernel(const float* series,
                                                                        int64_t nsamples,
                                                                        double* means,
                                                                        float* sigmas) {
  __shared__ double sums[kReduceThreads], squares[kReduceThreads];
  const float* x = series + size_t(blockIdx.x) * size_t(nsamples);
  const double origin = x[0];
  double s = 0.0, s2 = 0.0;
  for (int64_t n = threadIdx.x; n < nsamples; n += kReduceThreads) {
    const double d = double(x[n]) - origin;
    s += d;
    s2 += d * d;
  }
  sums[threadIdx.x] = s;
  squares[threadIdx.x] = s2;
  __syncthreads();
  for (int half = kReduceThreads / 2; half > 0; half /= 2) {
    if (int(threadIdx.x) < half) {
      sums[threadIdx.x] += sums[threadIdx.x + half];
      squares[threadIdx.x] += squares[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const double mean = sums[0] / double(nsamples);
    means[blockIdx.x] = origin + mean;
    sigmas[blockIdx.x] = float(sqrt(fmax(0.0, squares[0] / double(nsamples) - mean * mean)));
  }
}

}  // namespace

void launch_series_moments(const float* series, int ndm, int64_t nsamples, double* means,
                           float* sigmas, cudaStream_t stream) {
  series_moments_kernel<<<unsigned(ndm), kReduceThreads, 0, stream>>>(series, nsamples, means,
                                                                      sigmas);
  RAPT_CUDA_CHECK_LAUNCH("series_moments_kernel");
}

void launch_bin_counts(const uint32_t* steps, int nperiods, int64_t nsamples, int nbins,
                       int* counts, cudaStream_t stream) {
  bin_counts_kernel<<<unsigned(nperiods), kReduceThreads, 0, stream>>>(steps, nsamples, nbins,
                                                                       counts);
  RAPT_CUDA_CHECK_LAUNCH("bin_counts_kernel");
}

void launch_brute_force_fold(const BruteForceFoldParams& p, const double* means,
                             cudaStream_t stream) {
  const size_t shared = fold_shared_bytes(p.nbins);
  RAPT_CUDA_CHECK(cudaFuncSetAttribute(brute_force_fold_kernel,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  const dim3 grid(unsigned((p.nperiods + kThreads - 1) / kThreads),
                  unsigned((p.ndm + kDms - 1) / kDms));
  brute_force_fold_kernel<<<grid, kThreads, shared, stream>>>(p, means);
  RAPT_CUDA_CHECK_LAUNCH("brute_force_fold_kernel");
}

}  // namespace rapt::gpu
