// The padded grid: WSClean's size rule, and the image's centre pixel kept at the grid's.
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "imaging/image_padding.hpp"

namespace rapt {
namespace {

TEST(PaddedSize, CeilingRoundedUpToAMultipleOfFour) {
  EXPECT_EQ(padded_size(256, 1.2), 308);  // 307.2
  EXPECT_EQ(padded_size(128, 1.2), 156);  // 153.6 -> 154 -> 156
  EXPECT_EQ(padded_size(256, 1.25), 320);
  EXPECT_EQ(padded_size(256, 1.0), 256);
  EXPECT_EQ(padded_size(258, 1.0), 260);  // a multiple of 4 even unpadded, as WSClean's
  EXPECT_EQ(padded_size(20, 2.0), 40);
  EXPECT_EQ(padded_size(200, 1.1), 224);  // 200 x 1.1 is 220.00000000000003 in a double
  for (int n = 20; n <= 400; n += 2)
    for (double padding : {1.0, 1.1, 1.2, 1.33, 1.5, 2.0}) {
      const int p = padded_size(n, padding);
      EXPECT_EQ(p % 4, 0) << n << " " << padding;
      EXPECT_GE(p, n * padding - 1e-9) << n << " " << padding;
      EXPECT_LT(p, n * padding + 4) << n << " " << padding;
      EXPECT_EQ((p - n) % 2, 0) << n << " " << padding;  // a whole border
    }
}

TEST(ImagePadding, CentreOfThePaddedPlaneIsTheImage) {
  const int n = 6, p = 10;
  std::vector<float> image(size_t(n * n));
  for (size_t i = 0; i < image.size(); ++i) image[i] = float(i + 1);
  const std::vector<float> padded = padded_plane(image, n, p);
  ASSERT_EQ(padded.size(), size_t(p * p));
  // The image's centre pixel (n/2, n/2), the phase centre, lands on the grid's (p/2, p/2).
  EXPECT_EQ(padded[size_t(p / 2 * p + p / 2)], image[size_t(n / 2 * n + n / 2)]);
  double border = 0;
  for (int y = 0; y < p; ++y)
    for (int x = 0; x < p; ++x)
      if (x < 2 || y < 2 || x >= p - 2 || y >= p - 2) border += padded[size_t(y * p + x)];
  EXPECT_EQ(border, 0.0);
  EXPECT_EQ(central_part(padded, p, n), image);

  std::vector<std::complex<float>> complex_plane(padded.size());
  for (size_t i = 0; i < padded.size(); ++i) complex_plane[i] = {padded[i], -padded[i]};
  const std::vector<std::complex<float>> centre = central_part(complex_plane.data(), p, n);
  ASSERT_EQ(centre.size(), image.size());
  for (size_t i = 0; i < image.size(); ++i) EXPECT_EQ(centre[i], std::complex<float>(image[i], -image[i]));
}

}  // namespace
}  // namespace rapt
