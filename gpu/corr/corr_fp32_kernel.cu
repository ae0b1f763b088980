// The fp32 correlator on CUDA cores, register-tiled, with three real products per complex one.
//
// a conj(b) summed over samples takes Gauss's three sums (3 FFMA a sample, not 4):
//   m1 = sum (ar + ai)(br + bi),  m2 = sum ar bi,  m3 = sum ai br
//   re = m1 - m2 - m3 = sum ar br + ai bi,  im = m3 - m2 = sum ai br - ar bi.
// The sums ar + ai and br + bi are formed once per sample and row or column of a thread's tile
// (one FADD each), so a thread's 8 x 4 pairs cost 96 FFMA and 12 FADD a sample, where the four
// products took 128 FFMA.
//
// A block (4 warps) owns a 64 x 64 tile of one channel's receiver matrix (tiles on or above the
// diagonal). Off the diagonal each warp owns a 32 x 32 part of it, each thread 8 x 4 receiver
// pairs: rows ty + 4i and columns tx + 8j (ty = lane / 8, tx = lane % 8), so the 8 lanes of a
// row group read the same A value (a broadcast) and the 8 columns lie in 8 different banks, and
// each 16-byte read (two samples of one receiver) is one shared-memory wavefront.
// On the diagonal only the 10 of the tile's 16 x 16 blocks on or above it are worked, in five
// jobs of 16 x 32: each warp one of the first four (rows 0-15 x columns 0-31, 0-15 x 32-63,
// 16-31 x 32-63, 32-47 x 32-63) over all samples, and the fifth (the blocks at 16-31 x 16-31 and
// 48-63 x 48-63) over every fourth pair of samples, its four parts added through shared memory
// at the end: every warp has the same work (2.5 blocks), so none waits at the stage barriers.
// Rows are staged by cp.async, 16 samples a stage, several stages ahead. Off the diagonal the
// loop over a stage's pairs of samples is unrolled twice (206 registers, nothing spilled): on an
// H100 the seed case took 5.07 ms against 5.24 unrolled once, and 6.04 unrolled fully. On it,
// the stage is one unrolled run, a pair of the shared job after every fourth pair of the warp's
// own, so that loads of the one overlap products of the other: 4.88-4.95 ms against 5.00-5.05
// with the two jobs in loops of their own.
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
  static constexpr int kPairs = kStageSamples / 2;   // pairs of samples a stage
};

// A thread's Gauss sums for 8 x 4 receiver pairs.
struct GaussSums {
  float m1[8][4], m2[8][4], m3[8][4];
};

// Two samples (a float4 each: re, im, re, im) of rows ty + 4i (i < MI) and columns tx + 8j
// (j < NJ) from A_ROWS and B_ROWS (pitch PITCH) into sums [I0 + i][J0 + j].
template <int MI, int NJ, int I0, int J0, int PITCH>
__device__ inline void gauss_pair(const uint8_t* a_rows, const uint8_t* b_rows, int pair,
                                  GaussSums& s) {
  float4 b[NJ];
  float bs0[NJ], bs1[NJ];  // br + bi of the two samples
#pragma unroll
  for (int j = 0; j < NJ; ++j) {
    b[j] = *reinterpret_cast<const float4*>(b_rows + 8 * j * PITCH + pair * 16);
    bs0[j] = b[j].x + b[j].y;
    bs1[j] = b[j].z + b[j].w;
  }
#pragma unroll
  for (int i = 0; i < MI; ++i) {
    const float4 a = *reinterpret_cast<const float4*>(a_rows + 4 * i * PITCH + pair * 16);
    const float as0 = a.x + a.y, as1 = a.z + a.w;
#pragma unroll
    for (int j = 0; j < NJ; ++j) {
      float& m1 = s.m1[I0 + i][J0 + j];
      float& m2 = s.m2[I0 + i][J0 + j];
      float& m3 = s.m3[I0 + i][J0 + j];
      m1 = fmaf(as0, bs0[j], m1);
      m2 = fmaf(a.x, b[j].y, m2);
      m3 = fmaf(a.y, b[j].x, m3);
      m1 = fmaf(as1, bs1[j], m1);
      m2 = fmaf(a.z, b[j].w, m2);
      m3 = fmaf(a.w, b[j].z, m3);
    }
  }
}

// The diagonal tile's jobs (rows and columns of the tile, 16 x 32 each; see the top).
__device__ inline int diagonal_job_row(int warp) { return warp == 0 || warp == 1 ? 0 : (warp - 1) * 16; }
__device__ inline int diagonal_job_col(int warp) { return warp == 0 ? 0 : 32; }
// The shared fifth job's pair k (i < 4 rows, j < 4 columns): its row and column in the tile.
__device__ inline int shared_job_row(int i, int j, int ty) { return (j < 2 ? 16 : 48) + ty + 4 * i; }
__device__ inline int shared_job_col(int j, int tx) { return (j < 2 ? 16 : 48) + tx + 8 * (j & 1); }

// Adds COUNT products to the sums, receiver pair k at rows r1[k], r2[k] (the pair skipped when
// either is past the end or it lies below the diagonal), all the loads before any store: the
// compiler, not knowing that the addresses differ, would otherwise wait for each store before
// the next load.
template <int COUNT>
__device__ inline void add_to_sums(const CorrChunkArgs& args, float2* sums, const int (&r1)[COUNT],
                                   const int (&r2)[COUNT], const float (&re)[COUNT],
                                   const float (&im)[COUNT]) {
  const int npol = args.npol, nrecv = args.nant * npol, pol_shift = npol - 1;
  float2* where[COUNT];
  float2 old[COUNT];
#pragma unroll
  for (int k = 0; k < COUNT; ++k) {
    where[k] = nullptr;
    if (r1[k] >= nrecv || r2[k] >= nrecv) continue;
    const int a1 = r1[k] >> pol_shift, a2 = r2[k] >> pol_shift;
    if (a1 > a2) continue;
    const int p1 = r1[k] - (a1 << pol_shift), p2 = r2[k] - (a2 << pol_shift);
    where[k] = sums + (device_baseline_index(a1, a2) * npol + p1) * npol + p2;
    old[k] = args.first ? make_float2(0.0f, 0.0f) : *where[k];
  }
#pragma unroll
  for (int k = 0; k < COUNT; ++k)
    if (where[k]) *where[k] = make_float2(old[k].x + re[k], old[k].y + im[k]);
}

template <class C>
__global__ void __launch_bounds__(kThreads, C::kMinBlocks)
    fp32_correlate_kernel(CorrChunkArgs args) {
  constexpr int kStageSamples = C::kStageSamples, kStages = C::kStages, kPitch = C::kPitch;
  constexpr int kRegionBytes = C::kRegionBytes, kPairs = C::kPairs;
  extern __shared__ __align__(16) uint8_t smem[];
  const uint32_t smem_base = uint32_t(__cvta_generic_to_shared(smem));

  const int npol = args.npol, nrecv = args.nant * npol;
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
  // Off the diagonal: warp 0 rows 0-31 x columns 0-31, 1: 0-31 x 32-63, 2: 32-63 x 0-31,
  // 3: 32-63 x 32-63. On it: the warp's own job.
  const int wrow = diagonal ? diagonal_job_row(warp) : (warp >> 1) * kWarpTile;
  const int wcol = diagonal ? diagonal_job_col(warp) : (warp & 1) * kWarpTile;
  // Off the diagonal, warps whose part is wholly past the end skip the products.
  const bool active = diagonal || (row0 + wrow < nrecv && col0 + wcol < nrecv);

  GaussSums s;
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) s.m1[i][j] = s.m2[i][j] = s.m3[i][j] = 0.0f;

#pragma unroll
  for (int st = 0; st < kStages - 1; ++st) {
    if (st < nstages) load_stage(st, st);
    cp_async_commit();
  }
  for (int stage = 0; stage < nstages; ++stage) {
    cp_async_wait<kStages - 2>();
    __syncthreads();  // stage `stage` is in; every warp is done with the slot loaded next
    const int next = stage + kStages - 1;
    if (next < nstages) load_stage(next % kStages, next);
    cp_async_commit();
    if (!active) continue;
    const uint8_t* tile_rows = smem + (stage % kStages) * 2 * kRegionBytes;
    if (diagonal) {
      // The warp's job (16 x 32) into sums [0..3][0..3]; the shared job's two 16 x 16 blocks
      // into [4..7][0..1] and [4..7][2..3], on this warp's quarter of the pairs (warp, warp + 4,
      // ...).
      const uint8_t* a_rows = tile_rows + (wrow + ty) * kPitch;
      const uint8_t* b_rows = tile_rows + (wcol + tx) * kPitch;
#pragma unroll
      for (int pair = 0; pair < kPairs; ++pair) {
        gauss_pair<4, 4, 0, 0, kPitch>(a_rows, b_rows, pair, s);
        if (pair % 4 == 3) {
          const int shared_pair = pair - 3 + warp;
          gauss_pair<4, 2, 4, 0, kPitch>(tile_rows + (16 + ty) * kPitch,
                                         tile_rows + (16 + tx) * kPitch, shared_pair, s);
          gauss_pair<4, 2, 4, 2, kPitch>(tile_rows + (48 + ty) * kPitch,
                                         tile_rows + (48 + tx) * kPitch, shared_pair, s);
        }
      }
    } else {
      const uint8_t* a_rows = tile_rows + (wrow + ty) * kPitch;
      const uint8_t* b_rows = tile_rows + kRegionBytes + (wcol + tx) * kPitch;
#pragma unroll 2
      for (int pair = 0; pair < kPairs; ++pair)
        gauss_pair<8, 4, 0, 0, kPitch>(a_rows, b_rows, pair, s);
    }
  }
  cp_async_wait<0>();

  // The complex sums, before any is stored (64 registers live, not the 96 Gauss sums).
  float vre[8][4], vim[8][4];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      vre[i][j] = s.m1[i][j] - s.m2[i][j] - s.m3[i][j];
      vim[i][j] = s.m3[i][j] - s.m2[i][j];
    }
  const int64_t nbl = int64_t(args.nant) * (args.nant + 1) / 2;
  float2* sums = static_cast<float2*>(args.sums) + (args.chan0 + blockIdx.y) * nbl * npol * npol;
  // The first `rows` of this thread's 8 rows, two at a time (8 values).
  auto add_rows = [&](int rows) {
#pragma unroll
    for (int i0 = 0; i0 < 8; i0 += 2) {
      if (i0 >= rows) break;
      int r1[8], r2[8];
      float re[8], im[8];
#pragma unroll
      for (int k = 0; k < 8; ++k) {
        const int i = i0 + k / 4, j = k % 4;
        r1[k] = row0 + wrow + ty + 4 * i;
        r2[k] = col0 + wcol + tx + 8 * j;
        re[k] = vre[i][j];
        im[k] = vim[i][j];
      }
      add_to_sums(args, sums, r1, r2, re, im);
    }
  };
  if (!diagonal) {
    if (active) add_rows(8);
    return;
  }

  // The shared job's four quarters through the staging memory (now free): warp w then adds up
  // pairs k = 4w ... 4w + 3 of every lane's 16 and writes them.
  __syncthreads();
  float2* parts = reinterpret_cast<float2*>(smem);  // [warp][k][lane]
#pragma unroll
  for (int k = 0; k < 16; ++k)
    parts[(warp * 16 + k) * 32 + lane] = make_float2(vre[4 + k / 4][k % 4], vim[4 + k / 4][k % 4]);
  add_rows(4);  // the warp's own job
  __syncthreads();
  int r1[4], r2[4];
  float re[4], im[4];
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const int k = warp * 4 + q, i = k / 4, j = k % 4;
    float2 v = make_float2(0.0f, 0.0f);
#pragma unroll
    for (int w = 0; w < 4; ++w) {
      const float2 part = parts[(w * 16 + k) * 32 + lane];
      v.x += part.x;
      v.y += part.y;
    }
    r1[q] = row0 + shared_job_row(i, j, ty);
    r2[q] = col0 + shared_job_col(j, tx);
    re[q] = v.x;
    im[q] = v.y;
  }
  add_to_sums(args, sums, r1, r2, re, im);
}

template <class C>
void launch_fp32(const CorrChunkArgs& args, cudaStream_t stream) {
  constexpr int kSmemBytes = C::kSmemBytes;
  static_assert(kSmemBytes >= 4 * 16 * 32 * int(sizeof(float2)), "the shared job's parts fit");
  static_assert(C::kPairs % 4 == 0, "the shared job's pairs share out evenly");
  const auto kernel = fp32_correlate_kernel<C>;
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

// Two blocks an SM (206 registers, nothing spilled): 4.9 ms at 64 stations x 4096 channels x 768
// samples on an H100, against 5.4 ms with three (168 registers), 5.6 ms for the four products a
// sample of 4 blocks an SM before, and 5.6 ms with 8 warps a block of 4 x 4 pairs a thread (128
// registers, four warps a scheduler: more warps hid no more, as they cost more loads and FADDs a
// product). A kernel giving each warp of a small array's channel a strip of 4 x 16 x 16 pairs
// (4 x 8 a thread, diagonal or not) took 5.8 ms; each row's ar + ai made once a stage in shared
// memory, rather than by every thread that reads the row, 5.65 ms (the extra loads cost more
// than the FADDs they saved), and pre-summed in rows of their own, read as LDS.64, 5.09 ms.
// What bounds it (Nsight Compute, seed case): the issue slots are 70 % busy, two warps a
// scheduler; beside the issuing warp and the other one waiting its turn, the largest stall is
// at dispatch (16 % of the samples), twice as frequent on FFMAs whose three operands all come
// from the register file as on those that take one from the operand reuse cache. The order
// of the FFMAs in the source (A or B shared by consecutive ones) did not change which ptxas
// gives reuse, nor the time. For comparison, xGPU (8-bit input, FP32 products) took 6.35 ms
// of kernel time for the seed case on the same H100.
// The tiles off the diagonal alone (the diagonal ones skipped, a timing experiment) run at 70 %
// of the FP32 peak, counted by their own pairs, at 64, 128, 256 and 512 stations alike, so this
// loop, not the diagonal tiles (0.61 of an off-diagonal tile's time for 0.51 of its pairs),
// bounds the kernel below 75 %. Diagonal tiles worked as off-diagonal ones took 6.48 ms for the
// seed case; 4 x 8 pairs a thread off the diagonal (columns shared by 8 lanes), 4.88 ms.
void launch_fp32_correlator(const CorrChunkArgs& args, cudaStream_t stream) {
  launch_fp32<Fp32Config<16, 3, 2>>(args, stream);
}

}  // namespace rapt::gpu
