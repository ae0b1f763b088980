// Local maximisation of the interpolated power over (r, z), as PRESTO's max_rz_arr (one
// harmonic) and max_rz_arr_harmonics (harmonic polishing: the fundamental's (r, z) maximising
// the sum over harmonics n of P(n r, n z) / locpow_n).
//
// Both run PRESTO's two passes of downhill simplex in (r, z / 4): a low-accuracy kernel pass
// from the simplex {(r-0.4, z/4-0.4), (r-0.4, z/4+0.4), (r+0.4, z/4)} to relative tolerance 1e-7,
// then a high-accuracy pass from the best vertex with 0.01 steps to 1e-10.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "accel/fourier_derivs.hpp"

namespace rapt {

struct RzMaximum {
  double r = 0.0;        // bins, in the spectrum's own indexing
  double z = 0.0;
  double power = 0.0;    // raw power at (r, z) with the last pass's kernel
  FourierDerivs derivs;  // at (r, z), locpow = local_power(r, z)
};

// max_rz_arr. `spectrum` is the raw (un-normalised) spectrum, numbins complex bins.
RzMaximum maximise_rz(const std::complex<float>* spectrum, int64_t numbins, double r_start,
                      double z_start);

struct HarmonicRzMaximum {
  double r = 0.0;                     // fundamental
  double z = 0.0;
  std::vector<double> powers;         // raw power of harmonic n at (n r, n z), n = 1..numharm
  std::vector<FourierDerivs> derivs;  // at (n r, n z), locpow = local_power(n r, n z)
};

// max_rz_arr_harmonics. The objective normalises harmonic n by its local power at the start
// point (n r_start, n z_start); the returned derivs use the local power at the maximum.
HarmonicRzMaximum maximise_rz_harmonics(const std::complex<float>* spectrum, int64_t numbins,
                                        int numharm, double r_start, double z_start);

}  // namespace rapt
