// How many w-layers idg-grid asks for: one when the kernel holds every w, else layers thin
// enough for the kernel that cover the data's whole w range; --wstep and --nwlayers obeyed.
#include <gtest/gtest.h>

#include "cli/errors.hpp"
#include "imaging/w_layers.hpp"

namespace rapt {
namespace {

constexpr double kArcsec = 3.14159265358979323846 / 180 / 3600;

TEST(WLayers, OneLayerWhenTheKernelHoldsEveryW) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 256 * 60 * kArcsec;
  const double residual = largest_w_residual(s);
  ASSERT_GT(residual, 0);
  WLayerChoice c = choose_w_layers(s, residual * 0.9, 0, 0);
  EXPECT_EQ(c.nr_w_layers, 1);
  EXPECT_EQ(c.w_step_lambda, 0);
  c = choose_w_layers(s, residual * 10, 0, 0);
  EXPECT_GT(c.nr_w_layers, 1);
  EXPECT_LT(c.w_step_lambda / 2, residual);
  EXPECT_GT(c.nr_w_layers * c.w_step_lambda / 2, residual * 10);  // covers -max..max
  c = choose_w_layers(s, 100, 4, 0);
  EXPECT_EQ(c.nr_w_layers, 4);
  EXPECT_GT(c.w_step_lambda * 2, 100);
  c = choose_w_layers(s, 100, 0, 30);
  EXPECT_EQ(c.nr_w_layers, 7);  // floor(200 / 30) + 1
  s.kernel_size = 7;
  EXPECT_THROW(choose_w_layers(s, 100, 0, 0), UsageError);
}

}  // namespace
}  // namespace rapt
