// Statistics shared by tests that compare a measured series with an expected one.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace rapt::testing {

// Pearson correlation coefficient of the first min(a.size(), b.size()) values, in double.
template <typename T>
double pearson_correlation(const std::vector<T>& a, const std::vector<T>& b) {
  const size_t n = std::min(a.size(), b.size());
  double mean_a = 0.0, mean_b = 0.0;
  for (size_t i = 0; i < n; ++i) {
    mean_a += double(a[i]);
    mean_b += double(b[i]);
  }
  mean_a /= double(n);
  mean_b /= double(n);
  double ab = 0.0, aa = 0.0, bb = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double da = double(a[i]) - mean_a, db = double(b[i]) - mean_b;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return ab / std::sqrt(aa * bb);
}

}  // namespace rapt::testing
