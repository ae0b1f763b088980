#include "sim/pulse_shapes.hpp"

#include <algorithm>
#include <cmath>

namespace rapt {

namespace {

// Table entries per FWHM: linear interpolation then errs by < 1e-4 of the peak.
constexpr double kEntriesPerFwhm = 64.0;
constexpr int64_t kMinTableSize = 4096;
constexpr int64_t kMaxTableSize = int64_t{1} << 22;
// The Gaussian is set to zero beyond this many standard deviations (exp(-24.5) = 2e-11).
constexpr double kSupportSigmas = 7.0;

// A unit-peak Gaussian averaged over [x - width/2, x + width/2].
double boxcar_averaged_gaussian(double x, double sigma, double width) {
  if (width < 1e-4 * sigma) return std::exp(-0.5 * x * x / (sigma * sigma));
  const double scale = 1.0 / (sigma * M_SQRT2);
  return sigma * std::sqrt(M_PI / 2) / width *
         (std::erf((x + width / 2) * scale) - std::erf((x - width / 2) * scale));
}

}  // namespace

PhaseProfile::PhaseProfile(double duty, double sample_phase) {
  const double sigma = duty / kFwhmPerSigma;
  size_ = kMinTableSize;
  while (size_ < kMaxTableSize && size_ * duty < kEntriesPerFwhm) size_ *= 2;
  const double reach = kSupportSigmas * sigma + sample_phase / 2;
  support_ = reach < 0.5 ? reach : 0.5;
  const int images = static_cast<int>(std::ceil(reach)) + 1;

  table_.assign(static_cast<size_t>(size_) + 2, 0.0f);
  double sum = 0.0, sum_squares = 0.0;
  for (int64_t i = 0; i < size_; ++i) {
    double phase = static_cast<double>(i) / size_;
    if (phase >= 0.5) phase -= 1.0;  // distance from the peak, signed
    if (reach < 0.5 && std::fabs(phase) > reach) continue;
    double value = 0.0;
    for (int m = -images; m <= images; ++m)
      value += boxcar_averaged_gaussian(phase - m, sigma, sample_phase);
    table_[i] = static_cast<float>(value);
    sum += value;
    sum_squares += value * value;
  }
  table_[size_] = table_[0];
  table_[size_ + 1] = table_[1];
  mean_ = sum / size_;
  variance_ = sum_squares / size_ - mean_ * mean_;
  // Linear interpolation reaches one entry past the last non-zero one.
  if (support_ < 0.5) support_ = std::min(0.5, support_ + 2.0 / size_);
}

double scaled_erfc(double z) {
  if (z < 10.0) return std::exp(z * z) * std::erfc(z);
  // Asymptotic series; the first omitted term is 3e-9 of the sum at z = 10.
  const double w = 1.0 / (z * z);
  return (1.0 - w / 2 * (1.0 - w * 3 / 2 * (1.0 - w * 5 / 2 * (1.0 - w * 7 / 2)))) /
         (z * std::sqrt(M_PI));
}

double scattered_gaussian_cdf(double t, double sigma, double tau) {
  const double gaussian_cdf = 0.5 * std::erfc(-t / (sigma * M_SQRT2));
  if (tau <= 0.0) return gaussian_cdf;
  // F = Phi(t / sigma) - exp(sigma^2 / (2 tau^2) - t / tau) Phi(t / sigma - sigma / tau), with the
  // product written as exp(-t^2 / (2 sigma^2)) erfcx(z) where the exponential alone would
  // overflow (tau << sigma).
  const double z = (sigma / tau - t / sigma) / M_SQRT2;
  const double tail = z >= 0.0
                          ? 0.5 * std::exp(-0.5 * t * t / (sigma * sigma)) * scaled_erfc(z)
                          : 0.5 * std::exp(0.5 * sigma * sigma / (tau * tau) - t / tau) * std::erfc(z);
  return gaussian_cdf - tail;
}

}  // namespace rapt
