// The fp32 correlator on CUDA cores, register-tiled.
//
// A block (4 warps) owns a 64 x 64 tile of one channel's receiver matrix (tiles on or above the
// diagonal); each warp a 32 x 32 part of it; each thread 8 x 4 receiver pairs, 32 complex sums
// in registers, so every value read from shared memory feeds 4 or 8 complex multiply-adds.
// A lane's rows are ty + 4i and its columns tx + 8j (ty = lane / 8, tx = lane % 8): the 8 lanes
// of a row group read the same A value (a broadcast) and the 8 columns lie in 8 different banks,
// so each 16-byte read (two samples of one receiver) is one shared-memory wavefront.
// Rows are staged by cp.async, 16 samples a stage, several stages ahead. Tiles on the diagonal
// share their work out as fp32_correlate_kernel's DIAG says.
#include <cstdint>

#include "../cuda/cuda_check.hpp"
#include "../cuda/dynamic_shared_memory.hpp"
#include "corr_device.cuh"
#include "corr_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr int kTile = 64;
constexpr int kWarpTile = 32;
constexpr int kThreads = 128;

// SAMPLES per stage (a multiple of 16: rows of whole 128-byte lines), STAGES in flight,
// MIN_BLOCKS an SM must hold (the register budget follows).
template <int SAMPLES, int STAGES, int MIN_BLOCKS>
struct Fp32Config {
  static constexpr int kStageSamples = SAMPLES, kStages = STAGES, kMinBlocks = MIN_BLOCKS;
  // Rows padded by 16 bytes: consecutive rows start in consecutive 16-byte bank groups.
  static constexpr int kPitch = kStageSamples * 8 + 16;
  static constexpr int kRegionBytes = kTile * kPitch;
  static constexpr int kSmemBytes = kStages * 2 * kRegionBytes;
  static constexpr int kChunks = kStageSamples / 2;  // 16-byte chunks of a row's stage
};

// Two samples of rows ty + 4i (i < MI) and columns tx + 8j (j < NJ) from A_ROWS and B_ROWS
// (pitch kPitch, 16-byte pairs), added to re, im [I0 + i][j].
template <int MI, int NJ, int I0, int PITCH>
__device__ inline void fp32_pair(const uint8_t* a_rows, const uint8_t* b_rows, int pair,
                                 float (&re)[8][4], float (&im)[8][4]) {
  float4 a[MI], b[NJ];  // two samples (re, im, re, im) of each row and column
#pragma unroll
  for (int i = 0; i < MI; ++i)
    a[i] = *reinterpret_cast<const float4*>(a_rows + 4 * i * PITCH + pair * 16);
#pragma unroll
  for (int j = 0; j < NJ; ++j)
    b[j] = *reinterpret_cast<const float4*>(b_rows + 8 * j * PITCH + pair * 16);
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NJ; ++j) {
      // a conj(b), both samples
      float& r = re[I0 + i][j];
      float& m = im[I0 + i][j];
      r = fmaf(a[i].x, b[j].x, r);
      r = fmaf(a[i].y, b[j].y, r);
      r = fmaf(a[i].z, b[j].z, r);
      r = fmaf(a[i].w, b[j].w, r);
      m = fmaf(a[i].y, b[j].x, m);
      m = fmaf(-a[i].x, b[j].y, m);
      m = fmaf(a[i].w, b[j].z, m);
      m = fmaf(-a[i].z, b[j].w, m);
    }
}

// DIAG: tiles on the diagonal share their work out differently. Of their three 32 x 32 parts
// with pairs a1 <= a2, the two on the diagonal are done as 16 x 32 + 16 x 16 (the 16 x 16 below
// the diagonal left out: 24 pairs a thread, not 32), and the full one by two warps, each on
// every other pair of samples, summed through shared memory at the end: four warps busy, not
// three, and each warp's share of products 24/32 of the others'.
template <class C, bool DIAG>
__global__ void __launch_bounds__(kThreads, C::kMinBlocks)
    fp32_correlate_kernel(CorrChunkArgs args) {
  constexpr int kStageSamples = C::kStageSamples, kStages = C::kStages, kPitch = C::kPitch;
  constexpr int kRegionBytes = C::kRegionBytes;
  extern __shared__ __align__(16) uint8_t smem[];
  const uint32_t smem_base = uint32_t(__cvta_generic_to_shared(smem));

  const int npol = args.npol, nrecv = args.nant * npol, pol_shift = npol - 1;
  int bi, bj;
  tile_of(int(blockIdx.x), bi, bj);
  const bool diagonal = bi == bj;
  const int row0 = bi * kTile, col0 = bj * kTile;
  const int64_t row_bytes = args.tpad * 8;
  const int nstages = int(args.tpad / kStageSamples);
  const uint8_t* chan =
      static_cast<const uint8_t*>(args.packed) + int64_t(blockIdx.y) * nrecv * row_bytes;

  // A thread copies one 16-byte chunk of every kRowStep-th row of the A rows, then of the B
  // rows (a tile on the diagonal has one set of rows, used as both).
  constexpr int kRowStep = kThreads / C::kChunks, kLoads = 2 * kTile / kRowStep;
  const int chunk = threadIdx.x % C::kChunks, load_row = threadIdx.x / C::kChunks;
  auto load_stage = [&](int slot, int stage) {
    const uint8_t* src = chan + int64_t(stage) * (kStageSamples * 8) + chunk * 16;
    const uint32_t dst = smem_base + slot * 2 * kRegionBytes + load_row * kPitch + chunk * 16;
#pragma unroll
    for (int j = 0; j < kLoads; ++j) {
      const int region = j * kRowStep / kTile;
      if (region == 1 && diagonal) break;
      // Rows past the end are read from the last one (their products are never written).
      const int r =
          min((region ? col0 : row0) + load_row + j * kRowStep - region * kTile, nrecv - 1);
      cp_async16(dst + j * kRowStep * kPitch, src + r * row_bytes);
    }
  };

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int ty = lane >> 3, tx = lane & 7;
  // Warp 0 rows 0-31 x columns 0-31, 1: 0-31 x 32-63, 2: 32-63 x 0-31, 3: 32-63 x 32-63; on the
  // diagonal (DIAG) warp 2 takes 0-31 x 32-63 with warp 1 instead, odd pairs to its even.
  const bool shared_part = DIAG && diagonal && (warp == 1 || warp == 2);
  const bool triangle = DIAG && diagonal && (warp == 0 || warp == 3);
  const int wrow = (shared_part ? 0 : (warp >> 1)) * kWarpTile;
  const int wcol = (shared_part ? 1 : (warp & 1)) * kWarpTile;
  const int first_row = row0 + wrow, first_col = col0 + wcol;
  const bool active = first_row < nrecv && first_col < nrecv &&
                      (first_row >> pol_shift) <= ((first_col + kWarpTile - 1) >> pol_shift);
  const int pair0 = shared_part && warp == 2 ? 1 : 0, pair_step = shared_part ? 2 : 1;

  float re[8][4], im[8][4];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) re[i][j] = im[i][j] = 0.0f;

#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < nstages) load_stage(s, s);
    cp_async_commit();
  }
  for (int stage = 0; stage < nstages; ++stage) {
    cp_async_wait<kStages - 2>();
    __syncthreads();  // stage `stage` is in; every warp is done with the slot loaded next
    const int next = stage + kStages - 1;
    if (next < nstages) load_stage(next % kStages, next);
    cp_async_commit();
    if (!active) continue;
    const uint8_t* a_rows = smem + (stage % kStages) * 2 * kRegionBytes;
    const uint8_t* b_rows = a_rows + (diagonal ? 0 : kRegionBytes);
    a_rows += (wrow + ty) * kPitch;
    b_rows += (wcol + tx) * kPitch;
    if (triangle) {
      // Rows 0-15 x columns 0-31 into re[0..3][0..3], rows 16-31 x columns 16-31 into
      // re[4..7][0..1].
#pragma unroll 2
      for (int pair = 0; pair < kStageSamples / 2; ++pair) {
        fp32_pair<4, 4, 0, kPitch>(a_rows, b_rows, pair, re, im);
        fp32_pair<4, 2, 4, kPitch>(a_rows + 16 * kPitch, b_rows + 16 * kPitch, pair, re, im);
      }
    } else {
#pragma unroll 2
      for (int pair = pair0; pair < kStageSamples / 2; pair += pair_step)
        fp32_pair<8, 4, 0, kPitch>(a_rows, b_rows, pair, re, im);
    }
  }
  cp_async_wait<0>();
  if (DIAG && diagonal) {
    // Warp 2's sums to warp 1 through the staging memory, now free.
    __syncthreads();
    float* xs = reinterpret_cast<float*>(smem);
    if (warp == 2 && active) {
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          xs[(i * 4 + j) * 64 + lane] = re[i][j];
          xs[(i * 4 + j) * 64 + 32 + lane] = im[i][j];
        }
    }
    __syncthreads();
    if (warp == 2) return;
    if (warp == 1 && active) {
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          re[i][j] += xs[(i * 4 + j) * 64 + lane];
          im[i][j] += xs[(i * 4 + j) * 64 + 32 + lane];
        }
    }
  }
  if (!active) return;

  // The sums are added to two rows (8 values) at a time, all their loads before any store: the
  // compiler, not knowing that the addresses differ, would otherwise wait for each store before
  // the next load.
  const int64_t nbl = int64_t(args.nant) * (args.nant + 1) / 2;
  float2* sums = static_cast<float2*>(args.sums) + (args.chan0 + blockIdx.y) * nbl * npol * npol;
#pragma unroll
  for (int i0 = 0; i0 < 8; i0 += 2) {
    float2* where[8];
    float2 old[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const int i = i0 + k / 4, j = k % 4;
      int r1 = first_row + ty + 4 * i, r2 = first_col + tx + 8 * j;
      where[k] = nullptr;
      if (triangle && i >= 4) {
        if (j >= 2) continue;
        r2 += 16;  // rows 16-31 (as is) x columns 16-31
      }
      if (r1 >= nrecv || r2 >= nrecv) continue;
      const int a1 = r1 >> pol_shift, a2 = r2 >> pol_shift;
      if (a1 > a2) continue;
      const int p1 = r1 - (a1 << pol_shift), p2 = r2 - (a2 << pol_shift);
      where[k] = sums + (device_baseline_index(a1, a2) * npol + p1) * npol + p2;
      old[k] = args.first ? make_float2(0.0f, 0.0f) : *where[k];
    }
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const int i = i0 + k / 4, j = k % 4;
      if (where[k]) *where[k] = make_float2(old[k].x + re[i][j], old[k].y + im[i][j]);
    }
  }
}

template <class C, bool DIAG>
void launch_fp32(const CorrChunkArgs& args, cudaStream_t stream) {
  constexpr int kSmemBytes = C::kSmemBytes;
  const auto kernel = fp32_correlate_kernel<C, DIAG>;
  // Above 48 KiB a block's dynamic shared memory must be allowed explicitly.
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), size_t(kSmemBytes),
                                    "fp32 correlator");
  const int side = (args.nant * args.npol + kTile - 1) / kTile;
  const dim3 grid(unsigned(side * (side + 1) / 2), unsigned(args.nchan));
  kernel<<<grid, kThreads, kSmemBytes, stream>>>(args);
  RAPT_CUDA_CHECK_LAUNCH("fp32 correlator");
}

}  // namespace

int fp32_correlator_tile() { return kTile; }

// DIAG on: 36.4 against 31.3 TFLOP/s on an H200 at 64 stations x 4096 channels x 768 samples.
void launch_fp32_correlator(const CorrChunkArgs& args, cudaStream_t stream) {
  launch_fp32<Fp32Config<16, 3, 4>, true>(args, stream);
}

}  // namespace rapt::gpu
