// --predict: which products a model predicts, and the checks of a model against the data.
#include <gtest/gtest.h>

#include "cli/errors.hpp"
#include "imaging/model_prediction.hpp"

namespace rapt {
namespace {

using Indices = std::vector<int>;

TEST(PredictedProducts, StokesIModelFillsTheParallelHands) {
  EXPECT_EQ(predicted_products(1, {-5, -6, -7, -8}, "m.fits", "a.ms"), Indices({0, 1}));
  EXPECT_EQ(predicted_products(1, {-1, -3, -4, -2}, "m.fits", "a.ms"), Indices({0, 3}));
  EXPECT_EQ(predicted_products(1, {1}, "m.fits", "a.uvfits"), Indices({0}));
  EXPECT_EQ(predicted_products(-7, {-5, -6, -7, -8}, "m.fits", "a.ms"), Indices({2}));
}

TEST(PredictedProducts, RefusesAModelTheFileCannotTake) {
  try {
    predicted_products(1, {-7}, "m.fits", "zen.xy.ms");
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_STREQ(e.what(), "m.fits: is a model of I, and zen.xy.ms holds XY (a model of I or of one "
                           "of these is needed)");
  }
  EXPECT_THROW(predicted_products(2, {-5, -6}, "m.fits", "a.ms"), DataError);
}

TEST(PredictOutput, MeasurementSetByName) {
  EXPECT_TRUE(predict_output_is_measurement_set("model.ms"));
  EXPECT_TRUE(predict_output_is_measurement_set("d/model.MS/"));
  EXPECT_FALSE(predict_output_is_measurement_set("model.uvfits"));
  EXPECT_FALSE(predict_output_is_measurement_set("ms"));
}

TEST(CheckModel, WantsASquareImageOfTheField) {
  FitsImage model;
  model.nx = model.ny = 64;
  model.cell_rad = 1e-4;
  model.phase_centre_ra_rad = 1.0;
  model.phase_centre_dec_rad = -0.5;
  VisibilitySet vs;
  vs.phase_centre_ra_rad = 1.0;
  vs.phase_centre_dec_rad = -0.5;
  IdgGridOptions o;
  o.input = "a.ms";
  EXPECT_NO_THROW(check_model(model, "m.fits", o, vs));
  o.nx = 128;
  EXPECT_THROW(check_model(model, "m.fits", o, vs), UsageError);
  o.nx = 64;
  o.cell_rad = 2e-4;
  EXPECT_THROW(check_model(model, "m.fits", o, vs), UsageError);
  o.cell_rad = 0;
  vs.phase_centre_dec_rad = -0.5 + 1e-4;  // a pixel away
  EXPECT_THROW(check_model(model, "m.fits", o, vs), DataError);
  vs.phase_centre_dec_rad = -0.5;
  model.ny = 32;
  EXPECT_THROW(check_model(model, "m.fits", o, vs), DataError);
}

}  // namespace
}  // namespace rapt
