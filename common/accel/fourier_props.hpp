// Measured properties of a Fourier peak (PRESTO's calc_props, after Middleditch, Deich &
// Kulkarni 1993) and the coherent harmonic sum accelsearch prints in its fundamentals table.
#pragma once
#include <vector>

#include "accel/fourier_derivs.hpp"
#include "io/accel_files.hpp"

namespace rapt {

// calc_props: with P = derivs.pow / derivs.locpow (normalised power) and P'' likewise,
//   pur = sqrt(1.5 |P''| / P) / pi (1 if P ~ 0), purerr = 1 / (pur sqrt(10 P)),
//   rerr = 3 / (pi pur sqrt(6 P)), zerr = 3 sqrt(10) / (pi pur^2 sqrt(P)),
//   werr = 6 sqrt(105) / (pi pur^3 sqrt(P)), powerr = sqrt(2 P), sig = sqrt(2 P - ln(pi P)),
//   rawpow = derivs.pow, phs = derivs.phs, phserr = 1 / powerr, cen = -dphs / (2 pi),
//   cenerr = 1 / sqrt(24 P), locpow = derivs.locpow; r, z, w as given.
// Throws DataError when |pow| or locpow is below 1e-14 (PRESTO stops there too).
FourierProps fourier_props(const FourierDerivs& derivs, double r, double z, double w);

// output_fundamentals' coherent power: |sum_n a_n exp(i (phs_n + phs_1 - fmod(n phs_1, 2 pi)))|^2
// with a_n = sqrt(pow_n / locpow_n), or sqrt(pow_n / photons) when photons > 0 (-photon runs).
// The phase correction assumes the fundamental's phase is right, as PRESTO does.
double coherent_power(const std::vector<FourierDerivs>& harmonics, double photons = 0.0);

}  // namespace rapt
