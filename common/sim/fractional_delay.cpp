#include "sim/fractional_delay.hpp"

#include <algorithm>
#include <cmath>

#include "cli/errors.hpp"

namespace rapt {

namespace {

constexpr double kKaiserBeta = 3.0;

// The modified Bessel function I0 by its power series (30 terms: exact in double for x <= 8).
double bessel_i0(double x) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 30; ++k) {
    term *= (x / (2 * k)) * (x / (2 * k));
    sum += term;
  }
  return sum;
}

}  // namespace

FractionalDelayFilter::FractionalDelayFilter(int taps) : taps_(taps) {
  if (taps < 2 || taps > 64 || taps % 2 != 0)
    throw UsageError("the fractional-delay filter needs an even number of taps from 2 to 64 (got " +
                     std::to_string(taps) + ")");
}

void FractionalDelayFilter::taps_for(double g, float* h) const {
  const int first = first_offset();
  if (g == 0.0) {
    for (int j = 0; j < taps_; ++j) h[j] = (first + j == 0) ? 1.0f : 0.0f;
    return;
  }
  double values[64];
  double sum_squares = 0.0;
  for (int j = 0; j < taps_; ++j) {
    const double x = (first + j) - g;  // distance from the wanted position, samples
    const double sinc = std::sin(M_PI * x) / (M_PI * x);
    double window = 1.0 - std::fabs(x);  // T = 2: the triangle (linear interpolation)
    if (taps_ > 2) {
      // Kaiser window, beta 3, spanning the taps: a gentle taper keeps more of the sinc's
      // energy than steeper windows, which matters for the power-normalised correlations.
      const double r = 2 * x / taps_;
      window = bessel_i0(kKaiserBeta * std::sqrt(std::max(0.0, 1 - r * r))) / bessel_i0(kKaiserBeta);
      values[j] = sinc * window;
    } else {
      values[j] = window;
    }
    sum_squares += values[j] * values[j];
  }
  const double norm = 1.0 / std::sqrt(sum_squares);
  for (int j = 0; j < taps_; ++j) h[j] = static_cast<float>(values[j] * norm);
}

}  // namespace rapt
