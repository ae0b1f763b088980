// The median PRESTO takes of Fourier powers: the middle value, and for an even count the mean
// of the two middle values. (The quickselect in PRESTO's older src/median.c returns the lower
// one; the powers in accelsearch's own golden output follow from the mean of the two, to the
// printed digits, and not from either middle value alone.) Powers are float |X|^2
// computed in single precision, as PRESTO's POWER() macro does.
#pragma once
#include <algorithm>
#include <complex>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace rapt {

inline float power_of(std::complex<float> bin) {
  return bin.real() * bin.real() + bin.imag() * bin.imag();
}

// Reorders `values`; throws std::invalid_argument when it is empty.
inline float presto_median(std::vector<float>& values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2) return *middle;
  const float upper = *std::min_element(middle + 1, values.end());
  return static_cast<float>(0.5 * (static_cast<double>(*middle) + upper));
}

// Median power of `count` bins starting at `bins`.
inline float median_power(const std::complex<float>* bins, size_t count) {
  std::vector<float> powers(count);
  for (size_t i = 0; i < count; ++i) powers[i] = power_of(bins[i]);
  return presto_median(powers);
}

}  // namespace rapt
