#include "imaging/model_prediction.hpp"

#include <algorithm>
#include <cmath>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"  // format_string
#include "cli/text_words.hpp"
#include "imaging/cell_size.hpp"
#include "inspect/report_text.hpp"  // stokes_name

namespace rapt {
namespace {

// I itself, or a product that holds I plus or minus another parameter (RR, LL, XX, YY).
bool is_parallel_hand_or_i(int code) {
  return code == 1 || code == -1 || code == -2 || code == -5 || code == -6;
}

// The angle between two directions, radians.
double separation(double ra1, double dec1, double ra2, double dec2) {
  const double c =
      std::sin(dec1) * std::sin(dec2) + std::cos(dec1) * std::cos(dec2) * std::cos(ra1 - ra2);
  return std::acos(std::min(1.0, std::max(-1.0, c)));
}

}  // namespace

bool predict_output_is_measurement_set(const std::string& name) {
  std::string n = lowercase(name);
  while (n.size() > 1 && n.back() == '/') n.pop_back();
  return n.size() > 3 && n.compare(n.size() - 3, 3, ".ms") == 0;
}

std::vector<int> predicted_products(int model_stokes, const std::vector<int>& file_stokes,
                                    const std::string& model_path, const std::string& input) {
  std::vector<int> products;
  for (size_t i = 0; i < file_stokes.size(); ++i) {
    const int code = file_stokes[i];
    if (code == model_stokes || (model_stokes == 1 && is_parallel_hand_or_i(code)))
      products.push_back(int(i));
  }
  if (products.empty()) {
    std::string held;
    for (int c : file_stokes) held += (held.empty() ? "" : ", ") + stokes_name(c);
    throw file_error(model_path, "is a model of " + stokes_name(model_stokes) + ", and " + input +
                                     " holds " + held + " (a model of I or of one of these is "
                                     "needed)");
  }
  return products;
}

void check_model(const FitsImage& model, const std::string& path, const IdgGridOptions& o,
                 const VisibilitySet& vs) {
  if (model.nx != model.ny || model.nx < 20 || model.nx % 2)
    throw file_error(path, format_string("is %d x %d pixels: --predict needs a square image of "
                                         "an even size of at least 20", model.nx, model.ny));
  if (o.nx > 0 && o.nx != model.nx)
    throw UsageError(format_string("--size %d differs from the model's %d pixels (%s)", o.nx,
                                   model.nx, path.c_str()));
  if (o.cell_rad > 0 && std::abs(o.cell_rad / model.cell_rad - 1) > 1e-6)
    throw UsageError("--scale " + describe_angle(o.cell_rad) + " differs from the model's " +
                     describe_angle(model.cell_rad) + " pixels (" + path + ")");
  if (o.padded(model.nx) * model.cell_rad >= 2)
    throw file_error(path, format_string("%d pixels of %s, padded to %d (--padding), span more "
                                         "than the whole sky", model.nx,
                                         describe_angle(model.cell_rad).c_str(),
                                         o.padded(model.nx)));
  const double offset = separation(model.phase_centre_ra_rad, model.phase_centre_dec_rad,
                                   vs.phase_centre_ra_rad, vs.phase_centre_dec_rad);
  if (offset > 0.01 * model.cell_rad)
    throw file_error(path, "is centred " + describe_angle(offset) + " from the phase centre of " +
                               o.input + " (the model must be an image of that field)");
}

}  // namespace rapt
