// WSClean's MFS images of a run with several channel groups (--channels-out): each the mean of
// the groups' images weighted by the groups' imaging weights, described as an image of the whole
// band.
#pragma once
#include <vector>

namespace rapt {

struct WeightedPlane {
  std::vector<float> pixels;
  double weight = 0;  // the group's sum of imaging weights; 0 leaves it out
};

// The weighted mean of `planes` (all of one size); all zero where every weight is 0. Throws
// std::invalid_argument for planes of different sizes or no planes.
std::vector<float> weighted_mean_plane(const std::vector<WeightedPlane>& planes);

}  // namespace rapt
