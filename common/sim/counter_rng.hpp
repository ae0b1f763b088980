// A counter-based random number generator: the n-th random word of a stream is a pure function
// of (key, n), so any sample can be generated alone, in any order, by any thread, and the data
// do not depend on how the work is split. The function is SplitMix64's output stage applied to
// key + (n + 1) * gamma, i.e. SplitMix64 started at `key` (Steele, Lea and Flood 2014), which
// passes BigCrush.
#pragma once
#include <cstdint>

namespace rapt {

constexpr uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ULL;

constexpr uint64_t splitmix64_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The n-th 64-bit word of the stream `key`.
constexpr uint64_t counter_random64(uint64_t key, uint64_t n) {
  return splitmix64_mix(key + (n + 1) * kSplitMixGamma);
}

// A stream key from a user seed and a purpose tag, so that different uses of one seed draw
// from unrelated streams.
constexpr uint64_t stream_key(uint64_t seed, uint64_t purpose) {
  return splitmix64_mix(splitmix64_mix(seed ^ 0x5DEECE66DULL) + purpose * kSplitMixGamma);
}

}  // namespace rapt
