// Natural, uniform and Briggs weights against values worked out by hand on a 4 x 4 uv grid
// whose cells are one wavelength (N * cell = 1).
#include <gtest/gtest.h>

#include <cmath>

#include "cli/errors.hpp"
#include "imaging/imaging_weights.hpp"

namespace rapt {
namespace {

// Cells are column floor(u + 2), row floor(v) (after mirroring v < 0): (0, 0) and (0.1, 0.2)
// share column 2, row 0, weights 1 + 2 = 3; (1, 1) and the mirror of (-1, -1) column 3, row 1:
// 1 + 1 = 2; (-0.8, 1.5) column 1, row 1: 4. Sum W = 9, sum W^2 = 29.
ImagingWeights filled(const Weighting& w) {
  ImagingWeights weights(w, 4, 4, 0.25);
  weights.add(0, 0, 1);
  weights.add(0.1, 0.2, 2);
  weights.add(1, 1, 1);
  weights.add(-1, -1, 1);
  weights.add(-0.8, 1.5, 4);
  weights.add(0.5, 0.5, 0);  // no weight: counts nowhere
  weights.finish();
  return weights;
}

TEST(ImagingWeights, NaturalKeepsTheFileWeight) {
  const ImagingWeights w = filled({WeightingMode::natural, 0});
  EXPECT_FLOAT_EQ(w.weight(0, 0, 1), 1);
  EXPECT_FLOAT_EQ(w.weight(-0.8, 1.5, 4), 4);
  EXPECT_FLOAT_EQ(w.weight(1, 1, 0), 0);
}

TEST(ImagingWeights, UniformDividesByTheCellSum) {
  const ImagingWeights w = filled({WeightingMode::uniform, 0});
  EXPECT_DOUBLE_EQ(w.cell_sum(0, 0), 3);
  EXPECT_DOUBLE_EQ(w.cell_sum(-1, -1), 2);
  EXPECT_DOUBLE_EQ(w.cell_sum(0.8, -1.5), 4);  // the mirror of (-0.8, 1.5)
  EXPECT_DOUBLE_EQ(w.cell_sum(-0.1, 0.2), 0);    // column 1, row 0: empty
  EXPECT_FLOAT_EQ(w.weight(0, 0, 1), 1.0f / 3);
  EXPECT_FLOAT_EQ(w.weight(0.1, 0.2, 2), 2.0f / 3);
  EXPECT_FLOAT_EQ(w.weight(1, 1, 1), 0.5f);
  EXPECT_FLOAT_EQ(w.weight(-1, -1, 1), 0.5f);
  EXPECT_FLOAT_EQ(w.weight(-0.8, 1.5, 4), 1.0f);
}

TEST(ImagingWeights, BriggsFollowsWscleanFormula) {
  // f^2 = (5 * 10^-R)^2 / (sum W^2 / sum W) = 25 / (29 / 9) = 225 / 29 for R = 0.
  const ImagingWeights w = filled({WeightingMode::briggs, 0});
  EXPECT_NEAR(w.briggs_f2(), 225.0 / 29, 1e-12);
  EXPECT_NEAR(w.weight(0, 0, 1), 1 / (1 + 3 * 225.0 / 29), 1e-7);   // 29 / 704
  EXPECT_NEAR(w.weight(-0.8, 1.5, 4), 116.0 / 929, 1e-7);
  // R = 2 is close to natural, R = -2 close to uniform.
  const ImagingWeights robust = filled({WeightingMode::briggs, 2});
  EXPECT_NEAR(robust.briggs_f2(), 0.0025 / (29.0 / 9), 1e-15);
  EXPECT_NEAR(robust.weight(0, 0, 1), 1 / (1 + 3 * 0.0025 * 9 / 29), 1e-7);
  const ImagingWeights uniformish = filled({WeightingMode::briggs, -2});
  EXPECT_NEAR(uniformish.weight(0, 0, 1) * uniformish.briggs_f2() * 3, 1, 1e-4);
}

TEST(ImagingWeights, OffGridSamplesKeepTheirWeightForThePlanToRefuse) {
  const ImagingWeights w = filled({WeightingMode::uniform, 0});
  EXPECT_DOUBLE_EQ(w.cell_sum(2.1, 0), 0);   // column 4 of 0..3
  EXPECT_DOUBLE_EQ(w.cell_sum(0, 2.5), 0);   // row 2 of 0..1
  EXPECT_FLOAT_EQ(w.weight(2.1, 0, 3), 3);
}

TEST(ImagingWeights, CellsScaleWithImageSizeAndPixel) {
  // 100 pixels of 1 arcmin: N * cell = 0.0291 rad, so a cell is 34.4 wavelengths.
  ImagingWeights w({WeightingMode::uniform, 0}, 100, 100, 2.908882086657216e-4);
  w.add(36, 0, 1);
  w.add(40, 0, 1);  // the same cell: floor(1.05 + 50) = floor(1.16 + 50) = 51
  w.add(70, 0, 1);  // column 52
  w.finish();
  EXPECT_DOUBLE_EQ(w.cell_sum(34.4, 0), 2);
  EXPECT_DOUBLE_EQ(w.cell_sum(70, 0), 1);
  EXPECT_DOUBLE_EQ(w.cell_sum(-70, -0.001), 1);  // mirrored
  EXPECT_DOUBLE_EQ(w.cell_sum(-70, 0), 0);       // v = 0 is not mirrored: column 47
}

TEST(ImagingWeights, GaussianTaperHalvesThePsfAtItsFwhm) {
  // A taper of FWHM theta is a Gaussian of that FWHM convolved into the PSF: in the uv plane
  // exp(-2 pi^2 sigma^2 |uv|^2) with sigma = theta / 2.3548. Its transform, at l = theta / 2,
  // is half its peak: checked by summing the taper over a fine uv grid (a direct transform).
  Weighting w;
  w.taper_fwhm_rad = 60.0 / 3600 * M_PI / 180;  // 60 arcsec
  EXPECT_DOUBLE_EQ(gaussian_taper(w, 0, 0), 1.0);
  EXPECT_DOUBLE_EQ(gaussian_taper(w, 3000, -4000), gaussian_taper(w, 5000, 0));
  const double du = 50;  // wavelengths
  double peak = 0, half = 0;
  for (int i = -400; i <= 400; ++i)
    for (int j = -400; j <= 400; ++j) {
      const double u = i * du, v = j * du, t = gaussian_taper(w, u, v);
      peak += t;
      half += t * std::cos(2 * M_PI * u * w.taper_fwhm_rad / 2);
    }
  EXPECT_NEAR(half / peak, 0.5, 1e-6);
  EXPECT_DOUBLE_EQ(gaussian_taper(Weighting{}, 1e6, 1e6), 1.0);  // no taper
  w.mode = WeightingMode::uniform;
  EXPECT_EQ(describe_weighting(w), "uniform weighting, Gaussian taper 60asec");
}

TEST(Weighting, UvRangeKeepsDistancesWithinItsLimits) {
  Weighting w;
  EXPECT_TRUE(in_uv_range(w, 1e7, -1e7));  // no limits
  w.min_uv_lambda = 100;
  w.max_uv_lambda = 500;
  EXPECT_FALSE(in_uv_range(w, 60, 79));  // 99.4
  EXPECT_TRUE(in_uv_range(w, 60, 80));   // 100: the limits belong to the range
  EXPECT_TRUE(in_uv_range(w, -300, 400));  // 500
  EXPECT_FALSE(in_uv_range(w, -300, 401));
  EXPECT_EQ(describe_weighting(w), "natural weighting, uv 100-500 wavelengths");
  w.max_uv_lambda = 0;
  EXPECT_TRUE(in_uv_range(w, 1e7, 0));
  EXPECT_EQ(describe_weighting(w), "natural weighting, uv from 100 wavelengths");
  w.min_uv_lambda = 0;
  w.max_uv_lambda = 800;
  EXPECT_EQ(describe_weighting(w), "natural weighting, uv up to 800 wavelengths");
}

TEST(Weighting, ParsesModesAndRobustness) {
  EXPECT_EQ(parse_weighting("natural").mode, WeightingMode::natural);
  EXPECT_EQ(parse_weighting("Uniform").mode, WeightingMode::uniform);
  const Weighting b = parse_weighting("briggs:-0.5");
  EXPECT_EQ(b.mode, WeightingMode::briggs);
  EXPECT_DOUBLE_EQ(b.robustness, -0.5);
  EXPECT_DOUBLE_EQ(parse_weighting("briggs 1").robustness, 1);
  EXPECT_EQ(describe_weighting(b), "briggs -0.5 weighting");
  for (const char* bad : {"briggs", "briggs:", "briggs:x", "briggs:9", "robust", ""})
    EXPECT_THROW(parse_weighting(bad), UsageError) << bad;
}

}  // namespace
}  // namespace rapt
