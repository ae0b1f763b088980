// How idg-grid --aterms handles polarisations: the four correlations found among a file's
// products, one shared weight per sample, the --pol images and the PSF formed from the
// corrected correlation planes.
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "cli/errors.hpp"
#include "imaging/aterm_imaging.hpp"

namespace rapt {
namespace {

// FITS codes: XX -5, YY -6, XY -7, YX -8; RR -1, LL -2, RL -3, LR -4; I 1.
TEST(ATermImaging, FindsTheFourCorrelationsAmongTheProducts) {
  const CorrelationProducts linear = correlation_products({-5, -6, -7, -8}, "a.uvfits");
  EXPECT_FALSE(linear.circular);
  EXPECT_EQ(linear.product, (std::array<int, 4>{0, 2, 3, 1}));  // XX XY YX YY
  const CorrelationProducts two = correlation_products({-6, -5}, "b.uvfits");
  EXPECT_EQ(two.product, (std::array<int, 4>{1, -1, -1, 0}));
  const CorrelationProducts circular = correlation_products({-1, -2, -3, -4}, "c.ms");
  EXPECT_TRUE(circular.circular);
  EXPECT_EQ(circular.product, (std::array<int, 4>{0, 2, 3, 1}));  // RR RL LR LL
  try {
    correlation_products({-7}, "paper.ms");
    FAIL() << "XY alone accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("paper.ms"), std::string::npos) << e.what();
  }
  EXPECT_THROW(correlation_products({1}, "stokes.uvfits"), DataError);
}

TEST(ATermImaging, CorrelationsShareTheSmallestWeightOfASample) {
  const CorrelationProducts c = correlation_products({-5, -6}, "two.uvfits");  // no XY, YX
  ImagingSamples s;
  s.npol = 4;
  s.freq_hz = {1e9};
  s.weight = {2.0f, 0.0f, 0.0f, 1.5f,   // both hands: min 1.5
              3.0f, 0.0f, 0.0f, 0.0f};  // YY flagged: the sample leaves both
  s.vis.assign(8, {1.0f, 0.0f});
  share_correlation_weights(c, s);
  EXPECT_EQ(s.weight, (std::vector<float>{1.5f, 0.0f, 0.0f, 1.5f, 0.0f, 0.0f, 0.0f, 0.0f}));
}

TEST(ATermImaging, ImagesAndThePsfAreFormedFromTheCorrectedCorrelations) {
  const std::vector<int> file = {-5, -6, -7, -8};
  const CorrelationProducts c = correlation_products(file, "f.uvfits");
  IdgImage planes;
  planes.npol = 4;
  planes.size = 2;
  // Pixel 0 of the planes XX XY YX YY.
  const std::complex<float> xx(3, 0), xy(0.5f, 0.25f), yx(0.5f, -0.25f), yy(1, 0);
  planes.pixels.assign(16, {0.0f, 0.0f});
  planes.plane(0)[0] = xx, planes.plane(1)[0] = xy, planes.plane(2)[0] = yx, planes.plane(3)[0] = yy;
  const std::vector<OutputPolarisation> pols = select_polarisations({"I", "Q", "U", "V"}, file, "f");
  std::vector<std::complex<float>> out(4);
  combine_correlation_planes(pols[0], c, planes, out.data());
  EXPECT_NEAR(out[0].real(), 2.0f, 1e-6);  // (XX + YY) / 2
  combine_correlation_planes(pols[1], c, planes, out.data());
  EXPECT_NEAR(out[0].real(), 1.0f, 1e-6);  // (XX - YY) / 2
  combine_correlation_planes(pols[2], c, planes, out.data());
  EXPECT_NEAR(out[0].real(), 0.5f, 1e-6);  // (XY + YX) / 2
  combine_correlation_planes(pols[3], c, planes, out.data());
  EXPECT_NEAR(out[0].real(), 0.25f, 1e-6);  // -i (XY - YX) / 2
  // The PSF of Q is the mean of the XX and YY PSFs, not their half-difference.
  for (int k = 0; k < 4; ++k) planes.plane(k)[0] = 1.0f;
  combine_correlation_planes(psf_combination(pols[1]), c, planes, out.data());
  EXPECT_NEAR(out[0].real(), 1.0f, 1e-6);
  combine_correlation_planes(psf_combination(pols[3]), c, planes, out.data());
  EXPECT_NEAR(std::abs(out[0]), 1.0f, 1e-6);
}

// Each FREQ plane serves the channels nearest it.
TEST(ATermImaging, ChannelsGoToTheirNearestFrequencyPlane) {
  ATermCube cube;
  cube.nr_freqs = 2;
  cube.freq_hz = {1.396e9, 1.404e9};
  const ATermPlanes planes = aterm_planes(cube, {1.397e9, 1.399e9, 1.401e9, 1.403e9});
  EXPECT_EQ(planes.of_channel, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(planes.used, (std::vector<int>{0, 1}));
  cube.nr_freqs = 1;
  cube.freq_hz = {1.4e9};
  EXPECT_EQ(aterm_planes(cube, {1.3e9, 1.5e9}).used, (std::vector<int>{0}));
}

// A plane's pass keeps the weights of its own channels (all four correlations) and zeroes the
// others', in every row.
TEST(ATermImaging, APlanesPassWeighsOnlyItsChannels) {
  ATermPlanes planes;
  planes.of_channel = {0, 1, 1};
  planes.used = {0, 1};
  std::vector<float> weights(2 * 3 * 4);  // 2 rows, 3 channels, 4 correlations
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = float(i + 1);
  const std::vector<float> first = plane_pass_weights(planes, 0, weights, 3);
  const std::vector<float> second = plane_pass_weights(planes, 1, weights, 3);
  for (size_t i = 0; i < weights.size(); ++i) {
    const bool channel0 = (i / 4) % 3 == 0;
    EXPECT_EQ(first[i], channel0 ? weights[i] : 0.0f) << i;
    EXPECT_EQ(second[i], channel0 ? 0.0f : weights[i]) << i;
  }
}

}  // namespace
}  // namespace rapt
