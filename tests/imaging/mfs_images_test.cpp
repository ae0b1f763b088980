// The MFS image's arithmetic: the groups' images weighted by their imaging weights.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "imaging/mfs_images.hpp"

namespace rapt {
namespace {

TEST(MfsImages, MeanWeightedByTheGroupsWeights) {
  // Natural weighting: image_g = S_g / W_g, so the weighted mean is (S_1 + S_2) / (W_1 + W_2).
  const std::vector<float> s1{3.0f, 6.0f}, s2{1.0f, -2.0f};
  const double w1 = 3.0, w2 = 1.0;
  const std::vector<float> mean = weighted_mean_plane(
      {{{float(s1[0] / w1), float(s1[1] / w1)}, w1}, {{float(s2[0] / w2), float(s2[1] / w2)}, w2}});
  ASSERT_EQ(mean.size(), 2u);
  EXPECT_FLOAT_EQ(mean[0], (3.0f + 1.0f) / 4.0f);
  EXPECT_FLOAT_EQ(mean[1], (6.0f - 2.0f) / 4.0f);
  // A group without data (weight 0) takes no part; with none at all the image is zero.
  EXPECT_EQ(weighted_mean_plane({{{5.0f, 5.0f}, 2.0}, {{100.0f, 100.0f}, 0.0}}),
            (std::vector<float>{5.0f, 5.0f}));
  EXPECT_EQ(weighted_mean_plane({{{5.0f, 5.0f}, 0.0}}), (std::vector<float>{0.0f, 0.0f}));
  EXPECT_THROW(weighted_mean_plane({}), std::invalid_argument);
  EXPECT_THROW(weighted_mean_plane({{{1.0f}, 1.0}, {{1.0f, 2.0f}, 1.0}}), std::invalid_argument);
}

}  // namespace
}  // namespace rapt
