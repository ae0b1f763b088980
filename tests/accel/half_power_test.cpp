// Half-precision plane powers (accelgpu --fp16): the stored amplitude's rounding, the relative
// error of the power given back, and saturation.
#include <gtest/gtest.h>

#include <cmath>

#include "accel/half_power.hpp"

namespace rapt {
namespace {

TEST(HalfPower, GivesBackPowersWhoseAmplitudeBinary16HoldsExactly) {
  for (const float amplitude : {0.0f, 1.0f, 0.5f, 1.5f, 3.0f, 2048.0f, 65504.0f}) {
    const float power = amplitude * amplitude;
    EXPECT_EQ(half_precision_power(power), power) << power;
  }
}

TEST(HalfPower, RoundsTheAmplitudeToElevenSignificantBitsNearestEven) {
  // Between 1 and 2 the binary16 step is 2^-10.
  const float step = std::ldexp(1.0f, -10);
  auto stored = [](float amplitude) { return float(half_amplitude_of(amplitude * amplitude)); };
  EXPECT_EQ(stored(1.0f + 0.49f * step), 1.0f);
  EXPECT_EQ(stored(1.0f + 0.51f * step), 1.0f + step);
  EXPECT_EQ(half_amplitude_of(std::pow(1.0f + 1.5f * step, 2.0f)),
            _Float16(1.0f + 2.0f * step));  // a tie goes to the even neighbour
}

TEST(HalfPower, KeepsPowersToTwoToTheMinusTenFromNoiseToRedNoise) {
  for (float p = 1e-3f; p < 4e9f; p *= 1.37f) {
    EXPECT_LE(std::fabs(half_precision_power(p) - p), std::ldexp(p, -10) * 1.001f) << p;
  }
}

TEST(HalfPower, SaturatesAtTheLargestFiniteAmplitude) {
  const float largest = 65504.0f * 65504.0f;
  EXPECT_EQ(half_precision_power(4.3e9f), largest);
  EXPECT_EQ(half_precision_power(1e20f), largest);
  EXPECT_EQ(half_precision_power(INFINITY), largest);
}

}  // namespace
}  // namespace rapt
