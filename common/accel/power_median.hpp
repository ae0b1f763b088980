// The median PRESTO takes of Fourier powers (src/median.c): the element of rank (n - 1) / 2 of
// the values, i.e. the lower of the two middle values when n is even. Powers are float |X|^2
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
inline float lower_median(std::vector<float>& values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// Median power of `count` bins starting at `bins`.
inline float median_power(const std::complex<float>* bins, size_t count) {
  std::vector<float> powers(count);
  for (size_t i = 0; i < count; ++i) powers[i] = power_of(bins[i]);
  return lower_median(powers);
}

}  // namespace rapt
