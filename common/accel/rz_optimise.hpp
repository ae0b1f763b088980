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

// Where the two passes end.
struct RzPoint {
  double r = 0.0;         // fundamental, in the spectrum's own indexing
  double z = 0.0;
  double value = 0.0;     // the maximised objective there (last pass's kernel)
  int evaluations = 0;    // objective evaluations spent
  int halfwidth = 0;      // kernel half-width of the last pass
};

// The two passes from (r_start, z_start) maximising sum_n P(n r, n z) / power_norms[n-1] over
// n = 1 .. power_norms.size() (P: raw power, one kernel half-width for all harmonics, sized for
// the highest). One harmonic with norm 1 is max_rz_arr's objective; the start's local powers
// (start_local_powers) are max_rz_arr_harmonics'.
RzPoint maximise_rz_point(const std::complex<float>* spectrum, int64_t numbins,
                          const std::vector<double>& power_norms, double r_start, double z_start);

// local_power(n r, n z) for n = 1 .. numharm.
std::vector<double> start_local_powers(const std::complex<float>* spectrum, int64_t numbins,
                                       int numharm, double r, double z);

// maximise_rz's and maximise_rz_harmonics' measurements at a maximum found by the passes
// (for maximisers that run the passes elsewhere).
RzMaximum rz_maximum_at(const std::complex<float>* spectrum, int64_t numbins, const RzPoint& p);
HarmonicRzMaximum harmonic_rz_maximum_at(const std::complex<float>* spectrum, int64_t numbins,
                                         int numharm, const RzPoint& p);

}  // namespace rapt
