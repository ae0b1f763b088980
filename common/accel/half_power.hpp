// Plane powers stored in half precision (accelgpu --fp16). Powers span from about 1e-3 to
// over 1e7 (the red-noise bins near DC), past binary16's largest value, so the plane holds each
// power's square root (the amplitude) as an IEEE binary16, rounded to nearest even as the GPU's
// __float2half_rn rounds: 11 significant bits of amplitude, a relative error of at most 2^-10
// in power, and powers up to 65504^2 (4.3e9), where they saturate. The CPU engine stores every
// power through this function, so both engines hold the same plane values and find the same
// candidates.
#pragma once
#include <cmath>

namespace rapt {

inline constexpr float kHalfAmplitudeMax = 65504.0f;  // the largest finite binary16 value

// The binary16 amplitude stored for `power`.
inline _Float16 half_amplitude_of(float power) {
  const float amplitude = std::sqrt(power);
  return static_cast<_Float16>(amplitude < kHalfAmplitudeMax ? amplitude : kHalfAmplitudeMax);
}

// The power a half-precision plane gives back for `power`: the stored amplitude squared.
inline float half_precision_power(float power) {
  const float amplitude = static_cast<float>(half_amplitude_of(power));
  return amplitude * amplitude;
}

}  // namespace rapt
