#include "sim/noise.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "sim/counter_rng.hpp"

#if defined(__SSE__)
#include <xmmintrin.h>
#elif defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace rapt {

namespace {

// Four lanes of GCC/Clang vector extensions: one SSE register on baseline x86-64, one NEON
// register on ARM. Each lane computes exactly what a lone lane would, so a deviate does not
// depend on its position in a batch.
constexpr int kLanes = 4;
constexpr int kPairsPerBatch = 16;
typedef float Floats __attribute__((vector_size(16)));
typedef int32_t Ints __attribute__((vector_size(16)));
typedef uint32_t Words __attribute__((vector_size(16)));

inline Floats square_root(Floats x) {
#if defined(__SSE__)
  return _mm_sqrt_ps(x);
#elif defined(__ARM_NEON) && defined(__aarch64__)
  return vsqrtq_f32(x);
#else
  Floats r;
  for (int j = 0; j < kLanes; ++j) r[j] = std::sqrt(x[j]);
  return r;
#endif
}

// ln(x) for x in (0, 1], relative error ~1e-7: x = m 2^e with m in [sqrt(1/2), sqrt(2)),
// ln m = 2 atanh(t) with t = (m - 1) / (m + 1), |t| < 0.172, by its series to t^9.
inline Floats fast_log(Floats x) {
  const Words bits = (Words)x;  // vector casts reinterpret the bits
  Ints exponent = (Ints)(bits >> 23);
  exponent = (exponent & 0xff) - 127;
  const Words mantissa_bits = (bits & 0x007fffffu) | 0x3f800000u;
  Floats m = (Floats)mantissa_bits;
  const Ints big = m > 1.41421356f;  // -1 where true
  m = big ? m * 0.5f : m;
  exponent -= big;
  const Floats t = (m - 1.0f) / (m + 1.0f);
  const Floats t2 = t * t;
  const Floats series =
      1.0f + t2 * (1.0f / 3 + t2 * (1.0f / 5 + t2 * (1.0f / 7 + t2 * (1.0f / 9))));
  return __builtin_convertvector(exponent, Floats) * 0.693147180559945f + 2.0f * t * series;
}

// Box-Muller for four random words: out[2j], out[2j + 1] = r cos(a), r sin(a).
inline void box_muller_lanes(const uint64_t* words, float* out) {
  const Ints radius_int = {static_cast<int32_t>(words[0] >> 33), static_cast<int32_t>(words[1] >> 33),
                           static_cast<int32_t>(words[2] >> 33), static_cast<int32_t>(words[3] >> 33)};
  const Ints angle_int = {static_cast<int32_t>(words[0] & 0xffffffu),
                          static_cast<int32_t>(words[1] & 0xffffffu),
                          static_cast<int32_t>(words[2] & 0xffffffu),
                          static_cast<int32_t>(words[3] & 0xffffffu)};
  // Radius from 31 bits: u1 in (0, 1], r = sqrt(-2 ln u1) <= 6.66.
  const Floats u1 = (__builtin_convertvector(radius_int, Floats) + 0.5f) * 0x1p-31f;
  Floats r2 = -2.0f * fast_log(u1);
  r2 = r2 > 0.0f ? r2 : 0.0f;
  const Floats r = square_root(r2);

  // Angle from 24 bits in quarter turns, x in [0, 4): quadrant q = round(x),
  // theta in [-pi/4, pi/4].
  const Floats x = __builtin_convertvector(angle_int, Floats) * 0x1p-22f;
  const Ints q = __builtin_convertvector(x + 0.5f, Ints);
  const Floats theta = (x - __builtin_convertvector(q, Floats)) * 1.57079632679490f;
  const Floats th2 = theta * theta;
  const Floats s = theta * (1.0f + th2 * (-1.0f / 6 + th2 * (1.0f / 120 + th2 * (-1.0f / 5040 +
                                                                             th2 * (1.0f / 362880)))));
  const Floats c = 1.0f + th2 * (-0.5f + th2 * (1.0f / 24 + th2 * (-1.0f / 720 + th2 * (1.0f / 40320))));
  // cos(q pi/2 + theta), sin(q pi/2 + theta): swap for odd q, then flip signs.
  const Ints odd = (q & 1) != 0;
  const Floats cosine = odd ? s : c;
  const Floats sine = odd ? c : s;
  const Words quadrant = (Words)q;
  // Adding +0 turns the -0 of r = 0 into +0, so that adding a zero signal later (or not adding
  // it) cannot flip the sign of a zero in float output.
  const Floats z0 = r * (Floats)((Words)cosine ^ (((quadrant + 1u) & 2u) << 30)) + 0.0f;
  const Floats z1 = r * (Floats)((Words)sine ^ ((quadrant & 2u) << 30)) + 0.0f;
  const Floats low = __builtin_shuffle(z0, z1, Ints{0, 4, 1, 5});
  const Floats high = __builtin_shuffle(z0, z1, Ints{2, 6, 3, 7});
  std::memcpy(out, &low, sizeof low);
  std::memcpy(out + kLanes, &high, sizeof high);
}

// Deviates 2 * first_pair .. 2 * first_pair + 2 * kPairsPerBatch - 1.
void normal_batch(uint64_t key, uint64_t first_pair, float* out) {
  uint64_t words[kPairsPerBatch];
  for (int j = 0; j < kPairsPerBatch; ++j) words[j] = counter_random64(key, first_pair + j);
  for (int j = 0; j < kPairsPerBatch; j += kLanes) box_muller_lanes(words + j, out + 2 * j);
}

}  // namespace

void fill_standard_normal(uint64_t key, uint64_t first, size_t count, float* out) {
  constexpr size_t kBatch = 2 * kPairsPerBatch;
  float spare[kBatch];
  uint64_t pair = first / 2;
  size_t done = 0;
  if (count > 0 && first % 2 == 1) {  // starts on the second deviate of a pair
    normal_batch(key, pair, spare);
    out[done++] = spare[1];
    ++pair;
  }
  for (; count - done >= kBatch; done += kBatch, pair += kPairsPerBatch)
    normal_batch(key, pair, out + done);
  if (done < count) {
    normal_batch(key, pair, spare);
    std::memcpy(out + done, spare, (count - done) * sizeof(float));
  }
}

std::vector<float> bandpass_gains(int nchans, bool flat) {
  std::vector<float> gains(static_cast<size_t>(nchans), 1.0f);
  if (flat) return gains;
  std::vector<double> shape(gains.size());
  for (int c = 0; c < nchans; ++c) {
    const double x = (c + 0.5) / nchans;  // position across the band, 0..1
    const double edges = 1.0 / (1.0 + std::exp(-(x - 0.05) / 0.015)) /
                         (1.0 + std::exp((x - 0.95) / 0.015));
    const double ripple = 0.9 + 0.06 * std::cos(2 * M_PI * 1.3 * x) +
                          0.04 * std::sin(2 * M_PI * 3.1 * x + 1.0);
    shape[c] = edges * ripple;
  }
  const double peak = *std::max_element(shape.begin(), shape.end());
  for (int c = 0; c < nchans; ++c)
    gains[c] = static_cast<float>(0.15 + 0.85 * shape[c] / peak);
  return gains;
}

}  // namespace rapt
