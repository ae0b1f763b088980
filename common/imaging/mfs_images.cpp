#include "imaging/mfs_images.hpp"

#include <stdexcept>

namespace rapt {

std::vector<float> weighted_mean_plane(const std::vector<WeightedPlane>& planes) {
  if (planes.empty()) throw std::invalid_argument("weighted_mean_plane: no planes");
  const size_t n = planes.front().pixels.size();
  std::vector<double> sum(n, 0.0);
  double weight = 0;
  for (const WeightedPlane& p : planes) {
    if (p.pixels.size() != n) throw std::invalid_argument("weighted_mean_plane: sizes differ");
    if (!(p.weight > 0)) continue;
    weight += p.weight;
    for (size_t i = 0; i < n; ++i) sum[i] += p.weight * double(p.pixels[i]);
  }
  std::vector<float> mean(n, 0.0f);
  if (weight > 0)
    for (size_t i = 0; i < n; ++i) mean[i] = float(sum[i] / weight);
  return mean;
}

}  // namespace rapt
