// How accelsearch normalises each block of Fourier amplitudes before correlating it with its
// templates (subharm_fderivs_vol() in PRESTO's src/accel_utils.c), so that noise powers have
// mean 1:
//   BlockMedian (default)  every amplitude times 1 / sqrt(median power / ln 2), the median
//                          being PRESTO's median of the block's powers;
//   LocalPower (-locpow)   each amplitude times 1 / sqrt(local power), the local power of bin k
//                          being the mean power of bins k +/- 6..15 (PRESTO's corr_loc_pow(),
//                          a circular FFT correlation: see local_power_levels);
//   Photon (-photon)       every amplitude times 1 / sqrt(N_photons), N_photons = the real part
//                          of packed bin 0 (the DC sum) of the whole spectrum.
// accelsearch turns -photon off when -lobin > 0.
#pragma once
#include <complex>
#include <cstddef>
#include <vector>

namespace rapt {

enum class NormalisationKind { BlockMedian, LocalPower, Photon };

// The DC term of a packed spectrum: accelsearch's photon count (taken as is, even if <= 0, as
// accelsearch does for an in-memory or mapped spectrum).
double photon_count(const std::vector<std::complex<float>>& packed);

// The one scale factor of a block for BlockMedian (1 / sqrt(median / ln 2)) or Photon
// (1 / sqrt(photons); `photons` is only used there), in double as PRESTO computes it.
// Throws std::invalid_argument for LocalPower (one scale per bin: amplitude_scales) and for an
// empty block.
double amplitude_scale(const std::complex<float>* bins, size_t count, NormalisationKind kind,
                       double photons = 0.0);

// PRESTO's corr_loc_pow() of a block's powers: level[k] = w * sum of the powers of bins
// k - 15 .. k - 6 and k + 6 .. k + 15, with w = 2 floor(count / 40) / count (PRESTO's integer
// arithmetic for 1/20, so a little low unless count is a multiple of 40); the first and last
// 15 bins take the level of bin 15 and of bin count - 16. Throws std::invalid_argument for
// fewer than 30 bins.
std::vector<float> local_power_levels(const std::complex<float>* bins, size_t count);

// PRESTO's get_localpower(): the local power at Fourier frequency r used for single-bin
// measurements, the sum of the powers of bins floor(r) - 14 .. floor(r) - 5 and
// floor(r) + 6 .. floor(r) + 15 (cut to 0 .. numbins - 1) divided by 20, in float.
float local_power_at(const std::complex<float>* bins, size_t numbins, double r);

// One scale per bin for any kind (the same value repeated for BlockMedian and Photon;
// 1 / sqrtf(level) in float for LocalPower).
std::vector<float> amplitude_scales(const std::complex<float>* bins, size_t count,
                                    NormalisationKind kind, double photons = 0.0);

// Multiplies the block's amplitudes in place by their scales, as accelsearch does.
void normalise_block(std::complex<float>* bins, size_t count, NormalisationKind kind,
                     double photons = 0.0);

}  // namespace rapt
