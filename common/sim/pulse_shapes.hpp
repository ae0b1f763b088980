// Pulse shapes: the periodic Gaussian profile of a pulsar (as a phase lookup table) and the
// scattered Gaussian of a single pulse (exact, through its cumulative distribution).
#pragma once
#include <cstdint>
#include <vector>

namespace rapt {

// A pulsar's profile per rotation: a Gaussian of FWHM `duty` (in phase), peak 1 at phase 0,
// repeated every turn and averaged over a window of `sample_phase` (one sample, in phase), as a
// detector integrating over the sample sees it. Looked up with linear interpolation.
class PhaseProfile {
 public:
  PhaseProfile(double duty, double sample_phase);
  // Profile at `phase` in [0, 1] (a phase reduced mod 1 in double may round up to 1).
  float operator()(double phase) const { return interpolate(table_.data(), size_, phase); }
  // The same for hot loops that hold the table in a local: table() has table_size() + 2
  // entries, profile(i / table_size()) = table()[i].
  static float interpolate(const float* table, int64_t size, double phase) {
    const double x = phase * static_cast<double>(size);
    const int64_t i = static_cast<int64_t>(x);
    const float frac = static_cast<float>(x - static_cast<double>(i));
    return table[i] + frac * (table[i + 1] - table[i]);
  }
  const float* table() const { return table_.data(); }
  // Distance from phase 0 beyond which the profile is exactly zero (>= 0.5: nowhere zero).
  double support_half_width() const { return support_; }
  // Mean and variance of the profile over a turn. Only the pulsed part, the profile minus its
  // mean, can be told from the noise level: the matched-filter S/N of N samples of unit noise
  // is sqrt(N * variance).
  double mean() const { return mean_; }
  double variance() const { return variance_; }
  int64_t table_size() const { return size_; }

 private:
  int64_t size_;
  std::vector<float> table_;  // size_ + 2 entries: the last two repeat the first two
  double support_;
  double mean_;
  double variance_;
};

// erfc(z) exp(z^2) for z >= 0, without overflow.
double scaled_erfc(double z);

// Cumulative distribution of a unit-area Gaussian (standard deviation sigma, centred on 0)
// convolved with a unit-area one-sided exponential exp(-t / tau) / tau; tau = 0: the Gaussian.
double scattered_gaussian_cdf(double t, double sigma, double tau);

// Gaussian FWHM to standard deviation.
constexpr double kFwhmPerSigma = 2.3548200450309493;  // 2 sqrt(2 ln 2)

}  // namespace rapt
