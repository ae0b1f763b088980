#include "accel/segment_normalise.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "cli/errors.hpp"

namespace rapt {
namespace {

float lower_median_power(const std::complex<float>* amplitudes, size_t count) {
  std::vector<float> powers(count);
  for (size_t i = 0; i < count; ++i) {
    powers[i] = amplitudes[i].real() * amplitudes[i].real() +
                amplitudes[i].imag() * amplitudes[i].imag();
  }
  const auto middle = powers.begin() + std::ptrdiff_t((count - 1) / 2);
  std::nth_element(powers.begin(), middle, powers.end());
  if (count % 2) return *middle;
  const float upper = *std::min_element(middle + 1, powers.end());
  return float(0.5 * (double(*middle) + double(upper)));
}

}  // namespace

double segment_amplitude_scale(const std::complex<float>* amplitudes, size_t count,
                               SpectrumNormalisation kind, float photon_count) {
  switch (kind) {
    case SpectrumNormalisation::BlockMedian: {
      const double median = count ? lower_median_power(amplitudes, count) : 0.0;
      return median > 0.0 ? 1.0 / std::sqrt(median / std::log(2.0)) : 0.0;
    }
    case SpectrumNormalisation::Photon:
      if (!(photon_count > 0.0f)) {
        throw DataError("-photon: the DC level (photon count) is not positive");
      }
      return 1.0 / std::sqrt(double(photon_count));
    case SpectrumNormalisation::LocalPower:
      break;
  }
  throw UsageError("-locpow is not available yet");
}

}  // namespace rapt
