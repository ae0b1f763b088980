// PRESTO's Fourier-domain responses for the acceleration search: the half-width of the f-fdot
// kernel and its coefficients (Ransom, Eikenberry & Middleditch 2002, eq. 39).
#pragma once
#include <complex>

namespace rapt {

enum class ResponseAccuracy { Low, High };  // PRESTO's LOWACC / HIGHACC

// Half-width in Fourier bins of the f-fdot response, as PRESTO's z_resp_halfwidth:
// trunc(0.5 * 1.1 * |z|) + 16 (Low) or + 48 (High). z = 0 gives the interpolation half-width
// used by rz_interp: 16 or 48 (PRESTO's r_resp_halfwidth(HIGHACC) is 63, not used here).
int z_response_halfwidth(double z, ResponseAccuracy accuracy);

// Coefficient with which Fourier bin k contributes to the interpolated complex amplitude at
// (r, z): A(r, z) = sum_k F_k * fdot_response_coefficient(r - k, z).
// A signal x(t) = a cos(phi0 + 2 pi (r0 - z/2) t/T + pi z (t/T)^2), i.e. average Fourier frequency
// r0 and drift z = fdot T^2 (z > 0: frequency increasing), gives A(r0, z) = (a N / 2) e^{i phi0}
// for an unnormalised forward FFT: full coherent power, phase at the start of the observation.
// The coefficient is conj(g(delta_r, z)) with g(d, z) = int_0^1 exp(2 pi i ((d - z/2) u +
// z u^2 / 2)) du, which is what PRESTO's gen_z_response generates and rz_interp conjugates.
// For |z| < 1e-4 it is the plain interpolation kernel exp(-i pi d) sin(pi d) / (pi d), as PRESTO.
std::complex<double> fdot_response_coefficient(double delta_r, double z);

}  // namespace rapt
