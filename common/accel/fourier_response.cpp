#include "accel/fourier_response.hpp"

#include <cmath>

#include "accel/fourier_response_core.hpp"

namespace rapt {

int z_response_halfwidth(double z, ResponseAccuracy accuracy) {
  // Same expression as PRESTO so that the truncation falls at the same z.
  return fdotmath::response_halfwidth(z, accuracy == ResponseAccuracy::High);
}

std::complex<double> fdot_response_coefficient(double delta_r, double z) {
  using namespace fdotmath;
  const bool drift = std::fabs(z) >= kSmallZ;
  const DriftResponse g = drift ? drift_response(std::fabs(z)) : DriftResponse{0.0, 0.0, 0.0};
  const Complex c =
      response_coefficient(delta_r, z, g, drift ? cis_two_pi(delta_r) : Complex{1.0, 0.0});
  return {c.re, c.im};
}

}  // namespace rapt
