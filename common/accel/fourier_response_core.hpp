// The f-fdot response coefficients (fourier_response.hpp), written once for host and device.
//
// For z > 0, completing the square with q = d - z/2, Y = q sqrt(2/z), Z = (q + z) sqrt(2/z):
//   g(d, z) = exp(-i theta_Y) / sqrt(2z) * [F(Z) - F(Y)],  F = C + iS,  theta_x = pi x^2 / 2,
// where the rotation phase pi q^2 / z is exactly theta_Y, and theta_Z - theta_Y = 2 pi d.
// With F(x) = sign(x) [(1+i)/2 - E(|x|) exp(i theta_x)] beyond the series limit, the rotation
// cancels every tail's phase: exp(-i theta_Y) F(Z) leaves E(Z) exp(2 pi i d), and
// exp(-i theta_Y) F(Y) leaves E(Y) alone. Only the (1+i)/2 constants and series values keep the
// rotation, so a coefficient costs at most one sincos (none when Y and Z are both in the tail on
// the same side, the common case away from the drift's sweep), with exp(2 pi i d) shared by all
// bins of one interpolation since d differs from bin to bin by whole numbers.
#pragma once
#include <math.h>

#include "accel/fresnel_core.hpp"
#include "accel/host_device.hpp"

namespace rapt::fdotmath {

constexpr int kInterpHalfwidthBins = 16;  // PRESTO's NUMFINTBINS
constexpr double kSmallZ = 1e-4;          // below: plain Fourier interpolation, as PRESTO

// z_response_halfwidth(); `high` selects HIGHACC.
RAPT_HOST_DEVICE inline int response_halfwidth(double z, bool high) {
  const int m = static_cast<int>(0.5 * 1.1 * fabs(z));
  return m + (high ? 3 * kInterpHalfwidthBins : kInterpHalfwidthBins);
}

// conj(g(d, 0)) = exp(-i pi d) sin(pi d) / (pi d)
RAPT_HOST_DEVICE inline Complex interpolation_coefficient(double delta_r) {
  const double x = kPi * delta_r;
  if (fabs(x) < 1e-8) return {1.0 - x * x / 6.0, -x};
  const double sinc = sin(x) / x;
  return {cos(x) * sinc, -sin(x) * sinc};
}

// Constants of g(., z) for one z > 0.
struct DriftResponse {
  double z;            // > 0
  double scale;        // sqrt(2 / z)
  double inv_root_2z;  // 1 / sqrt(2 z)
};

RAPT_HOST_DEVICE inline DriftResponse drift_response(double z) {
  return {z, sqrt(2.0 / z), 1.0 / sqrt(2.0 * z)};
}

// g(d, z) for z > 0 (see the top of this file); cis_2pi_d = exp(2 pi i d).
RAPT_HOST_DEVICE inline Complex positive_z_response(double delta_r, const DriftResponse& g,
                                                    Complex cis_2pi_d) {
  const double q = delta_r - 0.5 * g.z;
  const double y = q * g.scale;
  const double upper = (q + g.z) * g.scale;
  const Complex half{0.5, 0.5};
  Complex rotated{0.0, 0.0};  // still to be multiplied by exp(-i theta_Y)
  Complex plain{0.0, 0.0};
  const double sign_upper = upper < 0.0 ? -1.0 : 1.0;
  const double sign_y = y < 0.0 ? -1.0 : 1.0;
  if (fabs(upper) < kFresnelSeriesLimit) {
    rotated = rotated + sign_upper * fresnel_series(fabs(upper));
  } else {
    rotated = rotated + sign_upper * half;
    plain = plain - sign_upper * (fresnel_tail_amplitude(fabs(upper)) * cis_2pi_d);
  }
  if (fabs(y) < kFresnelSeriesLimit) {
    rotated = rotated - sign_y * fresnel_series(fabs(y));
  } else {
    rotated = rotated - sign_y * half;
    plain = plain + sign_y * fresnel_tail_amplitude(fabs(y));
  }
  if (rotated.re != 0.0 || rotated.im != 0.0) {
    plain = plain + cis(-kPi * q * q / g.z) * rotated;
  }
  return g.inv_root_2z * plain;
}

// fdot_response_coefficient(delta_r, z) given exp(2 pi i delta_r) and the drift constants for
// |z| (unused for |z| < kSmallZ): g(d, z) = conj(g(-d, -z)), so negative drifts reuse the
// positive formula.
RAPT_HOST_DEVICE inline Complex response_coefficient(double delta_r, double z,
                                                     const DriftResponse& g, Complex cis_2pi_d) {
  if (fabs(z) < kSmallZ) return interpolation_coefficient(delta_r);
  if (z > 0.0) return conj(positive_z_response(delta_r, g, cis_2pi_d));
  return positive_z_response(-delta_r, g, conj(cis_2pi_d));
}

// exp(2 pi i d) from d's fractional part (exact), so large d keep an accurate phase.
RAPT_HOST_DEVICE inline Complex cis_two_pi(double d) { return cis(2.0 * kPi * (d - floor(d))); }

}  // namespace rapt::fdotmath
