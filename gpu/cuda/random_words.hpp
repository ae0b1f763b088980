// Reproducible pseudo-random test data, the same on the host and on the device: the auto-tuner
// and the benchmark fill GPU buffers with it and check results against the CPU without copying
// the input back.
#pragma once
#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define RAPT_HOST_DEVICE __host__ __device__
#else
#define RAPT_HOST_DEVICE
#endif

namespace rapt::gpu {

// A 32-bit integer hash (xorshift-multiply; good enough to make every byte look random).
inline RAPT_HOST_DEVICE uint32_t mix_bits(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

inline RAPT_HOST_DEVICE uint32_t random_word(size_t index, uint32_t seed) {
  return mix_bits(uint32_t(index) ^ mix_bits(uint32_t(uint64_t(index) >> 32) + seed));
}

// Uniform in [-1, 1), 24 random bits.
inline RAPT_HOST_DEVICE float random_float(size_t index, uint32_t seed) {
  return float(random_word(index, seed) >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

// Byte `index` of a buffer filled with random words.
inline RAPT_HOST_DEVICE uint8_t random_byte(size_t index, uint32_t seed) {
  return uint8_t(random_word(index / 4, seed) >> (8 * (index % 4)));
}

}  // namespace rapt::gpu
