// Synthetic series for the single-pulse tests: Gaussian noise with boxcar pulses.
#pragma once
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace rapt::testing {

inline std::vector<float> gaussian_noise(int64_t n, uint64_t seed, float mean = 0.0f,
                                         float sigma = 1.0f) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(mean, sigma);
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) v = normal(rng);
  return x;
}

// Adds `amplitude` (in noise sigmas) to samples [first, first + width).
inline void add_boxcar_pulse(std::vector<float>& x, int64_t first, int width, float amplitude) {
  for (int64_t i = first; i < first + width; ++i) x[size_t(i)] += amplitude;
}

}  // namespace rapt::testing
