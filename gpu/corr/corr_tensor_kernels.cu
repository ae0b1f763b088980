// The int8 and fp16 correlators on tensor cores (mma.sync), one kernel template for both; on
// Hopper builds for sm_90a, the wgmma kernels (corr_wgmma_kernel.cu) take the larger arrays.
//
// The complex products as a real matrix product: a receiver's row of packed input is its
// samples as (re, im) pairs, so the dot product of two rows x1 . x2 is Re sum x1 conj(x2), and
// the dot product of x1 with the row of i x2 (each pair (re, im) made (-im, re)) is its
// imaginary part. Rows are A (16 receivers per mma) and B (8 receivers per mma, each used twice:
// as loaded for the real parts and turned by i, in registers, for the imaginary parts).
//
// int8 m16n8k32 and fp16 m16n8k16 take the same 32 bytes of each row per instruction and hold
// their fragments in the same 32-bit words, so loading (ldmatrix) and the loop are shared; only
// the instruction and the turn by i differ.
//
// A block owns a BT x BT tile of the receiver matrix of one channel (tiles on or above the
// diagonal only), staged through shared memory by cp.async a stage (128 bytes of each row) at
// a time, several stages ahead. Each warp owns a WM x WN part of it. In tiles on the diagonal,
// warps and 16x8 pieces that hold no pair with antenna 1 <= antenna 2 skip their products.
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "../cuda/cuda_check.hpp"
#include "../cuda/dynamic_shared_memory.hpp"
#include "corr_device.cuh"
#include "corr_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr int kStageBytes = 128;  // of each receiver row per pipeline stage: 8 chunks of 16

struct Int8Mma {
  using Acc = int;
  using Sum = int2;
  static constexpr int kElementBytes = 1;
  __device__ static void mma(int (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
  // Bytes (re0, im0, re1, im1) -> (-im0, re0, -im1, re1).
  __device__ static uint32_t times_i(uint32_t x) {
    return __byte_perm(x, int8x4_negated(x), 0x2705);
  }
  __device__ static Sum added(Sum v, int re, int im) { return int8_sum_added(v, re, unsigned(im)); }
};

struct HalfMma {
  using Acc = float;
  using Sum = float2;
  static constexpr int kElementBytes = 2;
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
  // Halves (re, im) -> (-im, re): swap them, flip the sign bit of the new low half.
  __device__ static uint32_t times_i(uint32_t x) { return __byte_perm(x, 0, 0x1032) ^ 0x8000u; }
  __device__ static Sum added(Sum v, float re, float im) {
    v.x += re;
    v.y += im;
    return v;
  }
};

__device__ inline void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

// Shared-memory byte offset of 16-byte chunk `chunk` of row `row` of a region: chunks are
// swizzled by the row so that the 8 rows one ldmatrix matrix reads lie in 8 different banks.
__device__ inline uint32_t swizzled(int row, int chunk) {
  return uint32_t(row * kStageBytes + ((chunk ^ (row & 7)) << 4));
}

template <int BT, int WM, int WN, int STAGES>
struct TileShape {
  static constexpr int kWarpsR = BT / WM, kWarpsC = BT / WN;
  static constexpr int kThreads = 32 * kWarpsR * kWarpsC;
  static constexpr int kMi = WM / 16, kNj = WN / 8;  // 16 x 8 pieces per warp
  static constexpr int kRegionBytes = BT * kStageBytes;
  static constexpr int kSmemBytes = STAGES * 2 * kRegionBytes;
  static_assert(kNj % 2 == 0 && kMi * kNj <= 32, "B is loaded 16 receivers at a time");
};

// MIN_BLOCKS: blocks an SM must hold (it sets the register budget).
template <class M, int BT, int WM, int WN, int STAGES, int MIN_BLOCKS>
__global__ void __launch_bounds__(TileShape<BT, WM, WN, STAGES>::kThreads, MIN_BLOCKS)
    tensor_correlate_kernel(CorrChunkArgs args) {
  using S = TileShape<BT, WM, WN, STAGES>;
  constexpr int kStages = STAGES;
  using Acc = typename M::Acc;
  extern __shared__ __align__(128) uint8_t smem[];
  const uint32_t smem_base = uint32_t(__cvta_generic_to_shared(smem));

  const int npol = args.npol, nrecv = args.nant * npol, pol_shift = npol - 1;
  int bi, bj;
  tile_of(int(blockIdx.x), bi, bj);
  const bool diagonal = bi == bj;
  const int row0 = bi * BT, col0 = bj * BT;
  const int64_t row_bytes = args.tpad * 2 * M::kElementBytes;
  const int nstages = int(row_bytes / kStageBytes);
  const uint8_t* chan =
      static_cast<const uint8_t*>(args.packed) + int64_t(blockIdx.y) * nrecv * row_bytes;

  // A thread copies one 16-byte chunk of every kRowStep-th row of the A rows, then of the B
  // rows; a tile on the diagonal has one set of rows, used as both A and B. Rows a thread
  // copies are kRowStep apart, a multiple of 8, so their swizzle is the same and each
  // destination is the first one plus a constant.
  constexpr int kRowStep = S::kThreads / 8, kLoads = 2 * BT / kRowStep;
  const int chunk = threadIdx.x & 7, first_row = threadIdx.x >> 3;
  auto load_stage = [&](int slot, int stage) {
    const uint8_t* src = chan + int64_t(stage) * kStageBytes + chunk * 16;
    const uint32_t dst = smem_base + slot * 2 * S::kRegionBytes + swizzled(first_row, chunk);
#pragma unroll
    for (int j = 0; j < kLoads; ++j) {
      const int region = j * kRowStep / BT;
      if (region == 1 && diagonal) break;
      // Rows past the end are read from the last one (their products are never written).
      const int r = min((region ? col0 : row0) + first_row + j * kRowStep - region * BT, nrecv - 1);
      cp_async16(dst + j * kRowStep * kStageBytes, src + r * row_bytes);
    }
  };

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int wrow = (warp / S::kWarpsC) * WM, wcol = (warp % S::kWarpsC) * WN;
  // Pieces of this warp with a pair a1 <= a2 in range (every piece off the diagonal).
  uint32_t need = 0;
#pragma unroll
  for (int mi = 0; mi < S::kMi; ++mi)
#pragma unroll
    for (int nj = 0; nj < S::kNj; ++nj) {
      const int r = row0 + wrow + mi * 16, c = col0 + wcol + nj * 8;
      if (r < nrecv && c < nrecv && (r >> pol_shift) <= ((c + 7) >> pol_shift))
        need |= 1u << (mi * S::kNj + nj);
    }
  const uint32_t all = S::kMi * S::kNj == 32 ? 0xffffffffu : (1u << (S::kMi * S::kNj)) - 1;

  Acc re[S::kMi][S::kNj][4], im[S::kMi][S::kNj][4];
#pragma unroll
  for (int mi = 0; mi < S::kMi; ++mi)
#pragma unroll
    for (int nj = 0; nj < S::kNj; ++nj)
#pragma unroll
      for (int e = 0; e < 4; ++e) re[mi][nj][e] = im[mi][nj][e] = Acc(0);

  // One step's fragments: A rows, B rows as loaded and B rows turned by i.
  struct Fragments {
    uint32_t a[S::kMi][4], b[S::kNj][2], bi[S::kNj][2];
  };
  // Where this lane's ldmatrix rows start at each step: pieces further down are 16 (A) or
  // 8 (B) rows on, the same swizzle, a constant offset.
  constexpr int kSteps = kStageBytes / 32;
  uint32_t a_at[kSteps], b_at[kSteps];
#pragma unroll
  for (int step = 0; step < kSteps; ++step) {
    a_at[step] = swizzled(wrow + (lane & 7) + ((lane >> 3) & 1) * 8, step * 2 + (lane >> 4));
    b_at[step] = swizzled(wcol + (lane & 7) + (lane >> 4) * 8, step * 2 + ((lane >> 3) & 1));
  }
  auto load_fragments = [&](uint32_t a_base, uint32_t b_base, int step, Fragments& f) {
#pragma unroll
    for (int mi = 0; mi < S::kMi; ++mi)
      ldmatrix_x4(f.a[mi], a_base + a_at[step] + mi * 16 * kStageBytes);
#pragma unroll
    for (int nj = 0; nj < S::kNj; nj += 2) {
      uint32_t r[4];
      ldmatrix_x4(r, b_base + b_at[step] + nj * 8 * kStageBytes);
      f.b[nj][0] = r[0];
      f.b[nj][1] = r[1];
      f.b[nj + 1][0] = r[2];
      f.b[nj + 1][1] = r[3];
    }
  };
  auto multiply = [&](Fragments& f, auto some) {
    constexpr bool kSome = decltype(some)::value;
#pragma unroll
    for (int nj = 0; nj < S::kNj; ++nj) {
      f.bi[nj][0] = M::times_i(f.b[nj][0]);
      f.bi[nj][1] = M::times_i(f.b[nj][1]);
    }
#pragma unroll
    for (int nj = 0; nj < S::kNj; ++nj)
#pragma unroll
      for (int mi = 0; mi < S::kMi; ++mi) {
        if (kSome && !((need >> (mi * S::kNj + nj)) & 1)) continue;
        M::mma(re[mi][nj], f.a[mi], f.b[nj][0], f.b[nj][1]);
        M::mma(im[mi][nj], f.a[mi], f.bi[nj][0], f.bi[nj][1]);
      }
  };
  // One stage's products: 4 steps of 32 bytes, each step's fragments loaded while the previous
  // step's products run (the asm statements keep their order, so the order here is the
  // schedule). `some`: only the pieces in `need`.
  auto compute = [&](int slot, auto some) {
    const uint32_t a_base = smem_base + slot * 2 * S::kRegionBytes;
    const uint32_t b_base = a_base + (diagonal ? 0 : S::kRegionBytes);
    Fragments f[2];
    load_fragments(a_base, b_base, 0, f[0]);
#pragma unroll
    for (int step = 0; step < kSteps; ++step) {
      if (step + 1 < kSteps) load_fragments(a_base, b_base, step + 1, f[(step + 1) & 1]);
      multiply(f[step & 1], some);
    }
  };

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
    if (need == all)
      compute(stage % kStages, std::false_type{});
    else if (need)
      compute(stage % kStages, std::true_type{});
  }
  cp_async_wait<0>();

  // Each lane holds rows g and g + 8, columns 2t and 2t + 1 of each piece.
  const int g = lane >> 2, t = lane & 3;
  const int64_t nbl = int64_t(args.nant) * (args.nant + 1) / 2;
  typename M::Sum* sums =
      static_cast<typename M::Sum*>(args.sums) + (args.chan0 + blockIdx.y) * nbl * npol * npol;
#pragma unroll
  for (int mi = 0; mi < S::kMi; ++mi)
#pragma unroll
    for (int nj = 0; nj < S::kNj; ++nj) {
      if (!((need >> (mi * S::kNj + nj)) & 1)) continue;
      // The piece's four sums are loaded before any is stored: the compiler, not knowing that
      // the addresses differ, would otherwise wait for each store before the next load.
      typename M::Sum* where[4];
      typename M::Sum old[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int r1 = row0 + wrow + mi * 16 + g + (e >> 1) * 8;
        const int r2 = col0 + wcol + nj * 8 + 2 * t + (e & 1);
        where[e] = nullptr;
        if (r1 >= nrecv || r2 >= nrecv) continue;
        const int a1 = r1 >> pol_shift, a2 = r2 >> pol_shift;
        if (a1 > a2) continue;
        const int p1 = r1 - (a1 << pol_shift), p2 = r2 - (a2 << pol_shift);
        where[e] = sums + (device_baseline_index(a1, a2) * npol + p1) * npol + p2;
        old[e] = args.first ? typename M::Sum{} : *where[e];
      }
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (where[e]) *where[e] = M::added(old[e], re[mi][nj][e], im[mi][nj][e]);
    }
}

template <class M, int BT, int WM, int WN, int STAGES = 4, int MIN_BLOCKS = 1>
void launch_tile(const CorrChunkArgs& args, cudaStream_t stream) {
  using S = TileShape<BT, WM, WN, STAGES>;
  const auto kernel = tensor_correlate_kernel<M, BT, WM, WN, STAGES, MIN_BLOCKS>;
  // Above 48 KiB a block's dynamic shared memory must be allowed explicitly.
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), size_t(S::kSmemBytes),
                                    "tensor-core correlator");
  const int side = (args.nant * args.npol + BT - 1) / BT;
  const dim3 grid(unsigned(side * (side + 1) / 2), unsigned(args.nchan));
  kernel<<<grid, S::kThreads, S::kSmemBytes, stream>>>(args);
  RAPT_CUDA_CHECK_LAUNCH("tensor-core correlator");
}

}  // namespace

// 64-receiver tiles of 4 warps (32 x 32 receivers each; 152 registers, 3 blocks an SM): on an
// H100 they beat 128-receiver tiles of 8 warps (64 x 32 each, 1 block an SM) at every size
// measured, 32 to 1024 stations, by 10 to 35%: more warps hide the latency of the mma.sync
// chains, and tiles on the diagonal, which do some products for nothing, are smaller.
int tensor_correlator_tile(int nrecv) {
  return use_wgmma_correlator(nrecv) ? wgmma_correlator_tile() : 64;
}

// From 128 receivers on, the wgmma kernels where this build has them for the device (sm_90a):
// on an H200 they beat these by 15 to 30% at 64 to 1024 stations; at 32 stations (one 128-tile
// half empty) they lose.
bool use_wgmma_correlator(int nrecv) { return nrecv >= 128 && wgmma_correlator_available(); }

void launch_tensor_correlator(CorrPrecision precision, const CorrChunkArgs& args,
                              cudaStream_t stream) {
  if (use_wgmma_correlator(args.nant * args.npol))
    launch_wgmma_correlator(precision, args, stream);
  else if (precision == CorrPrecision::int8)
    launch_tile<Int8Mma, 64, 32, 32>(args, stream);
  else
    launch_tile<HalfMma, 64, 32, 32>(args, stream);
}

}  // namespace rapt::gpu
