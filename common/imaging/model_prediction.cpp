#include "imaging/model_prediction.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/stopwatch.hpp"
#include "cli/text_words.hpp"
#include "idg/idg_engine.hpp"
#include "imaging/cell_size.hpp"
#include "imaging/energy_meter.hpp"
#include "imaging/memory_estimate.hpp"
#include "imaging/model_data_column.hpp"
#include "imaging/visibility_input.hpp"
#include "imaging/w_layers.hpp"
#include "inspect/report_text.hpp"  // stokes_name
#include "io/measurement_set.hpp"
#include "io/uvfits.hpp"

namespace rapt {
namespace {

constexpr double kSpeedOfLight_m_s = 299792458.0;

bool is_parallel_hand_or_i(int code) { return code == 1 || code == -1 || code == -2 || code == -5 || code == -6; }

// The angle between two directions, radians.
double separation(double ra1, double dec1, double ra2, double dec2) {
  const double c = std::sin(dec1) * std::sin(dec2) + std::cos(dec1) * std::cos(dec2) * std::cos(ra1 - ra2);
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
  if (model.nx != model.ny || model.nx < 16 || model.nx % 2)
    throw file_error(path, format_string("is %d x %d pixels: --predict needs a square image of "
                                         "an even size of at least 16", model.nx, model.ny));
  if (o.nx > 0 && o.nx != model.nx)
    throw UsageError(format_string("--size %d differs from the model's %d pixels (%s)", o.nx,
                                   model.nx, path.c_str()));
  if (o.cell_rad > 0 && std::abs(o.cell_rad / model.cell_rad - 1) > 1e-6)
    throw UsageError("--scale " + describe_angle(o.cell_rad) + " differs from the model's " +
                     describe_angle(model.cell_rad) + " pixels (" + path + ")");
  const double offset = separation(model.phase_centre_ra_rad, model.phase_centre_dec_rad,
                                   vs.phase_centre_ra_rad, vs.phase_centre_dec_rad);
  if (offset > 0.01 * model.cell_rad)
    throw file_error(path, "is centred " + describe_angle(offset) + " from the phase centre of " +
                               o.input + " (the model must be an image of that field)");
}

IdgPredictSummary run_idg_predict(const IdgGridOptions& o, const Messages& messages) {
  const Stopwatch started;
  std::vector<std::string> warnings;
  const FitsImage model = read_fits_image(o.predict_model, &warnings);
  const bool model_data = o.name.empty();
  const bool ms = !model_data && predict_output_is_measurement_set(o.name);
  if (model_data && visibility_file_kind(o.input) != VisibilityFileKind::measurement_set)
    throw UsageError("--predict without -o writes MODEL_DATA, which only a Measurement Set has: "
                     "give -o NAME.uvfits for " + o.input);
  if (!model_data && !ms)
    check_replaceable_output(o.name, o.overwrite);
  else if (ms && !o.overwrite && path_exists(o.name))
    throw file_error(o.name, "already exists (use --force to overwrite)");
  MeasurementSetSelection selection;
  selection.data_column = o.data_column;
  selection.data_desc_id = o.data_desc_id;
  selection.field_id = o.field_id;
  VisibilitySet vs = read_visibility_file(o.input, selection, &warnings);
  for (const std::string& w : warnings) messages.warning(w);
  check_model(model, o.predict_model, o, vs);
  const std::vector<int> products = predicted_products(model.stokes, vs.stokes, o.predict_model, o.input);

  IdgSettings settings;
  settings.grid_size = model.nx;
  settings.image_size = model.nx * model.cell_rad;
  settings.subgrid_size = o.subgrid_size;
  settings.kernel_size = o.kernel_size;
  settings.max_timesteps_per_subgrid = o.max_timesteps_per_subgrid;
  settings.max_channels_per_subgrid = o.max_channels_per_subgrid;
  settings.validate();

  // Every cross-correlation sample is predicted, flagged or not: weight 1, autocorrelations 0.
  const size_t nrows = vs.nrows(), nchan = vs.nchan(), nprod = vs.nstokes();
  std::vector<float> ones(nrows * nchan * nprod, 0.0f);
  double max_w = 0;
  for (size_t row = 0; row < nrows; ++row) {
    if (vs.antenna1[row] == vs.antenna2[row]) continue;
    std::fill_n(ones.begin() + vs.index(row, 0, 0), nchan * nprod, 1.0f);
    for (double f : vs.channel_freq_hz)
      max_w = std::max(max_w, std::abs(vs.uvw_m[row][2]) * f / kSpeedOfLight_m_s);
  }
  const WLayerChoice layers = choose_w_layers(settings, max_w, o.nwlayers, o.wstep_lambda);
  settings.nr_w_layers = layers.nr_w_layers;
  settings.w_step_lambda = layers.w_step_lambda;
  settings.validate();

  const int threads = o.threads > 0 ? o.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  const double needed = idg_image_bytes(settings, threads) + double(vs.vis.size()) * 8;
  const double available = available_memory_bytes();
  if (available > 0 && needed > available)
    throw UsageError(format_string("%s: predicting from a %d x %d model needs %s of memory, only "
                                   "%s is available", o.predict_model.c_str(), model.nx, model.nx,
                                   describe_bytes(needed).c_str(), describe_bytes(available).c_str()));

  IdgImage image;
  image.npol = 1;
  image.size = model.nx;
  image.pixels.resize(model.pixels.size());
  for (size_t i = 0; i < model.pixels.size(); ++i) image.pixels[i] = {model.pixels[i], 0.0f};

  std::unique_ptr<IdgEngine> engine = make_cpu_idg_engine(settings, threads);
  EnergyMeter meter;
  meter.start();
  const Stopwatch degridding;
  std::vector<std::complex<float>> predicted(vs.vis.size(), {0.0f, 0.0f});
  IdgPredictSummary summary;
  for (int product : products) {
    IdgVisibilities view;
    view.nrows = nrows;
    view.nchan = nchan;
    view.products = nprod;
    view.product_index = {product, 0, 0, 0};
    view.antenna1 = vs.antenna1.data();
    view.antenna2 = vs.antenna2.data();
    view.uvw_m = vs.uvw_m.data();
    view.freq_hz = vs.channel_freq_hz.data();
    view.weight = ones.data();
    const IdgPlan plan = make_idg_plan(settings, view);
    if (plan.unplaced_off_grid > 0 || plan.unplaced_w > 0)
      throw file_error(o.input, format_string(
          "%lld visibilities cannot be predicted from %s: their baselines fall off its uv grid "
          "(%d pixels of %s) or their w beyond the w-layers; use a model of smaller pixels",
          (long long)(plan.unplaced_off_grid + plan.unplaced_w), o.predict_model.c_str(),
          model.nx, describe_angle(model.cell_rad).c_str()));
    engine->degrid(plan, image, view, predicted.data());
    summary.visibilities += plan.visibilities_placed;
  }
  summary.degridding_s = degridding.seconds();
  meter.stop();
  vs.vis = std::move(predicted);
  if (model_data)
    write_model_data_column(o.input, vs, o.data_desc_id, o.field_id);
  else if (ms)
    write_measurement_set(o.name, vs, o.overwrite);
  else
    write_uvfits(o.name, vs, o.overwrite);
  summary.engine = engine->name();
  summary.energy = meter.report();
  summary.energy_note = meter.unavailable();
  summary.wall_s = started.seconds();
  return summary;
}

}  // namespace rapt
