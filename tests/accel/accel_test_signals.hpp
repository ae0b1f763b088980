// Test signals for the acceleration-search units: spectra of chirped sinusoids and pulse trains
// in seeded white noise, as an unnormalised forward real FFT (PRESTO's .fft convention).
#pragma once
#include <fftw3.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

namespace rapt::testing {

struct ChirpSpec {
  int n = 1 << 16;            // samples
  double amplitude = 0.05;    // of each harmonic
  double r0 = 1000.3;         // average Fourier frequency of the fundamental (bins)
  double z = 0.0;             // drift of the fundamental (bins over the observation)
  double phase0 = 0.0;        // rad, at the start
  int harmonics = 1;          // harmonic n has amplitude `amplitude`, r n r0, z n z, phase n phase0
  double noise_sigma = 1.0;   // per sample; 0: no noise
  unsigned seed = 1;
};

inline std::vector<std::complex<double>> chirp_spectrum(const ChirpSpec& s) {
  constexpr double kPi = 3.14159265358979323846;
  std::mt19937 rng(s.seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::vector<double> series(s.n);
  for (int j = 0; j < s.n; ++j) {
    const double u = static_cast<double>(j) / s.n;
    const double phase = s.phase0 + 2.0 * kPi * (s.r0 - 0.5 * s.z) * u + kPi * s.z * u * u;
    double x = 0.0;
    for (int h = 1; h <= s.harmonics; ++h) x += s.amplitude * std::cos(h * phase);
    series[j] = x + (s.noise_sigma > 0.0 ? s.noise_sigma * gauss(rng) : 0.0);
  }
  std::vector<std::complex<double>> spectrum(s.n / 2 + 1);
  fftw_plan plan = fftw_plan_dft_r2c_1d(s.n, series.data(),
                                        reinterpret_cast<fftw_complex*>(spectrum.data()),
                                        FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return spectrum;
}

// Packed as a .fft: n/2 complex floats, element 0 holds DC (re) and Nyquist (im).
inline std::vector<std::complex<float>> packed_float_spectrum(const ChirpSpec& s) {
  const std::vector<std::complex<double>> full = chirp_spectrum(s);
  std::vector<std::complex<float>> packed(s.n / 2);
  packed[0] = {static_cast<float>(full[0].real()), static_cast<float>(full[s.n / 2].real())};
  for (int k = 1; k < s.n / 2; ++k) packed[k] = std::complex<float>(full[k]);
  return packed;
}

// Expected coherent power of one harmonic of amplitude a: (a N / 2)^2.
inline double sinusoid_power(double amplitude, int n) {
  return amplitude * amplitude * static_cast<double>(n) * n / 4.0;
}

}  // namespace rapt::testing
