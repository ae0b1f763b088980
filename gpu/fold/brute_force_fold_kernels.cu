// Brute-force folding on the GPU: every (DM, period) of a grid folded into a few bins, then its
// S/N (definitions: common/fold/brute_force_fold.hpp).
//
// Layout. A block takes kDms DMs and kThreads periods, one period per thread. The block's kDms
// series pass through shared memory in tiles of kTile samples, stored sample-major as float4
// (one sample of the kDms DMs), so that every thread reads the same float4 at the same time: a
// broadcast. Each sample is read from global memory once per block, and each tile is reused by
// kThreads periods. The next tile is loaded into registers while this one is folded: with 3
// blocks of 4 warps an SM, loads issued at the tile's start left every warp waiting on L2
// (a third of the kernel's time, by Nsight Compute's stall sampling). A thread follows its period's phase in 32-bit fixed point and adds the
// samples of a run (consecutive samples in one bin) into a float4 in registers; only when the
// bin changes is the run added to the thread's own histogram in shared memory ([bin][dm][thread]:
// conflict-free, no atomics). The histograms never leave the chip: the S/N is computed at the
// end from them, the per-DM moments and the per-period bin counts.
//
// Two ways through a tile, chosen per thread by its period:
// - Runs of at least kRunPathMin samples per bin (long periods: most of any grid that spans
//   decades): the block turns the tile into its prefix sums, so a run costs one shared read and
//   a subtraction wherever it ends, and the thread works out where it ends from its phase (the
//   next bin boundary over the step, in double, made exact with one integer check). The work
//   per period is then the number of bin changes, nsamples nbins / P, not nsamples.
// - Shorter runs: sample by sample (an integer add per sample for the phase, the bin from
//   __umulhi, a compare, 4 adds), since there a bin change is nearly every sample anyway; in a
//   block that also has threads on runs, each sample is a difference of two prefix sums.
//
// Estimate (H100 SXM: 132 SMs, 4 schedulers each, ~1.98 GHz boost), 2048 DMs x 2048 periods x
// 24,414 samples of the thesis grid (P = 1.6 ms + k x 1.3 ms, 39 to 65,000 samples): only the
// first ~4 periods fold sample by sample; the rest change bin 24,414 x 32 / P times, ~190,000
// runs per DM over the whole grid against 5e7 samples. The sample-by-sample threads of the first
// warp, ~10 instructions per sample for 4 folds plus their divergent flushes, bound each DM
// group's first block; loading and scanning the tiles (read from L2 once per period block, 3.2 GB
// in all) and the S/N are the rest. The short grid (P = 1.6 to 3.2 ms, a bin change every 1-3
// samples) takes the sample-by-sample way throughout: ~7 ms of issue, more with divergence.
#include <cstdint>

#include "brute_force_fold_kernels.hpp"
#include "../cuda/cuda_check.hpp"
#include "../cuda/dynamic_shared_memory.hpp"

namespace rapt::gpu {
namespace {

constexpr int kThreads = 128;   // periods per block
constexpr int kDms = 4;         // DMs per block (one float4)
constexpr int kTile = 512;      // samples per shared-memory tile
constexpr int kUnroll = 8;      // samples loaded into registers before they are binned
constexpr int kMaxBins = 64;    // kMaxBruteForceBins
constexpr int kReduceThreads = 256;
constexpr int kRunPathMin = 4;  // samples per bin from which a thread adds whole runs
constexpr int kWarps = kThreads / 32;
constexpr int kTilePerThread = kTile / kThreads;  // samples of a tile each thread loads
static_assert(kTile == 4 * kThreads, "prefix_tile gives each thread 4 samples");

// Shared memory of a fold block: the tile (data[1 + s] holds sample s; data[0] = 0), which a
// block with any thread on the run path turns into its prefix sums in place (data[i] = samples
// 0 .. i - 1), the warps' totals while scanning, the bin boundaries, the histograms. One array
// for both keeps a block at 73 KB with 32 bins, so that 3 fit an SM.
struct FoldShared {
  float4* data;        // [kTile + 1]
  float4* totals;      // [kWarps]
  uint64_t* boundary;  // [nbins + 1]: the first phase of bin b, ceil(b 2^32 / nbins)
  float* hist;         // [nbins][kDms][kThreads]
};

size_t fold_shared_bytes(int nbins) {
  return sizeof(float4) * (kTile + 1 + kWarps) + sizeof(uint64_t) * size_t(nbins + 1) +
         sizeof(float) * size_t(nbins) * kDms * kThreads;
}

__device__ FoldShared fold_shared(float4* shared, int nbins) {
  FoldShared f;
  f.data = shared;
  f.totals = f.data + kTile + 1;
  f.boundary = reinterpret_cast<uint64_t*>(f.totals + kWarps);
  f.hist = reinterpret_cast<float*>(f.boundary + nbins + 1);
  return f;
}

__device__ __forceinline__ float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__device__ __forceinline__ float4 operator-(float4 a, float4 b) {
  return make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
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

// The tile's samples data[1 .. kTile] become their prefix sums in place, by the whole block:
// each thread scans its own 4 samples, the warps scan their threads' totals, the block adds the
// warps' before it.
__device__ void prefix_tile(const FoldShared& f) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, first = 1 + threadIdx.x * 4;
  float4 partial[4];
  float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
  for (int u = 0; u < 4; ++u) partial[u] = sum = sum + f.data[first + u];
  float4 scan = sum;  // inclusive over the warp's threads
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const float4 up = make_float4(__shfl_up_sync(0xffffffffu, scan.x, offset),
                                  __shfl_up_sync(0xffffffffu, scan.y, offset),
                                  __shfl_up_sync(0xffffffffu, scan.z, offset),
                                  __shfl_up_sync(0xffffffffu, scan.w, offset));
    if (lane >= offset) scan = scan + up;
  }
  if (lane == 31) f.totals[warp] = scan;
  __syncthreads();
  float4 before = scan - sum;
  for (int w = 0; w < warp; ++w) before = before + f.totals[w];
#pragma unroll
  for (int u = 0; u < 4; ++u) f.data[first + u] = before + partial[u];
}

// The tile's runs for a period of at least kRunPathMin samples per bin: from the sample at `pos`
// (phase `phase`, in bin `current`) the run ends where the phase reaches the next bin's
// boundary; its sum is a difference of prefix sums. A run that goes past the tile's end stays
// open in `run` for the next tile.
__device__ __forceinline__ void fold_tile_runs(const FoldShared& f, int len, uint32_t step,
                                               double inverse_step, int nbins, uint32_t& phase,
                                               int& current, float4& run) {
  const float4* prefix = f.data;
  int pos = 0;
  float4 at = prefix[0];
  while (true) {
    // Samples from pos that stay in bin `current`: the least k with phase + k step >= boundary.
    const uint64_t gap = f.boundary[current + 1] - uint64_t(phase);
    uint64_t k = uint64_t(ceil(double(gap) * inverse_step));
    if (k * step < gap)
      ++k;
    else if (k > 1 && (k - 1) * step >= gap)
      --k;
    if (k > uint64_t(len - pos)) {
      run = run + (prefix[len] - at);
      phase += step * uint32_t(len - pos);
      return;
    }
    pos += int(k);
    const float4 next = prefix[pos];
    run = run + (next - at);
    at = next;
    phase += step * uint32_t(k);
    flush_run(f.hist, current, run);
    current = int(__umulhi(phase, uint32_t(nbins)));
  }
}

// The tile's samples in order, from data[1 ..] or, where the block turned the tile into prefix
// sums, as their differences; kUnroll of them go to registers first so that the loads need not
// wait behind the (possibly aliasing) histogram stores.
template <bool FromPrefix>
__device__ __forceinline__ void fold_tile(const float4* data, int len, uint32_t step, int nbins,
                                          float* hist, uint32_t& phase, int& current,
                                          float4& run) {
  auto sample = [&](int s) { return FromPrefix ? data[s + 1] - data[s] : data[s + 1]; };
  int s = 0;
  for (; s + kUnroll <= len; s += kUnroll) {
    float4 v[kUnroll];
    if (FromPrefix) {
      float4 w[kUnroll + 1];
#pragma unroll
      for (int u = 0; u <= kUnroll; ++u) w[u] = data[s + u];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) v[u] = w[u + 1] - w[u];
    } else {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) v[u] = data[s + u + 1];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) fold_sample(v[u], step, nbins, hist, phase, current, run);
  }
  for (; s < len; ++s) fold_sample(sample(s), step, nbins, hist, phase, current, run);
}

// This thread's samples of the tile that starts at `first` (threadIdx.x + i kThreads, for each
// of the block's DMs), as they are in the series; zeros past its end and for DMs past the last
// (whose mean is 0).
__device__ __forceinline__ void load_tile(const BruteForceFoldParams& p, int dm0, int64_t first,
                                          float (&ahead)[kTilePerThread][kDms]) {
#pragma unroll
  for (int d = 0; d < kDms; ++d) {
    const bool have = dm0 + d < p.ndm;
    const float* row = p.series + size_t(have ? dm0 + d : 0) * size_t(p.nsamples);
#pragma unroll
    for (int i = 0; i < kTilePerThread; ++i) {
      const int64_t s = first + threadIdx.x + i * kThreads;
      ahead[i][d] = have && s < p.nsamples ? __ldg(row + s) : 0.f;
    }
  }
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

__global__ void __launch_bounds__(kThreads, 3) brute_force_fold_kernel(BruteForceFoldParams p,
                                                                    const double* means) {
  extern __shared__ float4 shared[];
  const FoldShared f = fold_shared(shared, p.nbins);
  float* hist = f.hist;
  const int period = blockIdx.x * kThreads + threadIdx.x;
  const int dm0 = blockIdx.y * kDms;
  const bool active = period < p.nperiods;
  const uint32_t step = active ? p.steps[period] : 0u;
  // The next tile's samples wait in registers while this tile is folded, so that their global
  // loads are in flight during the fold instead of stalling every warp at the tile's start.
  float ahead[kTilePerThread][kDms];
  load_tile(p, dm0, 0, ahead);
  // Whole runs where a bin holds kRunPathMin samples or more: step nbins kRunPathMin <= 2^32.
  const bool by_runs = active && uint64_t(step) * uint64_t(p.nbins) * kRunPathMin <= (uint64_t(1) << 32);
  const double inverse_step = step > 0 ? 1.0 / double(step) : 0.0;
  for (int i = 0; i < p.nbins * kDms; ++i) hist[i * kThreads + threadIdx.x] = 0.f;
  for (int b = threadIdx.x; b <= p.nbins; b += kThreads)
    f.boundary[b] = ((uint64_t(b) << 32) + uint64_t(p.nbins) - 1) / uint64_t(p.nbins);
  if (threadIdx.x == 0) f.data[0] = make_float4(0.f, 0.f, 0.f, 0.f);
  // Prefix sums only where some thread of the block adds whole runs.
  const bool scan = __syncthreads_or(by_runs);
  double mean[kDms];
#pragma unroll
  for (int d = 0; d < kDms; ++d) mean[d] = dm0 + d < p.ndm ? means[dm0 + d] : 0.0;
  uint32_t phase = 0;
  int current = 0;
  float4 run = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int64_t first = 0; first < p.nsamples; first += kTile) {
    const int len = int(min(int64_t(kTile), p.nsamples - first));
    __syncthreads();  // every thread is done with the previous tile
#pragma unroll
    for (int i = 0; i < kTilePerThread; ++i) {
      float4 v;
      v.x = float(double(ahead[i][0]) - mean[0]);
      v.y = float(double(ahead[i][1]) - mean[1]);
      v.z = float(double(ahead[i][2]) - mean[2]);
      v.w = float(double(ahead[i][3]) - mean[3]);
      const int s = threadIdx.x + i * kThreads;
      f.data[1 + s] = s < len ? v : make_float4(0.f, 0.f, 0.f, 0.f);
    }
    if (first + kTile < p.nsamples) load_tile(p, dm0, first + kTile, ahead);
    __syncthreads();
    if (scan) {
      prefix_tile(f);
      __syncthreads();
    }
    if (by_runs)
      fold_tile_runs(f, len, step, inverse_step, p.nbins, phase, current, run);
    else if (active && scan)
      fold_tile<true>(f.data, len, step, p.nbins, hist, phase, current, run);
    else if (active)
      fold_tile<false>(f.data, len, step, p.nbins, hist, phase, current, run);
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
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(brute_force_fold_kernel),
                                    size_t(shared), "brute_force_fold_kernel");
  const dim3 grid(unsigned((p.nperiods + kThreads - 1) / kThreads),
                  unsigned((p.ndm + kDms - 1) / kDms));
  brute_force_fold_kernel<<<grid, kThreads, shared, stream>>>(p, means);
  RAPT_CUDA_CHECK_LAUNCH("brute_force_fold_kernel");
}

}  // namespace rapt::gpu
