// Power and phase of the interpolated spectrum at a point of the f-fdot plane, with their first
// and second derivatives in r: PRESTO's rderivs (get_derivs3d with w = 0).
#pragma once
#include <complex>
#include <cstdint>

namespace rapt {

struct FourierDerivs {
  double pow = 0.0;     // raw (un-normalised) power |A|^2
  double phs = 0.0;     // phase of A in (0, 2 pi] (atan2, negative values + 2 pi)
  double dpow = 0.0;    // d pow / dr
  double dphs = 0.0;    // d phs / dr
  double d2pow = 0.0;   // d^2 pow / dr^2
  double d2phs = 0.0;   // d^2 phs / dr^2
  double locpow = 0.0;  // local power level passed in
};

// Central differences with step 0.003 bins over the five points r - 0.006 ... r + 0.006 (high-
// accuracy kernel for z). Phases are unwrapped left to right by subtracting 2 pi where a step
// exceeds pi, as PRESTO does. PRESTO keeps these powers and phases in float; here they are
// double, which changes d2pow (and so purity) by PRESTO's float rounding noise (~1e-3 relative).
FourierDerivs fourier_derivs(const std::complex<float>* spectrum, int64_t numbins, double r,
                             double z, double locpow);

}  // namespace rapt
