// The per-thread work of the dedispersion kernels, written once for the device and for the host
// emulation (gpu/dedisp/dedisp_emulation.cu) that runs the same code thread by thread on the CPU, so the
// index arithmetic is tested on machines without a GPU. Included by .cu files only.
//
// Tiled kernel, per thread block and per stage of channels_per_stage channels:
//   1. staging: each warp copies one channel's input window [t0 + lo, t0 + T + hi) into shared
//      memory (lo/hi: smallest/largest delay of the block's DMs for that channel). 8-bit rows
//      are staged as four copies shifted by 0..3 bytes, so that the four consecutive samples a
//      thread needs for any delay are one aligned 32-bit word;
//   2. one barrier; the stage buffers alternate, so the next staging needs no second barrier;
//   3. summing: each thread adds the stage's channels into its (time x DM) sums in registers.
// 8-bit sums: a word of four samples is split into two words of two 16-bit lanes (bytes 0, 2
// and bytes 1, 3) and added lane-wise; after 256 channels (255 * 256 < 2^16) the lanes are
// moved into 32-bit totals. Integer sums are exact, so the channel order does not matter.
// Float sums: added in ascending channel order, the CPU engine's order.
//
// Cost model (per SM and clock; a warp instruction covers 32 lanes): shared memory serves one
// conflict-free 32-bit load instruction per clock and the schedulers issue four instructions.
// Float: one load and one add per (output, channel), so at most 32 adds per clock (load-bound):
// on an H100 (132 SMs, ~1.75 GHz) 2048 DMs x 1024 channels x 20,000 samples take >= 5.7 ms.
// 8-bit: one load, AND, PRMT and two adds per four (output, channel) pairs, about 100 adds per
// clock (issue-bound), so >= ~1.8 ms for the same work. Staging costs one pass over the window
// (four stores per word for 8-bit) per channel and block, shared by the block's DMs.
#pragma once
#include <cstddef>
#include <cstdint>

#include "dedisp_kernel_params.hpp"
#include "dedisp_tile_config.hpp"
#include "../cuda/loop_unroll.hpp"

#ifdef __CUDACC__
#define RAPT_HD __host__ __device__ __forceinline__
#else
#define RAPT_HD inline
#endif


namespace rapt::gpu {

// A read through the read-only data cache on the device (__ldg has overloads for every sample
// and table type used here); a plain read in the CPU emulation.
template <typename T>
RAPT_HD T load_readonly(const T* p) {
#ifdef __CUDA_ARCH__
  return __ldg(p);
#else
  return *p;
#endif
}

// Bytes [bytes, bytes + 4) of the 8-byte little-endian value hi:lo (bytes = 0..3).
RAPT_HD uint32_t shift_right_bytes(uint32_t lo, uint32_t hi, int bytes) {
#ifdef __CUDA_ARCH__
  return __funnelshift_r(lo, hi, 8 * bytes);
#else
  return uint32_t(((uint64_t(hi) << 32) | lo) >> (8 * bytes));
#endif
}

RAPT_HD int min_int(int a, int b) { return a < b ? a : b; }

// Bytes 1 and 3 of v moved to bytes 0 and 2, zeros between: one PRMT on the device.
RAPT_HD uint32_t odd_bytes(uint32_t v) {
#ifdef __CUDA_ARCH__
  return __byte_perm(v, 0u, 0x4341);
#else
  return (v >> 8) & 0x00FF00FFu;
#endif
}

// The 32-bit word `byte_offset` bytes after p (shared memory; the offset is a multiple of 4).
RAPT_HD uint32_t word_at(const uint32_t* p, int32_t byte_offset) {
  return *reinterpret_cast<const uint32_t*>(reinterpret_cast<const char*>(p) + byte_offset);
}
RAPT_HD float float_at(const float* p, int32_t byte_offset) {
  return *reinterpret_cast<const float*>(reinterpret_cast<const char*>(p) + byte_offset);
}

// ---- Unpacking -----------------------------------------------------------------------------

// Sample of channel c in spectrum s: packed unsigned LSB-first, or the bits of a float32.
RAPT_HD uint32_t raw_sample(const UnpackParams& p, size_t s, int c) {
  if (p.nbits == 32)
    return load_readonly(reinterpret_cast<const uint32_t*>(p.raw + s * p.spectrum_bytes) + c);
  const size_t bit = size_t(c) * size_t(p.nbits);
  const uint32_t byte = load_readonly(p.raw + s * p.spectrum_bytes + bit / 8);
  return (byte >> (bit % 8)) & ((1u << p.nbits) - 1u);
}

using UnpackTile = uint32_t[kUnpackTile][kUnpackTile + 1];

// Thread (tx, ty) of the block for spectra [s0, s0 + 32) and rows [k0, k0 + 32): reads along
// channels (coalesced), so tile[spectrum][row].
RAPT_HD void unpack_load(const UnpackParams& p, UnpackTile& tile, int tx, int ty, size_t s0,
                         int k0) {
  for (int r = 0; r < kUnpackTile; r += kUnpackRowsPerPass) {
    const size_t s = s0 + size_t(ty + r);
    const int k = k0 + tx;
    uint32_t v = 0;
    if (s < p.nspectra && k < p.nactive) v = raw_sample(p, s, load_readonly(p.active_channels + k));
    tile[ty + r][tx] = v;
  }
}

// Writes along time (coalesced).
RAPT_HD void unpack_store(const UnpackParams& p, const UnpackTile& tile, int tx, int ty, size_t s0,
                          int k0) {
  for (int r = 0; r < kUnpackTile; r += kUnpackRowsPerPass) {
    const int k = k0 + ty + r;
    const size_t s = s0 + size_t(tx);
    if (k >= p.nactive || s >= p.nspectra) continue;
    const uint32_t v = tile[tx][ty + r];
    if (p.nbits == 32)
      static_cast<uint32_t*>(p.rows)[size_t(k) * p.row_stride + s] = v;
    else
      static_cast<uint8_t*>(p.rows)[size_t(k) * p.row_stride + s] = uint8_t(v);
  }
}

// ---- Tiled kernel --------------------------------------------------------------------------

struct ThreadPos {
  int tid;
  int nthreads;
  int lane;
  int warp;
  int nwarps;
  int warp_time;
  int warp_dm;
  size_t t0;     // first output sample of the block's tile
  int block_dm;  // DM block within the launch
};

RAPT_HD ThreadPos tiled_thread_pos(const TiledParams& p, int tid, int nthreads, unsigned block_x,
                                   unsigned block_y) {
  ThreadPos pos;
  pos.tid = tid;
  pos.nthreads = nthreads;
  pos.lane = tid % kWarpSize;
  pos.warp = tid / kWarpSize;
  pos.nwarps = nthreads / kWarpSize;
  pos.warp_time = pos.warp % p.warps_time;
  pos.warp_dm = pos.warp / p.warps_time;
  pos.t0 = size_t(block_x) * size_t(p.samples_per_block);
  pos.block_dm = int(block_y);
  return pos;
}

RAPT_HD int tiled_stage_count(const TiledParams& p) {
  return (p.nactive + p.channels_per_stage - 1) / p.channels_per_stage;
}
RAPT_HD int tiled_stage_channels(const TiledParams& p, int stage) {
  return min_int(p.channels_per_stage, p.nactive - stage * p.channels_per_stage);
}
// 8-bit lanes hold at most 256 channels of 255.
RAPT_HD bool tiled_flush_due(const TiledParams& p, int stage) {
  return ((stage + 1) * p.channels_per_stage) % 256 == 0;
}

// The stage's DM offsets: [slot][DM of the block].
RAPT_HD void stage_offsets(const TiledParams& p, uint32_t* stage, int index, const ThreadPos& pos) {
  const int k0 = index * p.channels_per_stage;
  const int n = tiled_stage_channels(p, index) * p.dms_per_block;
  const size_t block = size_t(p.first_dm_block + pos.block_dm);
  const int32_t* src = p.stage_offsets + (block * size_t(p.nactive) + size_t(k0)) * p.dms_per_block;
  int32_t* dst = reinterpret_cast<int32_t*>(stage + p.offsets_at);
  for (int i = pos.tid; i < n; i += pos.nthreads) dst[i] = load_readonly(src + i);
}

// One warp per channel slot; copy s of a slot holds window bytes [4w + s, 4w + s + 4) in word w.
RAPT_HD void stage_u8(const TiledParams& p, uint32_t* stage, int index, const ThreadPos& pos) {
  const int k0 = index * p.channels_per_stage;
  const int nslots = tiled_stage_channels(p, index);
  const size_t block = size_t(p.first_dm_block + pos.block_dm);
  const size_t row_words = p.row_stride / 4;
  for (int slot_index = pos.warp; slot_index < nslots; slot_index += pos.nwarps) {
    const int k = k0 + slot_index;
    const size_t at = block * size_t(p.nactive) + size_t(k);
    const size_t first = pos.t0 + size_t(load_readonly(p.window_start + at));
    const int words = load_readonly(p.window_words + at);
    const uint32_t* row = static_cast<const uint32_t*>(p.rows) + size_t(k) * row_words;
    const size_t a0 = first / 4;
    const int shift = int(first % 4);
    uint32_t* slot = stage + size_t(slot_index) * p.slot_words;
    for (int w = pos.lane; w < words; w += kWarpSize) {
      const size_t a = a0 + size_t(w);
      const uint32_t x0 = a < row_words ? load_readonly(row + a) : 0u;
      const uint32_t x1 = a + 1 < row_words ? load_readonly(row + a + 1) : 0u;
      const uint32_t x2 = a + 2 < row_words ? load_readonly(row + a + 2) : 0u;
      RAPT_UNROLL
      for (int s = 0; s < 4; ++s) {
        const int b = shift + s;
        slot[s * p.window_capacity + w] =
            b < 4 ? shift_right_bytes(x0, x1, b) : shift_right_bytes(x1, x2, b - 4);
      }
    }
  }
  stage_offsets(p, stage, index, pos);
}

RAPT_HD void stage_f32(const TiledParams& p, uint32_t* stage, int index, const ThreadPos& pos) {
  const int k0 = index * p.channels_per_stage;
  const int nslots = tiled_stage_channels(p, index);
  const size_t block = size_t(p.first_dm_block + pos.block_dm);
  for (int slot_index = pos.warp; slot_index < nslots; slot_index += pos.nwarps) {
    const int k = k0 + slot_index;
    const size_t at = block * size_t(p.nactive) + size_t(k);
    const size_t first = pos.t0 + size_t(load_readonly(p.window_start + at));
    const int words = load_readonly(p.window_words + at);
    const float* row = static_cast<const float*>(p.rows) + size_t(k) * p.row_stride;
    float* slot = reinterpret_cast<float*>(stage + size_t(slot_index) * p.slot_words);
    for (int w = pos.lane; w < words; w += kWarpSize) {
      const size_t i = first + size_t(w);
      slot[w] = i < p.row_stride ? load_readonly(row + i) : 0.0f;
    }
  }
  stage_offsets(p, stage, index, pos);
}

// The ND offsets of one channel slot for this thread's DMs (vector loads on the device).
template <int ND>
RAPT_HD void load_dm_offsets(const int32_t* src, int32_t (&o)[ND]) {
#ifdef __CUDA_ARCH__
  if constexpr (ND % 4 == 0) {
#pragma unroll
    for (int j = 0; j < ND; j += 4) {
      const int4 v = *reinterpret_cast<const int4*>(src + j);
      o[j] = v.x, o[j + 1] = v.y, o[j + 2] = v.z, o[j + 3] = v.w;
    }
  } else if constexpr (ND % 2 == 0) {
#pragma unroll
    for (int j = 0; j < ND; j += 2) {
      const int2 v = *reinterpret_cast<const int2*>(src + j);
      o[j] = v.x, o[j + 1] = v.y;
    }
  } else {
#pragma unroll
    for (int j = 0; j < ND; ++j) o[j] = src[j];
  }
#else
  for (int j = 0; j < ND; ++j) o[j] = src[j];
#endif
}

// Four consecutive outputs t..t+3 of one row; the tail of the launch is written sample by sample.
RAPT_HD void store_quad(const TiledParams& p, int row, size_t t, const uint32_t (&v)[4]) {
  const size_t at = size_t(row) * p.out_stride + t;
  const bool whole = t + 4 <= p.nsamp;
  if (p.out_u32) {
    uint32_t* dst = static_cast<uint32_t*>(p.out) + at;
#ifdef __CUDA_ARCH__
    if (whole) {
      *reinterpret_cast<uint4*>(dst) = make_uint4(v[0], v[1], v[2], v[3]);
      return;
    }
#endif
    for (int e = 0; e < 4; ++e)
      if (t + size_t(e) < p.nsamp) dst[e] = v[e];
  } else {
    float* dst = static_cast<float*>(p.out) + at;
#ifdef __CUDA_ARCH__
    if (whole) {
      *reinterpret_cast<float4*>(dst) =
          make_float4(float(v[0]), float(v[1]), float(v[2]), float(v[3]));
      return;
    }
#endif
    for (int e = 0; e < 4; ++e)
      if (t + size_t(e) < p.nsamp) dst[e] = float(v[e]);
  }
  (void)whole;
}

// Sums of one thread for 8-bit rows: NQ words of four samples (lanes 32 apart) x ND DMs.
template <int NQ, int ND>
struct U8Sums {
  static constexpr DedispSampleKind kind = DedispSampleKind::u8;
  uint32_t even[ND][NQ];  // 16-bit lanes: samples 0 and 2 of the word
  uint32_t odd[ND][NQ];   // samples 1 and 3
  uint32_t total[ND][NQ][4];

  RAPT_HD void clear() {
    RAPT_UNROLL
    for (int j = 0; j < ND; ++j) {
      RAPT_UNROLL
      for (int i = 0; i < NQ; ++i) {
        even[j][i] = odd[j][i] = 0;
        total[j][i][0] = total[j][i][1] = total[j][i][2] = total[j][i][3] = 0;
      }
    }
  }

  RAPT_HD void stage(const TiledParams& p, uint32_t* buffer, int index,
                     const ThreadPos& pos) const {
    stage_u8(p, buffer, index, pos);
  }

  RAPT_HD void add(const TiledParams& p, const uint32_t* buffer, int nslots, const ThreadPos& pos) {
    const int32_t* offsets =
        reinterpret_cast<const int32_t*>(buffer + p.offsets_at) + pos.warp_dm * ND;
    const uint32_t* base = buffer + pos.warp_time * (kWarpSize * NQ) + pos.lane;
    RAPT_UNROLL_2
    for (int slot = 0; slot < nslots; ++slot) {
      int32_t o[ND];
      load_dm_offsets<ND>(offsets + slot * p.dms_per_block, o);
      const uint32_t* words = base + size_t(slot) * p.slot_words;
      RAPT_UNROLL
      for (int j = 0; j < ND; ++j) {
        RAPT_UNROLL
        for (int i = 0; i < NQ; ++i) {
          const uint32_t v = word_at(words, o[j] + 4 * kWarpSize * i);
          even[j][i] += v & 0x00FF00FFu;
          odd[j][i] += odd_bytes(v);
        }
      }
    }
  }

  RAPT_HD void flush() {
    RAPT_UNROLL
    for (int j = 0; j < ND; ++j) {
      RAPT_UNROLL
      for (int i = 0; i < NQ; ++i) {
        total[j][i][0] += even[j][i] & 0xFFFFu;
        total[j][i][2] += even[j][i] >> 16;
        total[j][i][1] += odd[j][i] & 0xFFFFu;
        total[j][i][3] += odd[j][i] >> 16;
        even[j][i] = odd[j][i] = 0;
      }
    }
  }

  RAPT_HD void store(const TiledParams& p, const ThreadPos& pos) const {
    RAPT_UNROLL
    for (int j = 0; j < ND; ++j) {
      const int row = pos.block_dm * p.dms_per_block + pos.warp_dm * ND + j;
      if (row >= p.ndm) continue;
      RAPT_UNROLL
      for (int i = 0; i < NQ; ++i) {
        const size_t word = size_t(pos.warp_time * kWarpSize * NQ + kWarpSize * i + pos.lane);
        store_quad(p, row, pos.t0 + 4 * word, total[j][i]);
      }
    }
  }
};

// Sums of one thread for float rows: NT samples (lanes 32 apart) x ND DMs.
template <int NT, int ND>
struct F32Sums {
  static constexpr DedispSampleKind kind = DedispSampleKind::f32;
  float sum[ND][NT];

  RAPT_HD void clear() {
    RAPT_UNROLL
    for (int j = 0; j < ND; ++j) {
      RAPT_UNROLL
      for (int i = 0; i < NT; ++i) sum[j][i] = 0.0f;
    }
  }

  RAPT_HD void stage(const TiledParams& p, uint32_t* buffer, int index,
                     const ThreadPos& pos) const {
    stage_f32(p, buffer, index, pos);
  }

  RAPT_HD void add(const TiledParams& p, const uint32_t* buffer, int nslots, const ThreadPos& pos) {
    const int32_t* offsets =
        reinterpret_cast<const int32_t*>(buffer + p.offsets_at) + pos.warp_dm * ND;
    const float* base =
        reinterpret_cast<const float*>(buffer) + pos.warp_time * (kWarpSize * NT) + pos.lane;
    RAPT_UNROLL_2
    for (int slot = 0; slot < nslots; ++slot) {
      int32_t o[ND];
      load_dm_offsets<ND>(offsets + slot * p.dms_per_block, o);
      const float* samples = base + size_t(slot) * p.slot_words;
      RAPT_UNROLL
      for (int j = 0; j < ND; ++j) {
        RAPT_UNROLL
        for (int i = 0; i < NT; ++i) sum[j][i] += float_at(samples, o[j] + 4 * kWarpSize * i);
      }
    }
  }

  RAPT_HD void flush() {}

  RAPT_HD void store(const TiledParams& p, const ThreadPos& pos) const {
    float* out = static_cast<float*>(p.out);
    RAPT_UNROLL
    for (int j = 0; j < ND; ++j) {
      const int row = pos.block_dm * p.dms_per_block + pos.warp_dm * ND + j;
      if (row >= p.ndm) continue;
      RAPT_UNROLL
      for (int i = 0; i < NT; ++i) {
        const size_t t = pos.t0 + size_t(pos.warp_time * kWarpSize * NT + kWarpSize * i + pos.lane);
        if (t < p.nsamp) out[size_t(row) * p.out_stride + t] = sum[j][i];
      }
    }
  }
};

// ---- Direct kernel and downsampling ---------------------------------------------------------

RAPT_HD void direct_output(const DirectParams& p, size_t t, int row) {
  const int32_t* delays = p.delays + size_t(p.first_dm + row) * size_t(p.nactive);
  const size_t at = size_t(row) * p.out_stride + t;
  if (p.rows_u8) {
    const uint8_t* rows = static_cast<const uint8_t*>(p.rows);
    uint32_t sum = 0;
    for (int k = 0; k < p.nactive; ++k)
      sum += load_readonly(rows + size_t(k) * p.row_stride + t + size_t(load_readonly(delays + k)));
    if (p.out_u32)
      static_cast<uint32_t*>(p.out)[at] = sum;
    else
      static_cast<float*>(p.out)[at] = float(sum);
  } else {
    const float* rows = static_cast<const float*>(p.rows);
    float sum = 0.0f;
    for (int k = 0; k < p.nactive; ++k)
      sum += load_readonly(rows + size_t(k) * p.row_stride + t + size_t(load_readonly(delays + k)));
    static_cast<float*>(p.out)[at] = sum;
  }
}

RAPT_HD void downsample_output(const DownsampleParams& p, int row, size_t k) {
  const size_t first = size_t(row) * p.full_stride + k * size_t(p.downsamp);
  float value;
  if (p.full_u32) {
    const uint32_t* full = static_cast<const uint32_t*>(p.full) + first;
    uint64_t sum = 0;
    for (int i = 0; i < p.downsamp; ++i) sum += full[i];
    value = float(sum);
  } else {
    const float* full = static_cast<const float*>(p.full) + first;
    float sum = 0.0f;
    for (int i = 0; i < p.downsamp; ++i) sum += full[i];
    value = sum;
  }
  p.out[size_t(row) * p.out_stride + k] = value;
}

}  // namespace rapt::gpu
