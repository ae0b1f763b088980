// Direct (non-FFT) Fourier interpolation of a spectrum at one point of the f-fdot plane, and the
// local power level around it, with PRESTO's semantics (rz_interp, get_localpower3d).
#pragma once
#include <complex>
#include <cstdint>

namespace rapt {

// Complex amplitude at fractional Fourier bin r and drift z (z = fdot T^2), summing
// F_k * fdot_response_coefficient(r - k, z) over the 2*halfwidth bins
// k = floor(r) - halfwidth ... floor(r) + halfwidth - 1, as PRESTO's rz_interp (bins outside
// 0..numbins-1 count as zero). Returns 0 for r < 0 or r > numbins - 1; for |z| < 1e-4 and r within
// 1e-5 of an integer it returns that bin itself, as PRESTO does. Sums in double precision (PRESTO
// keeps the kernel and the running sum in float: differences ~1e-7 relative).
std::complex<double> rz_interpolate(const std::complex<float>* spectrum, int64_t numbins, double r,
                                    double z, int halfwidth);

// PRESTO's local power level at (r, z) (get_localpower3d with w = 0): the mean of the 20
// interpolated powers at r - 15, ..., r - 6 and r + 5, ..., r + 14 (drift z, low-accuracy kernel),
// points outside 0..numbins dropped but still divided by 20.
constexpr int kLocalPowerBins = 20;     // PRESTO's NUMLOCPOWAVG
constexpr int kLocalPowerGapBins = 5;   // PRESTO's DELTAAVGBINS
double local_power(const std::complex<float>* spectrum, int64_t numbins, double r, double z);

}  // namespace rapt
