#include "accel/fourier_response.hpp"

#include <cmath>

#include "accel/fresnel.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kInterpHalfwidthBins = 16;  // PRESTO's NUMFINTBINS
constexpr double kSmallZ = 1e-4;          // below: plain Fourier interpolation, as PRESTO

// g(d, 0) = exp(i pi d) sinc(pi d)
std::complex<double> interpolation_response(double delta_r) {
  const double x = kPi * delta_r;
  if (std::fabs(x) < 1e-8) return {1.0 - x * x / 6.0, x};
  const double sinc = std::sin(x) / x;
  return {std::cos(x) * sinc, std::sin(x) * sinc};
}

// g(d, z) for z > 0. Completing the square, with q = d - z/2:
//   g = exp(-i pi q^2 / z) / sqrt(2z) * [(C(Z) - C(Y)) + i (S(Z) - S(Y))],
//   Y = q sqrt(2/z), Z = (q + z) sqrt(2/z).
std::complex<double> positive_z_response(double delta_r, double z) {
  const double q = delta_r - 0.5 * z;
  const double scale = std::sqrt(2.0 / z);
  const FresnelValues fy = fresnel_integrals(q * scale);
  const FresnelValues fz = fresnel_integrals((q + z) * scale);
  const double phase = -kPi * q * q / z;
  const std::complex<double> rotation(std::cos(phase), std::sin(phase));
  return rotation * std::complex<double>(fz.c - fy.c, fz.s - fy.s) / std::sqrt(2.0 * z);
}

}  // namespace

int z_response_halfwidth(double z, ResponseAccuracy accuracy) {
  // Same expression as PRESTO so that the truncation falls at the same z.
  const int m = static_cast<int>(0.5 * 1.1 * std::fabs(z));
  return m + (accuracy == ResponseAccuracy::High ? 3 * kInterpHalfwidthBins : kInterpHalfwidthBins);
}

std::complex<double> fdot_response_coefficient(double delta_r, double z) {
  if (std::fabs(z) < kSmallZ) return std::conj(interpolation_response(delta_r));
  // g(d, z) = conj(g(-d, -z)), so negative drifts reuse the positive formula.
  if (z > 0.0) return std::conj(positive_z_response(delta_r, z));
  return positive_z_response(-delta_r, -z);
}

}  // namespace rapt
