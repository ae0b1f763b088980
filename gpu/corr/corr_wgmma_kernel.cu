// The int8 and fp16 correlators on Hopper's warpgroup tensor-core instructions (wgmma, sm_90a).
//
// The products as in corr_tensor_kernels.cu (rows of (re, im) pairs; real parts from the rows as
// loaded), with the turn by i on the A side, in registers: A' = (im, -re) per sample, so
// A' . x2 = im1 re2 - re1 im2 = Im (x1 conj(x2)), exactly (int8 values are negated bytewise,
// corr_device.cuh; fp16's by their sign bits). A comes
// from registers (ldmatrix, then turned), B from shared memory through a descriptor (rows of 128
// bytes, the 128-byte swizzle the loads already write).
//
// The receiver matrix of a channel is cut into 128 x 128 tiles (on or above the diagonal); a
// warpgroup owns the upper or lower 64 rows of one: two m64n128 products (real and imaginary)
// per 32 bytes of each row, into 128 sums per thread. Rows are staged a stage (128 bytes of each
// row) at a time, several stages ahead, by the tensor memory accelerator: one thread issues a
// stage's copies (boxes of 64 rows, swizzled on the way), a barrier per slot counts their bytes
// in, and another says when both warpgroups' products of the slot have ended, so that the
// warpgroups never wait for each other at a block barrier. With every thread copying 16-byte
// pieces (cp.async) instead, the copies' queues held the warps up: int8 at 1024 stations 43-44 %
// of the dense peak against 48 %, fp16 53 against 56-57 %, on an H100; the block barrier at
// every stage (in place of the second barrier) then cost int8 48 against 52 %, fp16 57
// against 60 %.
// A block of two warpgroups owns a tile, so that both read the same 128 column rows (B) from
// shared memory: a stage loads 32 KB for 16 products (16 KB on the diagonal, where the rows are
// the columns), and each stage's products are left running while the next one is staged, as one
// block fills an SM. (With the copies by every thread, fp16 ran faster as blocks of one
// warpgroup, two an SM; with the tensor copies this layout takes fp16 at 64 stations from 0.81
// to 0.70 ms on an H200, and is as fast from 256 stations on.)
// Clusters of two blocks whose tiles share their column rows, each block copying half of them
// into both (multicast: a quarter less read from L2 at 256 stations), were slower on an H200:
// int8 at 256 stations x 64 channels 0.273 against 0.237 ms, 1024 x 32 1.74 against 1.50, fp16
// at 256 x 64 0.522 against 0.468. Each slot then waits for both blocks' warpgroups, and the
// copying thread is one of a warpgroup's; letting it pass over slots not yet free and copy into
// them later did not help.
//
// A launch whose blocks would leave SMs idle in its last round splits that round's tiles over
// the samples (WgmmaGrid below).
//
// Built only for sm_90a (__CUDA_ARCH_FEAT_SM90_ALL); elsewhere the kernel is empty and
// wgmma_correlator_available() says no, so the mma.sync kernels run.
#include <cuda.h>  // CUtensorMap; the encoder is looked up at run time, not linked
#include <cudaTypedefs.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <type_traits>

#include "../cuda/cuda_check.hpp"
#include "../cuda/cuda_device_query.hpp"
#include "../cuda/dynamic_shared_memory.hpp"
#include "cli/errors.hpp"
#include "corr_device.cuh"
#include "corr_kernels.hpp"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define RAPT_CORR_WGMMA 1
#endif

namespace rapt::gpu {
namespace {

constexpr int kStageBytes = 128;
constexpr int kTile = 128;
constexpr int kRows = 64;  // of the tile, per warpgroup
[[maybe_unused]] constexpr int kBBytes = kTile * kStageBytes;

constexpr int kThreads = 256;  // two warpgroups
constexpr int kStages = 6;
// A slot: the tile's 128 column rows (B), then its 128 rows (A; off the diagonal only).
constexpr int kSlotBytes = 2 * kTile * kStageBytes;
// Slots start on 1024-byte boundaries (the swizzle's period): the slack aligns the first.
// Each slot's two barriers (8 bytes each: its rows are in, its rows are free) follow the slots.
// A launch whose tiles all lie on the diagonal (one tile a side) loads no A rows: its slots are
// half as large and twice as many, so twice the stages are in flight where the kernel waits on
// memory (64 stations x 1024 channels on an H200: int8 0.369 against 0.375-0.386 ms, 73 against
// 72 % of the memory roofline; fp16 0.712 against 0.720-0.756).
constexpr int kSmemBytes = kStages * kSlotBytes + 2 * kStages * 16 + 1024;

[[maybe_unused]] __device__ inline uint32_t swizzled(int row, int chunk) {
  return uint32_t(row * kStageBytes + ((chunk ^ (row & 7)) << 4));
}

#ifdef RAPT_CORR_WGMMA
__device__ inline void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

// Shared-memory matrix descriptor: K-major rows of 128 bytes, 128-byte swizzle, groups of 8 rows
// 1024 bytes apart.
__device__ inline uint64_t smem_descriptor(uint32_t addr) {
  return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) |
         (uint64_t(1) << 62);
}

__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ inline void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Until at most N of this warpgroup's committed groups are still running.
template <int N>
__device__ inline void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// The compiler cannot see that a running wgmma still reads its A registers: this use, placed
// after the wait that ends those products, keeps them from being given to other values first.
__device__ inline void hold(const uint32_t (&r)[4][4]) {
#pragma unroll
  for (int i = 0; i < 4; ++i)
    asm volatile("" ::"r"(r[i][0]), "r"(r[i][1]), "r"(r[i][2]), "r"(r[i][3]) : "memory");
}
// A slot's barrier: armed by the thread that issues the slot's tensor copies with the bytes
// they bring, passed (its phase flips) once they have all landed.
__device__ inline void barrier_init(uint32_t bar, int arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals) : "memory");
}
__device__ inline void barrier_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ inline void barrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ inline void barrier_expect(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}
__device__ inline void barrier_wait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}
// One box of the packed input (128 bytes of 64 rows) into shared memory by the tensor memory
// accelerator, swizzled as the descriptors want; completion counted on `bar`.
__device__ inline void tensor_copy(uint32_t dst, const CUtensorMap* map, int x, int y,
                                   uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, "
      "{%2, %3}], [%4];\n" ::"r"(dst),
      "l"(map), "r"(x), "r"(y), "r"(bar)
      : "memory");
}

// D (64 x 128, this thread's 64 values) += A (64 x 32 bytes, from registers) B^T, B 128 rows of
// 32 bytes in shared memory as `desc` says; int8 (k32, exact int32 sums) or half (k16, FP32).
__device__ inline void wgmma_int8(int (&d)[64], const uint32_t (&a)[4], uint64_t desc) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "{%64, %65, %66, %67}, %68, p;\n"
      "}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1));
}
__device__ inline void wgmma_half(float (&d)[64], const uint32_t (&a)[4], uint64_t desc) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "{%64, %65, %66, %67}, %68, p, 1, 1, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1));
}
// The same for 64 columns (this thread's 32 values): the lower half of a tile on the diagonal,
// whose first 64 columns lie below it.
__device__ inline void wgmma_int8_n64(int (&d)[32], const uint32_t (&a)[4], uint64_t desc) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %37, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "{%32, %33, %34, %35}, %36, p;\n"
      "}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1));
}
__device__ inline void wgmma_half_n64(float (&d)[32], const uint32_t (&a)[4], uint64_t desc) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %37, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "{%32, %33, %34, %35}, %36, p, 1, 1, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1));
}
#endif

__global__ void wgmma_probe_kernel(int* out) {
#ifdef RAPT_CORR_WGMMA
  *out = 1;
#else
  *out = 0;
#endif
}

#ifdef RAPT_CORR_WGMMA
struct WgInt8 {
  using Acc = int;
  using Acc4 = int4;
  using Sum = int2;
  using Pair = int4;  // the sums of p2 = 0 and 1, next to each other in the output
  static constexpr int kElementBytes = 1;
  // Bytes (re0, im0, re1, im1) -> (im0, -re0, im1, -re1).
  __device__ static uint32_t turn(uint32_t x) { return __byte_perm(x, int8x4_negated(x), 0x6341); }
  __device__ static void mma(int (&d)[64], const uint32_t (&a)[4], uint64_t desc) {
    wgmma_int8(d, a, desc);
  }
  __device__ static void mma_n64(int (&d)[64], const uint32_t (&a)[4], uint64_t desc) {
    wgmma_int8_n64(*reinterpret_cast<int(*)[32]>(&d), a, desc);
  }
  __device__ static Sum added(Sum v, int re, int im) { return int8_sum_added(v, re, unsigned(im)); }
  __device__ static Sum low(Pair p) { return make_int2(p.x, p.y); }
  __device__ static Sum high(Pair p) { return make_int2(p.z, p.w); }
  __device__ static Pair pair(Sum a, Sum b) { return make_int4(a.x, a.y, b.x, b.y); }
};

struct WgHalf {
  using Acc = float;
  using Acc4 = float4;
  using Sum = float2;
  using Pair = float4;
  static constexpr int kElementBytes = 2;
  // Halves (re, im) -> (im, -re).
  __device__ static uint32_t turn(uint32_t x) { return __byte_perm(x, 0, 0x1032) ^ 0x80000000u; }
  __device__ static void mma(float (&d)[64], const uint32_t (&a)[4], uint64_t desc) {
    wgmma_half(d, a, desc);
  }
  __device__ static void mma_n64(float (&d)[64], const uint32_t (&a)[4], uint64_t desc) {
    wgmma_half_n64(*reinterpret_cast<float(*)[32]>(&d), a, desc);
  }
  __device__ static Sum added(Sum v, float re, float im) {
    v.x += re;
    v.y += im;
    return v;
  }
  __device__ static Sum low(Pair p) { return make_float2(p.x, p.y); }
  __device__ static Sum high(Pair p) { return make_float2(p.z, p.w); }
  __device__ static Pair pair(Sum a, Sum b) { return make_float4(a.x, a.y, b.x, b.y); }
};
#else
struct WgInt8 {
  static constexpr int kElementBytes = 1;
};
struct WgHalf {
  static constexpr int kElementBytes = 2;
};
#endif

// The blocks of a launch: one a (tile, channel) item, channel by channel, an SM holding one at a
// time. (The tiles off the diagonal of every channel first and the shorter diagonal ones last,
// to end the launch with short blocks, was slower: int8 at 256 stations x 64 channels 0.268
// against 0.243 ms on an H100.) Where the items' count is not a multiple of the SMs', the last
// round of blocks would leave SMs idle (1024 stations x 4 channels: 544 items, 4.1 rounds of an
// H100's 132 SMs, the fifth on 16 of them). The last `tail` items are then each split into
// `pieces` blocks, each taking an equal share of the samples; the last piece of an item to end
// adds the others' sums (left in CorrChunkArgs::split_scratch) to its own, in piece order, and
// writes them.
// On an H100 that took int8 at 1024 stations x 4 channels from 0.229-0.231 to 0.211-0.216 ms,
// fp16 from 0.439-0.448 to 0.393-0.398 ms.
// Tiles on the diagonal still multiply their lower left quarter (below the diagonal). Taking
// them instead as pairs of upper halves (n128) and pairs of lower right quarters (n64) was
// exact but no faster. With both main loops in one body every product ran 11-13 % slower (int8
// at 1024 stations x 32 channels 1.67-1.68 against 1.48-1.51 ms); with a body for each kind of
// block, inlined, int8 at 256 stations x 64 channels took 0.248-0.252 against 0.237-0.238 ms
// and fp16 gained 1-2 %: a pair loads 32 KB a stage where a diagonal tile loads 16, so the
// copies grow as the products shrink, and the kernel is bound by both (on an H100, int8 at
// 1024 x 32: products alone 1.36 ms, copies alone 1.04 ms, the whole 1.49-1.52 ms).
// Measured on an H200 against this kernel (int8 at 64 stations x 1024 channels 0.374 ms, 256 x
// 64 0.239 ms in the same session), all slower or no faster:
// - Blocks that stay on their SM (one an SM) and take the items in turn, copying the next
//   item's first stages while this one's last products run and its sums are written: the loop
//   needs registers the tiles leave none of. With the copying state in shared memory the
//   compiler serialised the one-tile kernel's products for want of registers (int8 64 x 1024
//   0.570 ms, 0.588 with a block per item in that build; 256 x 64 0.297); with the loop built
//   once for each warpgroup's half it spilled 3 KB a thread.
// - Asking L2 for the first 4 stages of the block an SM most likely takes next, as its
//   products end (cp.async.bulk.prefetch.tensor): 1-2 % in that build (64 x 1024 0.407
//   against 0.411-0.419 ms, 256 x 64 0.252 against 0.256; 10 stages no better), whose code
//   alone (a 255th register) cost 8-10 %.
// - 7 stages (7 slots of 32 KB, 14 of 16 KB for one tile a side): 64 x 1024 0.380 ms, 256 x 64
//   0.240, fp16 64 x 1024 0.725 against 0.734.
struct WgmmaGrid {
  int tiles = 1;   // per channel
  int whole = 0;   // items not split: blocks 0 ... whole - 1
  int tail = 0;    // items split, after those
  int pieces = 1;  // blocks per split item
};

// split_scratch: a counter per split item (ints), then each piece's sums,
// [item][piece][group][thread][4]: a thread's re[4g .. 4g + 3] in group g < 16, im in 16 + g.
constexpr size_t kSplitCountersBytes = 4096;  // room for 1024 counters
constexpr size_t kSplitPieceBytes = size_t(kThreads) * 128 * 4;

// Each thread 128 sums of its warpgroup's 64 rows x 128 columns: about 220 registers, 254 with
// the split items' sums (whose loads all go out at once).
// SkipBelow: the lower half of a tile on the diagonal takes only its last 64 columns (see
// lower_diagonal below).
template <class W, bool SkipBelow>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_correlate_kernel(CorrChunkArgs args, WgmmaGrid grid,
                           const __grid_constant__ CUtensorMap rows_map) {
#ifdef RAPT_CORR_WGMMA
  extern __shared__ __align__(128) uint8_t smem[];
  const uint32_t smem_base = (uint32_t(__cvta_generic_to_shared(smem)) + 1023u) & ~1023u;

  // This block's item (tile and channel) and, for a split item, its piece.
  const int block = int(blockIdx.x);
  const bool split = block >= grid.whole;
  const int split_item = split ? (block - grid.whole) / grid.pieces : 0;
  const int piece = split ? (block - grid.whole) % grid.pieces : 0;
  const int item = split ? grid.whole + split_item : block;
  const int chan = item / grid.tiles;

  const int npol = args.npol, nrecv = args.nant * npol, pol_shift = npol - 1;
  int bi, bj;
  tile_of(item % grid.tiles, bi, bj);
  const int half = int(threadIdx.x >> 7);  // this warpgroup's half of the tile
  const bool diagonal = bi == bj;
  // The lower half of a tile on the diagonal: its first 64 columns are below the diagonal, so
  // its products take only the last 64 (n64, into the first 32 sums of each part).
  const bool lower_diagonal = SkipBelow && diagonal && half == 1;
  const int tile_row0 = bi * kTile, row0 = tile_row0 + half * kRows, col0 = bj * kTile;
  // The lower warpgroup of the last tile row may have only rows past the end: it multiplies
  // (rows past the end) with the other, as the products must be issued by whole warpgroups in
  // step with the slots' barriers, and writes nothing.
  const bool rows_here = row0 < nrecv;
  const int64_t row_bytes = args.tpad * 2 * W::kElementBytes;
  // This block's stages: stage0 ... stage0 + nstages - 1 of the rows'.
  const int all_stages = int(row_bytes / kStageBytes);
  const int stage0 = split ? all_stages * piece / grid.pieces : 0;
  const int nstages = split ? all_stages * (piece + 1) / grid.pieces - stage0 : all_stages;

  // Thread 0 alone issues a stage's copies (load_stage): B (the tile's 128 column rows) and, off
  // the diagonal, A (the tile's 128 rows), boxes of 64 rows. Rows past the end are the next
  // channel's, or zero past the last (their products are never written).
  // full: a slot's rows are in (the copies' bytes counted); empty: both warpgroups' products of
  // the slot have ended (one arrival from each).
  constexpr int kSlot = SkipBelow ? kBBytes : kSlotBytes;  // one tile a side: B rows only
  constexpr int kSlots = SkipBelow ? 2 * kStages : kStages;
  const uint32_t bars = smem_base + kSlots * kSlot, empty_bars = bars + kSlots * 8;
  const int chan_row = chan * nrecv;
  auto load_stage = [&](int slot, int stage) {
    const uint32_t dst = smem_base + slot * kSlot, bar = bars + slot * 8;
    const int x = (stage0 + stage) * kStageBytes;
    barrier_expect(bar, (diagonal ? kTile : 2 * kTile) * kStageBytes);
#pragma unroll
    for (int h = 0; h < kTile / kRows; ++h)
      tensor_copy(dst + h * kRows * kStageBytes, &rows_map, x, chan_row + col0 + h * kRows, bar);
    if (diagonal) return;
#pragma unroll
    for (int h = 0; h < kTile / kRows; ++h)
      tensor_copy(dst + kBBytes + h * kRows * kStageBytes, &rows_map, x,
                  chan_row + tile_row0 + h * kRows, bar);
  };
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < kSlots; ++k) {
      barrier_init(bars + k * 8, 1);
      barrier_init(empty_bars + k * 8, 2);
    }
    barrier_init_fence();
  }
  __syncthreads();

  const int lane = threadIdx.x & 31, wq = (threadIdx.x >> 5) & 3;  // warp of the warpgroup
  using Acc = typename W::Acc;
  Acc re[64], im[64];
#pragma unroll
  for (int k = 0; k < 64; ++k) re[k] = im[k] = Acc(0);

  // This lane's ldmatrix row at each step: its warp's 16 rows, two 16-byte chunks of the step.
  // A is its warpgroup's rows of the tile's A rows, or of B on the diagonal, rows half * 64 on
  // (a multiple of 8: the same swizzle).
  const uint32_t a_offset = diagonal ? uint32_t(half * kRows * kStageBytes)
                                     : uint32_t(kBBytes + half * kRows * kStageBytes);
  uint32_t a_at[4];
#pragma unroll
  for (int step = 0; step < 4; ++step)
    a_at[step] = a_offset + swizzled(wq * 16 + (lane & 7) + ((lane >> 3) & 1) * 8,
                                     step * 2 + (lane >> 4));

  // Stages are loaded kAhead ahead, into the slot of the stage two before (one stage's
  // products are left running), once both warpgroups have said that slot's products ended: the
  // warpgroups do not wait for each other at every stage, only the copying thread waits for a
  // warpgroup two stages behind.
  constexpr int kAhead = kSlots - 2;
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < kAhead; ++s)
      if (s < nstages) load_stage(s, s);
  }
  // A stage's rows are in; the next loads go out; this warpgroup's A rows come to registers
  // (as loaded, and turned by i); its products are issued.
  // `lower`: std::integral_constant, lower_diagonal (the main loop is built once for each, so
  // the products' accumulators keep their registers without a branch between stages).
  auto start_stage = [&](auto lower, int stage, uint32_t (&a)[4][4], uint32_t (&turned)[4][4]) {
    barrier_wait(bars + (stage % kSlots) * 8, uint32_t(stage / kSlots) & 1u);
    const int next = stage + kAhead;
    if (threadIdx.x == 0 && next < nstages) {
      if (next >= kSlots)  // the slot's last stage, next - kSlots, must have ended everywhere
        barrier_wait(empty_bars + (next % kSlots) * 8, uint32_t(next / kSlots - 1) & 1u);
      load_stage(next % kSlots, next);
    }
    const uint32_t slot = smem_base + (stage % kSlots) * kSlot;
#pragma unroll
    for (int step = 0; step < 4; ++step) {
      ldmatrix_x4(a[step], slot + a_at[step]);
#pragma unroll
      for (int k = 0; k < 4; ++k) turned[step][k] = W::turn(a[step][k]);
    }
    wgmma_fence();
    if constexpr (decltype(lower)::value) {
#pragma unroll
      for (int step = 0; step < 4; ++step) {
        const uint64_t desc = smem_descriptor(slot + kRows * kStageBytes + step * 32);
        W::mma_n64(re, a[step], desc);
        W::mma_n64(im, turned[step], desc);
      }
    } else {
#pragma unroll
      for (int step = 0; step < 4; ++step) {
        const uint64_t desc = smem_descriptor(slot + step * 32);
        W::mma(re, a[step], desc);
        W::mma(im, turned[step], desc);
      }
    }
    wgmma_commit();
  };
  // Each stage's products are left running while the previous stage's are waited for, so that
  // the tensor cores always have the next group queued. A (and A turned) alternate between two
  // register sets, `cur` for this stage's products and `prev` for the ones still running.
  auto main_loop = [&](auto lower) {
    auto run_stage = [&](int stage, uint32_t (&cur)[4][4], uint32_t (&cur_turned)[4][4],
                         const uint32_t (&prev)[4][4], const uint32_t (&prev_turned)[4][4]) {
      start_stage(lower, stage, cur, cur_turned);
      wgmma_wait<1>();  // the previous stage's products are done
      hold(prev);
      hold(prev_turned);
      if (stage > 0 && (threadIdx.x & 127) == 0)  // this warpgroup is done with that slot
        barrier_arrive(empty_bars + ((stage - 1) % kSlots) * 8);
    };
    uint32_t a0[4][4], t0[4][4], a1[4][4], t1[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int k = 0; k < 4; ++k) a1[i][k] = t1[i][k] = 0;  // `prev` of the first stage
    int stage = 0;
    for (; stage + 1 < nstages; stage += 2) {
      run_stage(stage, a0, t0, a1, t1);
      run_stage(stage + 1, a1, t1, a0, t0);
    }
    if (stage < nstages) run_stage(stage, a0, t0, a1, t1);
    wgmma_wait<0>();
    hold(a0);
    hold(t0);
    hold(a1);
    hold(t1);
  };
  if (lower_diagonal)
    main_loop(std::integral_constant<bool, true>());
  else
    main_loop(std::integral_constant<bool, false>());

  // sums[4g .. 4g + 3] += from[g kThreads], g < 16.
  auto add_groups = [](Acc (&sums)[64], const typename W::Acc4* from) {
#pragma unroll
    for (int g = 0; g < 16; ++g) {
      const typename W::Acc4 x = __ldcg(from + g * kThreads);
      sums[4 * g] += x.x;
      sums[4 * g + 1] += x.y;
      sums[4 * g + 2] += x.z;
      sums[4 * g + 3] += x.w;
    }
  };
  if (split) {
    // Every piece leaves its sums, 16 bytes a thread at a time; the last to end takes the item's
    // counter back to 0 (as the next launch wants it) and adds them all, in piece order, so the
    // sums do not depend on which piece ended last.
    using Acc4 = typename W::Acc4;
    uint8_t* scratch = static_cast<uint8_t*>(args.split_scratch);
    int* counter = reinterpret_cast<int*>(scratch) + split_item;
    Acc4* parts = reinterpret_cast<Acc4*>(scratch + kSplitCountersBytes) +
                  size_t(split_item) * grid.pieces * (kSplitPieceBytes / sizeof(Acc4));
    constexpr int kPieceGroups = int(kSplitPieceBytes / sizeof(Acc4));
    Acc4* mine = parts + piece * kPieceGroups + threadIdx.x;
#pragma unroll
    for (int g = 0; g < 16; ++g) {
      mine[g * kThreads] = Acc4{re[4 * g], re[4 * g + 1], re[4 * g + 2], re[4 * g + 3]};
      mine[(16 + g) * kThreads] = Acc4{im[4 * g], im[4 * g + 1], im[4 * g + 2], im[4 * g + 3]};
    }
    __threadfence();
    __syncthreads();
    __shared__ int last;
    if (threadIdx.x == 0) {
      last = atomicAdd(counter, 1) == grid.pieces - 1;
      if (last) *counter = 0;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    // Its own sums too from the scratch, as stored. A piece's loads all go out together (one
    // 16-byte load per group), not one chain of dependent loads per sum.
#pragma unroll
    for (int v = 0; v < 64; ++v) re[v] = im[v] = Acc(0);
#pragma unroll 1
    for (int q = 0; q < grid.pieces; ++q) {
      const Acc4* part = parts + q * kPieceGroups + threadIdx.x;
      add_groups(re, part);
      add_groups(im, part + 16 * kThreads);
    }
  }
  if (!rows_here) return;

  // Thread holds rows g and g + 8 of its warp's 16, columns 8j + 2t and 8j + 2t + 1. The sums
  // are added to in groups of kGroup: all the group's loads go out before any store, since the
  // compiler, not knowing that the addresses differ, would otherwise wait for each store
  // before the next load (then 45 % of the warps' stalls at 1024 stations x 4096 samples).
  const int g = lane >> 2, t = lane & 3;
  const int64_t nbl = int64_t(args.nant) * (args.nant + 1) / 2;
  using Sum = typename W::Sum;
  Sum* sums = static_cast<Sum*>(args.sums) + (args.chan0 + chan) * nbl * npol * npol;
  // The n64 products' sums are the first 8 column groups, of the tile's last 64 columns.
  const int sum_col0 = col0 + (lower_diagonal ? kRows : 0), groups = lower_diagonal ? 8 : 16;
  if (npol == 2) {
    // A thread's columns 8j + 2t and 8j + 2t + 1 are one station's p2 = 0 and 1, next to each
    // other in the output: one 16-byte store writes both, and a warp's store whole lines
    // (rows g = 0..7 are 4 stations x p1, 16 bytes apart). With a store of each sum on its own,
    // every line was written in two halves: int8 at 256-1024 stations 56-58 against 60-62 % of
    // the dense peak, fp16 60-62 against 61-64 %, on an H100.
    using Pair = typename W::Pair;
    constexpr int kGroup = 8;  // four column groups j, rows g and g + 8
#pragma unroll
    for (int j0 = 0; j0 < 16; j0 += kGroup / 2) {
      if (j0 >= groups) break;
      Pair* where[kGroup];
      Pair old[kGroup];
#pragma unroll
      for (int k = 0; k < kGroup; ++k) {
        const int j = j0 + k / 2, h = k % 2;
        const int r1 = row0 + wq * 16 + g + h * 8, r2 = sum_col0 + j * 8 + 2 * t;
        where[k] = nullptr;
        if (r1 >= nrecv || r2 >= nrecv) continue;
        const int a1 = r1 >> 1, a2 = r2 >> 1;
        if (a1 > a2) continue;
        const int64_t at = (device_baseline_index(a1, a2) * 2 + (r1 & 1)) * 2;
        where[k] = reinterpret_cast<Pair*>(sums + at);
        old[k] = args.first ? Pair{} : *where[k];
      }
#pragma unroll
      for (int k = 0; k < kGroup; ++k) {
        const int v = 4 * (j0 + k / 2) + 2 * (k % 2);  // p2 = 0 at v, p2 = 1 at v + 1
        if (where[k])
          *where[k] = W::pair(W::added(W::low(old[k]), re[v], im[v]),
                              W::added(W::high(old[k]), re[v + 1], im[v + 1]));
      }
    }
    return;
  }
  constexpr int kGroup = 8;  // two column groups j of 4 values each
#pragma unroll
  for (int j0 = 0; j0 < 16; j0 += kGroup / 4) {
    if (j0 >= groups) break;
    Sum* where[kGroup];
    Sum old[kGroup];
#pragma unroll
    for (int k = 0; k < kGroup; ++k) {
      const int j = j0 + k / 4, e = k % 4;
      const int r1 = row0 + wq * 16 + g + (e >> 1) * 8;
      const int r2 = sum_col0 + j * 8 + 2 * t + (e & 1);
      where[k] = nullptr;
      if (r1 >= nrecv || r2 >= nrecv) continue;
      const int a1 = r1 >> pol_shift, a2 = r2 >> pol_shift;
      if (a1 > a2) continue;
      const int p1 = r1 - (a1 << pol_shift), p2 = r2 - (a2 << pol_shift);
      where[k] = sums + (device_baseline_index(a1, a2) * npol + p1) * npol + p2;
      old[k] = args.first ? Sum{} : *where[k];
    }
#pragma unroll
    for (int k = 0; k < kGroup; ++k) {
      const int j = j0 + k / 4, e = k % 4;
      if (where[k]) *where[k] = W::added(old[k], re[4 * j + e], im[4 * j + e]);
    }
  }
#endif
}

// The packed input as a 2-D tensor of bytes: rows (receivers of every channel of the launch)
// of row_bytes, read in boxes of 128 bytes x 64 rows with the 128-byte swizzle.
CUtensorMap packed_rows_map(const CorrChunkArgs& args, int element_bytes) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  static std::once_flag found;
  std::call_once(found, [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult status{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &status) == cudaSuccess &&
        status == cudaDriverEntryPointSuccess)
      encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  });
  if (!encode) throw DataError("wgmma correlator: the driver has no cuTensorMapEncodeTiled");
  const uint64_t row_bytes = uint64_t(args.tpad) * 2 * uint64_t(element_bytes);
  CUtensorMap map{};
  const cuuint64_t dims[2] = {row_bytes, uint64_t(args.nchan) * uint64_t(args.nant * args.npol)};
  const cuuint64_t strides[1] = {row_bytes};
  const cuuint32_t box[2] = {kStageBytes, kRows}, element_strides[2] = {1, 1};
  const CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<void*>(args.packed),
                            dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw DataError("wgmma correlator: cuTensorMapEncodeTiled failed (" + std::to_string(int(r)) + ")");
  return map;
}

// The last round's items split where that fills more of the SMs: its `tail` items into
// `pieces` blocks each, as many as the SMs hold (one block each) and at most kMostPieces
// (and no more than the stages, so that each piece has some), when scratch is given.
constexpr int kMostPieces = 8;

WgmmaGrid wgmma_grid(const CorrChunkArgs& args, int tiles, int stages) {
  WgmmaGrid g;
  g.tiles = tiles;
  const int64_t items = int64_t(tiles) * args.nchan;
  const int sms = cuda::multiprocessor_count(cuda::current_device());
  const int tail = int(items % sms);
  const int pieces = tail ? std::min({kMostPieces, sms / tail, stages}) : 1;
  const bool room = size_t(tail) * sizeof(int) <= kSplitCountersBytes;
  if (args.split_scratch && pieces > 1 && room) {
    g.whole = int(items - tail);
    g.tail = tail;
    g.pieces = pieces;
  } else {
    g.whole = int(items);
  }
  return g;
}

template <class W>
void launch_wgmma(const CorrChunkArgs& args, cudaStream_t stream) {
  const int side = (args.nant * args.npol + kTile - 1) / kTile;
  // Skipping below the diagonal pays where one tile holds every receiver (up to 64
  // dual-polarisation stations, bound by memory: int8 76 -> 78-80 % of the roofline, fp16 83 ->
  // 87-88 % on an H100); with more tiles it ran slower, though the products it leaves out are a
  // tenth of all at 256 stations: int8 at 256 stations x 64 channels 0.260 against 0.243 ms,
  // 1024 x 4 0.233 against 0.216-0.218, fp16 at 256 x 64 0.514 against 0.471-0.473 (H100).
  const auto kernel = side == 1 ? wgmma_correlate_kernel<W, true> : wgmma_correlate_kernel<W, false>;
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), size_t(kSmemBytes),
                                    "wgmma correlator");
  const int stages = int(args.tpad * 2 * W::kElementBytes / kStageBytes);
  const WgmmaGrid grid = wgmma_grid(args, side * (side + 1) / 2, stages);
  const unsigned blocks = unsigned(grid.whole + grid.tail * grid.pieces);
  kernel<<<blocks, kThreads, kSmemBytes, stream>>>(args, grid,
                                                   packed_rows_map(args, W::kElementBytes));
  RAPT_CUDA_CHECK_LAUNCH("wgmma correlator");
}

}  // namespace

// Asks the device which build of this file it runs (the sm_90a one has the kernels), once.
bool wgmma_correlator_available() {
  int device = 0;
  RAPT_CUDA_CHECK(cudaGetDevice(&device));
  static std::atomic<int> known[64];  // per device: 0 not asked yet, 1 no, 2 yes
  if (device < 0 || device >= 64) return false;
  if (known[device] == 0) {
    int* flag = nullptr;
    RAPT_CUDA_CHECK(cudaMalloc(&flag, sizeof(int)));
    wgmma_probe_kernel<<<1, 1>>>(flag);
    int host = 0;
    RAPT_CUDA_CHECK(cudaMemcpy(&host, flag, sizeof(int), cudaMemcpyDeviceToHost));
    RAPT_CUDA_CHECK(cudaFree(flag));
    known[device] = host ? 2 : 1;
  }
  return known[device] == 2;
}

int wgmma_correlator_tile() { return kTile; }

size_t corr_split_scratch_bytes(CorrPrecision precision, int nrecv) {
  if (precision == CorrPrecision::fp32 || !use_wgmma_correlator(nrecv)) return 0;
  return kSplitCountersBytes +
         size_t(cuda::multiprocessor_count(cuda::current_device())) * kSplitPieceBytes;
}

void launch_wgmma_correlator(CorrPrecision precision, const CorrChunkArgs& args,
                             cudaStream_t stream) {
  if (precision == CorrPrecision::int8)
    launch_wgmma<WgInt8>(args, stream);
  else
    launch_wgmma<WgHalf>(args, stream);
}

}  // namespace rapt::gpu
