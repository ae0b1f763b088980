// The boxcar search kernel's per-thread code, shared by the kernel (snr_boxcar_kernels.cu) and
// its CPU emulation (snr_boxcar_emulation.cpp), so the tests check the kernel's index
// arithmetic on machines without a GPU. Each function is one phase between two barriers;
// `tid` is the thread, kBoxcarThreads threads per block.
//
// A block searches kBoxcarTile samples of one series: it loads them with max_width/2 samples
// before and the rest of max_width after (zeros outside the series), forms their prefix sums
// (per-thread segments, then a Hillis-Steele scan of the segment totals), and takes one
// difference of two prefix sums per sample and width. The sums are local to the tile, so float
// keeps them accurate.
#pragma once
#include <cstdint>

#include "../cuda/loop_unroll.hpp"  // the register path needs constant indices: unrolled loops
#include "../cuda/random_words.hpp"  // RAPT_HOST_DEVICE
#include "snr_boxcar_params.hpp"


namespace rapt::gpu {

RAPT_HOST_DEVICE inline int tile_span(int max_width) { return kBoxcarTile + max_width; }

RAPT_HOST_DEVICE inline int tile_segment(int span) {
  return (span + kBoxcarThreads - 1) / kBoxcarThreads;
}

// Phase 1: values[k] = sample tile_start - max_width/2 + k, or 0 outside the series.
RAPT_HOST_DEVICE inline void tile_load(const BoxcarKernelParams& p, int series, int64_t tile_start,
                                       int tid, float* values) {
  const float* x = p.series + int64_t(series) * boxcar_row_stride(p);
  const int64_t load_start = tile_start - p.max_width / 2;
  const int span = tile_span(p.max_width);
  for (int k = tid; k < span; k += kBoxcarThreads) {
    const int64_t g = load_start + k;
    values[k] = (g >= 0 && g < p.length) ? x[g] : 0.0f;
  }
}

// Phase 2: totals[tid] = the sum of this thread's segment.
RAPT_HOST_DEVICE inline void tile_segment_total(int max_width, int tid, const float* values,
                                                float* totals) {
  const int span = tile_span(max_width), segment = tile_segment(span);
  const int first = tid * segment;
  const int last = first + segment < span ? first + segment : span;
  float total = 0.0f;
  for (int k = first; k < last; ++k) total += values[k];
  totals[tid] = total;
}

// Phase 3, for d = 1, 2, 4, ..., 128: read then (after a barrier) add.
RAPT_HOST_DEVICE inline void tile_scan_read(int tid, int d, const float* totals, float* carry) {
  carry[tid] = tid >= d ? totals[tid - d] : 0.0f;
}
RAPT_HOST_DEVICE inline void tile_scan_add(int tid, float* totals, const float* carry) {
  totals[tid] += carry[tid];
}

// Phase 4: prefix[k + 1] = values[0] + ... + values[k] for this thread's segment; prefix[0] = 0.
RAPT_HOST_DEVICE inline void tile_prefix(int max_width, int tid, const float* values,
                                         const float* totals, float* prefix) {
  const int span = tile_span(max_width), segment = tile_segment(span);
  const int first = tid * segment;
  const int last = first + segment < span ? first + segment : span;
  float running = tid > 0 ? totals[tid - 1] : 0.0f;
  for (int k = first; k < last; ++k) {
    running += values[k];
    prefix[k + 1] = running;
  }
  if (tid == 0) prefix[0] = 0.0f;
}

// Width `wi` of kDefaultBoxcarWidths, as a constant the compiler can fold.
RAPT_HOST_DEVICE constexpr int default_boxcar_width(int wi) {
  return wi == 0 ? 1 : wi == 1 ? 2 : wi == 2 ? 3 : wi == 3 ? 4 : wi == 4 ? 6 : wi == 5 ? 9
       : wi == 6 ? 14 : wi == 7 ? 20 : 30;
}

// Phase 5, register path (p.default_widths, so max_width = 30): this thread's kBoxcarRun
// consecutive samples, from kBoxcarRun + 30 prefix sums read once into registers. Same values
// as tile_search_any_widths, in the same arithmetic.
template <typename Emit>
RAPT_HOST_DEVICE inline void tile_search_default_widths(const BoxcarKernelParams& p, int series,
                                                        int64_t tile_start, int tid,
                                                        const float* values,
                                                        const float* prefix, Emit& emit) {
  constexpr int kHalfMax = 15;
  constexpr int kCount = kBoxcarRun + 2 * kHalfMax;
  const int first = tid * kBoxcarRun;
  float sums[kCount];
  RAPT_UNROLL
  for (int k = 0; k < kCount; ++k) sums[k] = prefix[first + k];
  float scales[kNumDefaultBoxcarWidths];
  RAPT_UNROLL
  for (int wi = 0; wi < kNumDefaultBoxcarWidths; ++wi) scales[wi] = p.scales[wi];
  RAPT_UNROLL
  for (int j = 0; j < kBoxcarRun; ++j) {
    const int64_t g = tile_start + first + j;
    if (g < p.length) {
      const float single = values[first + j + kHalfMax];
      if (single > p.threshold) emit(p.first_series + series, 0, g, single);
      RAPT_UNROLL
      for (int wi = 1; wi < kNumDefaultBoxcarWidths; ++wi) {
        const int w = default_boxcar_width(wi);
        const int start = j + kHalfMax - w / 2;
        const float value = (sums[start + w] - sums[start]) * scales[wi];
        if (value > p.threshold) emit(p.first_series + series, wi, g, value);
      }
    }
  }
}

// Phase 5: every sample and width of the tile; emit(series, width_index, sample, value) for
// each value above the threshold.
template <typename Emit>
RAPT_HOST_DEVICE inline void tile_search_any_widths(const BoxcarKernelParams& p, int series,
                                         int64_t tile_start, int tid, const float* values,
                                         const float* prefix, Emit& emit) {
  const int half_max = p.max_width / 2;
  for (int i = tid; i < kBoxcarTile; i += kBoxcarThreads) {
    const int64_t g = tile_start + i;
    if (g >= p.length) break;
    for (int wi = 0; wi < p.num_widths; ++wi) {
      const int w = p.widths[wi];
      float value;
      if (w == 1) {
        value = values[i + half_max];
      } else {
        const int start = i + half_max - w / 2;
        value = (prefix[start + w] - prefix[start]) * p.scales[wi];
      }
      if (value > p.threshold) emit(p.first_series + series, wi, g, value);
    }
  }
}

template <typename Emit>
RAPT_HOST_DEVICE inline void tile_search(const BoxcarKernelParams& p, int series,
                                         int64_t tile_start, int tid, const float* values,
                                         const float* prefix, Emit& emit) {
  if (p.default_widths)
    tile_search_default_widths(p, series, tile_start, tid, values, prefix, emit);
  else
    tile_search_any_widths(p, series, tile_start, tid, values, prefix, emit);
}

}  // namespace rapt::gpu
