// Device helpers shared by the correlator's kernels: asynchronous copies into shared memory,
// the tile a block owns, the index of a baseline, an int8 sum's addition, int8 negation.
#pragma once
#include <cstdint>

namespace rapt::gpu {

// 16 bytes global -> shared without passing through registers (completes at cp_async_wait).
__device__ inline void cp_async16(uint32_t shared_dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_dst), "l"(src));
}
__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// Tile k of the tiles on and above the diagonal, column by column: (bi, bj) with bi <= bj,
// k = bj (bj + 1) / 2 + bi (the baselines' own order, one level up).
__device__ inline void tile_of(int k, int& bi, int& bj) {
  int j = int((sqrtf(8.0f * float(k) + 1.0f) - 1.0f) * 0.5f);
  while ((j + 1) * (j + 2) / 2 <= k) ++j;  // the float square root may be one off
  while (j * (j + 1) / 2 > k) --j;
  bj = j;
  bi = k - j * (j + 1) / 2;
}

// An int8 visibility sum (an int32 pair) plus a launch's products. Added modulo 2^32: a step
// may pass int32's range where the sum itself cannot, as a sum holds at most kInt8SafeSamples
// samples (corr_kernels.hpp).
__device__ inline int2 int8_sum_added(int2 v, int re, unsigned im) {
  return make_int2(int(unsigned(v.x) + unsigned(re)), int(unsigned(v.y) + im));
}

// Each of the four int8 values of x negated, as ~x + 1 with no carry from one byte into the
// next. Exact for -127..127, the packed values' range (-128, which has no negation, is clamped
// when the input is packed).
__device__ inline uint32_t int8x4_negated(uint32_t x) {
  const uint32_t y = ~x;
  return ((y & 0x7f7f7f7fu) + 0x01010101u) ^ (y & 0x80808080u);
}

__device__ inline int64_t device_baseline_index(int a1, int a2) {
  return int64_t(a2) * (a2 + 1) / 2 + a1;
}

}  // namespace rapt::gpu
