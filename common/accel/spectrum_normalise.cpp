#include "accel/spectrum_normalise.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "accel/power_median.hpp"

namespace rapt {
namespace {

constexpr size_t kLocalPowerBins = 20;  // NUMLOCPOWAVG: 10 each side
constexpr size_t kSkippedBins = 5;      // DELTAAVGBINS: nearest bins left out each side
constexpr size_t kHalfWidth = kLocalPowerBins / 2 + kSkippedBins;

}  // namespace

double photon_count(const std::vector<std::complex<float>>& packed) {
  if (packed.empty()) throw std::invalid_argument("photon count of an empty spectrum");
  return packed[0].real();
}

double amplitude_scale(const std::complex<float>* bins, size_t count, NormalisationKind kind,
                       double photons) {
  if (kind == NormalisationKind::Photon) return 1.0 / std::sqrt(photons);
  if (kind == NormalisationKind::LocalPower)
    throw std::invalid_argument("local-power normalisation has one scale per bin");
  if (count == 0) throw std::invalid_argument("block median of no bins");
  return 1.0 / std::sqrt(median_power(bins, count) / std::log(2.0));
}

std::vector<float> local_power_levels(const std::complex<float>* bins, size_t count) {
  if (count < 2 * kHalfWidth)
    throw std::invalid_argument("local power needs at least 30 bins");
  // PRESTO's kernel weight (count/2)/20 in integer arithmetic, then its correlation's 2/count.
  const double weight = static_cast<double>((count / 2) / kLocalPowerBins) * 2.0 / count;
  std::vector<float> levels(count);
  for (size_t k = kHalfWidth; k + kHalfWidth < count; ++k) {
    double sum = 0.0;
    for (size_t d = kSkippedBins + 1; d <= kHalfWidth; ++d)
      sum += power_of(bins[k - d]) + power_of(bins[k + d]);
    levels[k] = static_cast<float>(weight * sum);
  }
  for (size_t k = 0; k < kHalfWidth; ++k) {
    levels[k] = levels[kHalfWidth];
    levels[count - 1 - k] = levels[count - 1 - kHalfWidth];
  }
  return levels;
}

float local_power_at(const std::complex<float>* bins, size_t numbins, double r) {
  const long centre = static_cast<long>(std::floor(r));
  const long side = static_cast<long>(kLocalPowerBins / 2);
  const long skip = static_cast<long>(kSkippedBins);
  const long n = static_cast<long>(numbins);
  const auto clamp = [n](long k) { return std::min(std::max(k, 0L), n); };
  const long lo1 = clamp(centre - skip - side + 1), hi1 = clamp(centre - skip - side + 1 + side);
  const long lo2 = clamp(centre + skip + 1), hi2 = clamp(centre + skip + 1 + side);
  float sum = 0.0f;
  for (long k = lo1; k < hi1; ++k) sum += power_of(bins[k]);
  for (long k = lo2; k < hi2; ++k) sum += power_of(bins[k]);
  return sum / static_cast<float>(kLocalPowerBins);
}

std::vector<float> amplitude_scales(const std::complex<float>* bins, size_t count,
                                    NormalisationKind kind, double photons) {
  if (kind != NormalisationKind::LocalPower)
    return std::vector<float>(count,
                              static_cast<float>(amplitude_scale(bins, count, kind, photons)));
  std::vector<float> scales = local_power_levels(bins, count);
  for (float& s : scales) s = 1.0f / std::sqrt(s);
  return scales;
}

void normalise_block(std::complex<float>* bins, size_t count, NormalisationKind kind,
                     double photons) {
  if (kind != NormalisationKind::LocalPower) {
    const double scale = amplitude_scale(bins, count, kind, photons);
    for (size_t k = 0; k < count; ++k)
      bins[k] = {static_cast<float>(bins[k].real() * scale),
                 static_cast<float>(bins[k].imag() * scale)};
    return;
  }
  const std::vector<float> scales = amplitude_scales(bins, count, kind, photons);
  for (size_t k = 0; k < count; ++k) bins[k] *= scales[k];
}

}  // namespace rapt
