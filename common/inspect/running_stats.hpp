// Streaming mean / variance / extremes, mergeable (Chan et al.'s parallel update), in double.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace rapt {

struct RunningStats {
  int64_t count = 0;
  double mean = 0.0;
  double m2 = 0.0;  // sum of squared deviations from the mean
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  void add(double x) {
    ++count;
    const double delta = x - mean;
    mean += delta / count;
    m2 += delta * (x - mean);
    min = std::min(min, x);
    max = std::max(max, x);
  }
  void merge(const RunningStats& other) {
    if (other.count == 0) return;
    if (count == 0) { *this = other; return; }
    const int64_t n = count + other.count;
    const double delta = other.mean - mean;
    mean += delta * other.count / n;
    m2 += other.m2 + delta * delta * (double(count) * other.count / n);
    count = n;
    min = std::min(min, other.min);
    max = std::max(max, other.max);
  }
  double variance() const { return count > 1 ? m2 / (count - 1) : 0.0; }
  double stddev() const { return std::sqrt(variance()); }
};

}  // namespace rapt
