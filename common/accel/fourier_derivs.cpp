#include "accel/fourier_derivs.hpp"

#include <cmath>

#include "accel/fourier_response.hpp"
#include "accel/rz_interp.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kStepBins = 0.003;  // PRESTO's h, chosen for single-precision powers

double phase_zero_to_two_pi(std::complex<double> a) {
  const double p = std::atan2(a.imag(), a.real());
  return p > 0.0 ? p : p + 2.0 * kPi;
}

}  // namespace

FourierDerivs fourier_derivs(const std::complex<float>* spectrum, int64_t numbins, double r,
                             double z, double locpow) {
  const int halfwidth = z_response_halfwidth(z, ResponseAccuracy::High);
  double pwr[5];
  double phs[5];
  for (int i = 0; i < 5; ++i) {
    const std::complex<double> a =
        rz_interpolate(spectrum, numbins, r + (i - 2) * kStepBins, z, halfwidth);
    pwr[i] = std::norm(a);
    phs[i] = phase_zero_to_two_pi(a);
  }
  for (int i = 0; i < 4; ++i) {
    if (std::fabs(phs[i + 1] - phs[i]) > kPi) phs[i + 1] -= 2.0 * kPi;
  }
  const double twoh = 2.0 * kStepBins;
  const double twoh_squared = twoh * twoh;
  FourierDerivs d;
  d.pow = pwr[2];
  d.phs = phs[2];
  d.dpow = (pwr[3] - pwr[1]) / twoh;
  d.dphs = (phs[3] - phs[1]) / twoh;
  d.d2pow = (pwr[4] - 2.0 * pwr[2] + pwr[0]) / twoh_squared;
  d.d2phs = (phs[4] - 2.0 * phs[2] + phs[0]) / twoh_squared;
  d.locpow = locpow;
  return d;
}

}  // namespace rapt
