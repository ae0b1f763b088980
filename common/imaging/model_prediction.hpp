// idg-grid --predict: the visibilities a sky model (a FITS image in Jy per pixel, as WSClean's
// NAME-model.fits) predicts at every row and channel of a visibility file, by IDG's degridder,
// written as a new UVFITS file or Measurement Set with the input's rows, weights and flags, or
// (no -o) into the input Measurement Set's MODEL_DATA.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/program.hpp"
#include "imaging/idg_grid_options.hpp"
#include "io/fits_image.hpp"
#include "io/visibility_set.hpp"

namespace rapt {

// --predict's output: NAME.ms is a new Measurement Set, anything else a UVFITS file.
bool predict_output_is_measurement_set(const std::string& name);

// Which of the file's products a model plane of FITS Stokes code `model_stokes` predicts: a
// Stokes I model gives XX, YY, RR, LL (and I itself) its values and leaves the cross products
// at 0; a model of one product (XX, ...) gives that product. Throws DataError naming both files
// when the model's polarisation is not one the file can take.
std::vector<int> predicted_products(int model_stokes, const std::vector<int>& file_stokes,
                                    const std::string& model_path, const std::string& input);

// Checks the model against the options and the data (square, even, the same pixel size as
// --scale and size as --size where given, centred on the data's phase centre); throws
// UsageError or DataError naming the model file.
void check_model(const FitsImage& model, const std::string& model_path, const IdgGridOptions& o,
                 const VisibilitySet& vs);

struct IdgPredictSummary {
  int64_t visibilities = 0;  // (row, channel, product) values predicted
  double degridding_s = 0;
  double wall_s = 0;
  std::string engine;
  std::string energy;
  std::string energy_note;
};

IdgPredictSummary run_idg_predict(const IdgGridOptions& options, const Messages& messages);

}  // namespace rapt
