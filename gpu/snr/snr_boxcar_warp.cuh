// The boxcar search kernel for PRESTO's default widths (1, 2, 3, 4, 6, 9, 14, 20, 30): one warp
// per chunk, no shared memory and no block barriers.
//
// Launch shape: blocks of kWarpBoxcarThreads (128) threads, as many as the device holds at once
// (launch_boxcar_search); the warps loop, grid-stride, over the (series, chunk) pairs. A chunk is
// 32 lanes x kWarpBoxcarLaneRun (16) consecutive samples of one series. Each lane loads its 16
// samples with four 16-byte loads (coalesced across the warp) and takes the 15 samples before
// and after them from its neighbours with one __shfl each; lanes 0 and 31 also load the 16
// samples after and before the chunk, which they send where a shuffle would wrap round (zeros
// outside the series, as in the tiled kernel). Each warp loads its next chunk before searching
// the current one, so loads stay in flight while it computes (128 registers, no spills: four
// blocks per SM).
//
// Each lane forms prefix sums over its own 46-sample window, so the sums stay local and float
// keeps them accurate; a box sum is one difference of two of them. Hits are rare, so a quick
// pass only asks whether any box sum of the lane reaches a slightly lowered threshold x sqrt(w)
// (a subtraction and a comparison per width and sample); only a lane where it does runs the
// exact test of the tiled kernel (sum x 1/sqrt(w) > threshold) and appends its hits.
//
// Why: the tiled kernel (snr_boxcar_kernels.cu) spends its time on block barriers and a
// shared-memory scan; here everything stays in registers and the warp only streams.
#pragma once
#include <cstdint>

#include "snr_boxcar_params.hpp"

namespace rapt::gpu {

constexpr int kWarpBoxcarThreads = 128;
constexpr int kWarpBoxcarLaneRun = 16;                        // consecutive samples per lane
constexpr int kWarpBoxcarChunk = 32 * kWarpBoxcarLaneRun;     // samples per warp iteration
constexpr int kWarpBoxcarHalf = 15;                           // half the widest box (30)
// A lane's window: window[m] is lane sample m - 15, m < kWarpBoxcarWindow.
constexpr int kWarpBoxcarWindow = kWarpBoxcarLaneRun + 2 * kWarpBoxcarHalf;
constexpr int kWarpBoxcarPrefix = kWarpBoxcarWindow + 1;
// Neighbouring lanes a window reaches on each side.
constexpr int kWarpBoxcarReach = (kWarpBoxcarHalf + kWarpBoxcarLaneRun - 1) / kWarpBoxcarLaneRun;

// kWarpBoxcarLaneRun samples from `first` on (zeros outside [0, length)): 16-byte loads where
// the row allows them, else one by one.
__device__ inline void load_run(const float* row, int64_t first, int64_t length, bool vector_ok,
                                  float (&out)[kWarpBoxcarLaneRun]) {
  if (vector_ok && first >= 0 && first + kWarpBoxcarLaneRun <= length) {
    const float4* v = reinterpret_cast<const float4*>(row + first);
#pragma unroll
    for (int q = 0; q < kWarpBoxcarLaneRun / 4; ++q) {
      const float4 f = __ldg(v + q);
      out[4 * q] = f.x, out[4 * q + 1] = f.y, out[4 * q + 2] = f.z, out[4 * q + 3] = f.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < kWarpBoxcarLaneRun; ++k) {
      const int64_t g = first + k;
      out[k] = (g >= 0 && g < length) ? __ldg(row + g) : 0.0f;
    }
  }
}

// Width `wi` of the default widths, as a constant the compiler can fold.
__device__ constexpr int warp_default_width(int wi) {
  return wi == 0 ? 1 : wi == 1 ? 2 : wi == 2 ? 3 : wi == 3 ? 4 : wi == 4 ? 6 : wi == 5 ? 9
       : wi == 6 ? 14 : wi == 7 ? 20 : 30;
}

// Box sum of width w centred as in the tiled kernel (samples j - w/2 .. j - w/2 + w - 1).
template <int W>
__device__ inline float lane_box_sum(const float (&pre)[kWarpBoxcarPrefix], int j) {
  const int start = kWarpBoxcarHalf + j - W / 2;
  return pre[start + W] - pre[start];
}

// True when some sample of this lane may be a hit (never false for a real hit).
__device__ inline bool lane_may_hit(const float (&pre)[kWarpBoxcarPrefix],
                                    const float (&window)[kWarpBoxcarWindow],
                                    const float (&sum_floor)[kNumDefaultBoxcarWidths]) {
  bool any = false;
#pragma unroll
  for (int j = 0; j < kWarpBoxcarLaneRun; ++j) {
    any |= window[kWarpBoxcarHalf + j] > sum_floor[0];
    any |= lane_box_sum<2>(pre, j) > sum_floor[1];
    any |= lane_box_sum<3>(pre, j) > sum_floor[2];
    any |= lane_box_sum<4>(pre, j) > sum_floor[3];
    any |= lane_box_sum<6>(pre, j) > sum_floor[4];
    any |= lane_box_sum<9>(pre, j) > sum_floor[5];
    any |= lane_box_sum<14>(pre, j) > sum_floor[6];
    any |= lane_box_sum<20>(pre, j) > sum_floor[7];
    any |= lane_box_sum<30>(pre, j) > sum_floor[8];
  }
  return any;
}

// The exact test of the tiled kernel (sum x 1/sqrt(w) > threshold) for this lane's samples.
// Rare, so it is kept small and off the fast path's registers: it reloads the lane's window
// (from cache) and forms the same prefix sums in the same order, so the sums are bit-identical
// to those lane_may_hit tested; the loops stay rolled over a local array.
template <typename Emit>
__device__ inline void lane_emit_hits(const BoxcarKernelParams& p, int series, const float* row,
                                      int64_t first, Emit& emit) {
  float sums[kWarpBoxcarPrefix];
  sums[0] = 0.0f;
#pragma unroll 1
  for (int m = 0; m < kWarpBoxcarWindow; ++m) {
    const int64_t g = first - kWarpBoxcarHalf + m;
    sums[m + 1] = sums[m] + ((g >= 0 && g < p.length) ? row[g] : 0.0f);
  }
#pragma unroll 1
  for (int j = 0; j < kWarpBoxcarLaneRun; ++j) {
    const int64_t g = first + j;
    if (g >= p.length) break;
    const float single = row[g];
    if (single > p.threshold) emit(p.first_series + series, 0, g, single);
#pragma unroll 1
    for (int wi = 1; wi < kNumDefaultBoxcarWidths; ++wi) {
      const int w = warp_default_width(wi);
      const int start = kWarpBoxcarHalf + j - w / 2;
      const float value = (sums[start + w] - sums[start]) * p.scales[wi];
      if (value > p.threshold) emit(p.first_series + series, wi, g, value);
    }
  }
}

// Per width, a box-sum level below which sum x scale cannot exceed the threshold: the exact
// threshold x sqrt(w), lowered by a margin far wider than float rounding.
__device__ inline void warp_sum_floors(const BoxcarKernelParams& p,
                                       float (&sum_floor)[kNumDefaultBoxcarWidths]) {
  sum_floor[0] = p.threshold;
#pragma unroll
  for (int wi = 1; wi < kNumDefaultBoxcarWidths; ++wi) {
    const float level = p.threshold / p.scales[wi];
    sum_floor[wi] = level - 1e-4f * fabsf(level) - 1e-30f;
  }
}

// One warp's chunk: which series, where it starts, and this lane's samples in registers.
struct WarpChunk {
  int series;
  int64_t start;
  float own[kWarpBoxcarLaneRun];   // this lane's samples
  float halo[kWarpBoxcarLaneRun];  // the edge lanes' runs outside the chunk (see below)
};

__device__ inline void load_chunk(const BoxcarKernelParams& p, int64_t item, int64_t chunks,
                                  int lane, bool vector_ok, WarpChunk& c) {
  c.series = int(item / chunks);
  c.start = (item - int64_t(c.series) * chunks) * kWarpBoxcarChunk;
  const float* row = p.series + int64_t(c.series) * boxcar_row_stride(p);
  load_run(row, c.start + int64_t(lane) * kWarpBoxcarLaneRun, p.length, vector_ok, c.own);
  // The chunk's halo, in the lanes whose values a wrapped shuffle would otherwise deliver:
  // the last kWarpBoxcarReach lanes hold the runs before the chunk, the first ones those after.
  if (lane < kWarpBoxcarReach || lane >= 32 - kWarpBoxcarReach) {
    const int64_t halo_first =
        lane < kWarpBoxcarReach
            ? c.start + kWarpBoxcarChunk + int64_t(lane) * kWarpBoxcarLaneRun
            : c.start - int64_t(32 - lane) * kWarpBoxcarLaneRun;
    load_run(row, halo_first, p.length, vector_ok, c.halo);
  }
}

// Every sample and width of the chunk: the window from the neighbours, its prefix sums, the
// quick test, and the exact one where the quick one fires.
template <typename Emit>
__device__ inline void search_chunk(const BoxcarKernelParams& p, int lane, const WarpChunk& c,
                                    const float (&sum_floor)[kNumDefaultBoxcarWidths],
                                    Emit& emit) {
  constexpr unsigned kAll = 0xffffffffu;
  float window[kWarpBoxcarWindow];
#pragma unroll
  for (int m = 0; m < kWarpBoxcarWindow; ++m) {
    const int offset = m - kWarpBoxcarHalf;  // from this lane's first sample
    const int d = offset < 0 ? -((-offset + kWarpBoxcarLaneRun - 1) / kWarpBoxcarLaneRun)
                             : offset / kWarpBoxcarLaneRun;  // lanes away
    const int k = offset - d * kWarpBoxcarLaneRun;
    if (d == 0) {
      window[m] = c.own[k];
    } else {
      // A lane whose value would reach another only by wrapping round sends the halo instead.
      const bool wraps = d < 0 ? lane >= 32 + d : lane < d;
      window[m] = __shfl_sync(kAll, wraps ? c.halo[k] : c.own[k], (lane + d) & 31);
    }
  }
  float pre[kWarpBoxcarPrefix];
  pre[0] = 0.0f;
#pragma unroll
  for (int m = 0; m < kWarpBoxcarWindow; ++m) pre[m + 1] = pre[m] + window[m];
  if (lane_may_hit(pre, window, sum_floor)) {
    const float* row = p.series + int64_t(c.series) * boxcar_row_stride(p);
    lane_emit_hits(p, c.series, row, c.start + int64_t(lane) * kWarpBoxcarLaneRun, emit);
  }
}

// Each warp loads its next chunk before searching the current one, so its loads stay in
// flight while it computes.
template <typename Emit>
__global__ void __launch_bounds__(kWarpBoxcarThreads)
    boxcar_default_widths_kernel(BoxcarKernelParams p, Emit emit) {
  const int lane = threadIdx.x & 31;
  const int64_t chunks = (p.length + kWarpBoxcarChunk - 1) / kWarpBoxcarChunk;
  const int64_t items = chunks * p.num_series;
  const int64_t warps = int64_t(gridDim.x) * (kWarpBoxcarThreads / 32);
  const bool vector_ok =
      (reinterpret_cast<uintptr_t>(p.series) % 16 == 0) && (boxcar_row_stride(p) % 4 == 0);
  float sum_floor[kNumDefaultBoxcarWidths];
  warp_sum_floors(p, sum_floor);

  int64_t item = int64_t(blockIdx.x) * (kWarpBoxcarThreads / 32) + threadIdx.x / 32;
  if (item >= items) return;
  WarpChunk next{};  // zeros: the middle lanes' halo is never loaded, only carried
  load_chunk(p, item, chunks, lane, vector_ok, next);
  for (; item < items; item += warps) {
    const WarpChunk current = next;
    if (item + warps < items) load_chunk(p, item + warps, chunks, lane, vector_ok, next);
    search_chunk(p, lane, current, sum_floor, emit);
  }
}

}  // namespace rapt::gpu
