// idg-grid --predict from options to the written visibilities (model_prediction.hpp): read the
// model and the data, plan every cross-correlation sample onto the model's grid, degrid each
// product the model predicts, write the new file or MODEL_DATA.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/stopwatch.hpp"
#include "idg/idg_engine.hpp"
#include "imaging/aterm_imaging.hpp"
#include "imaging/cell_size.hpp"
#include "imaging/energy_meter.hpp"
#include "imaging/image_padding.hpp"
#include "imaging/memory_estimate.hpp"
#include "imaging/model_data_column.hpp"
#include "imaging/model_prediction.hpp"
#include "imaging/visibility_input.hpp"
#include "imaging/w_layers.hpp"
#include "io/measurement_set.hpp"
#include "io/uvfits.hpp"

namespace rapt {
namespace {

enum class PredictOutput { uvfits, measurement_set, model_data };

// Where the prediction goes, refused before any work when it cannot go there.
PredictOutput predict_output(const IdgGridOptions& o) {
  if (o.name.empty()) {
    if (o.input == "-")
      throw UsageError("--predict without -o writes MODEL_DATA into a Measurement Set; standard "
                       "input holds UVFITS: give -o NAME.uvfits");
    if (visibility_file_kind(o.input) != VisibilityFileKind::measurement_set)
      throw UsageError("--predict without -o writes MODEL_DATA, which only a Measurement Set "
                       "has: give -o NAME.uvfits for " + o.input);
    return PredictOutput::model_data;
  }
  refuse_input_as_output(o.name, o.input,
                         "write the prediction to another file, or leave out -o to write it "
                         "into the input's MODEL_DATA");
  if (predict_output_is_measurement_set(o.name)) {
    // A directory: the MS writer replaces it only when complete (with --force).
    if (!o.overwrite && path_exists(o.name))
      throw file_error(o.name, "already exists (use --force to overwrite)");
    return PredictOutput::measurement_set;
  }
  check_replaceable_output(o.name, o.overwrite);
  return PredictOutput::uvfits;
}

// The model is degridded from the centre of a padded grid (--padding), as images are made.
IdgSettings model_settings(const IdgGridOptions& o, const FitsImage& model) {
  IdgSettings s;
  s.grid_size = o.padded(model.nx);
  s.image_size = s.grid_size * model.cell_rad;
  // The size from the model alone (no --size): a small one takes smaller subgrids, as
  // --size would have given it.
  s.subgrid_size = o.nx > 0 ? o.subgrid_size : std::min(o.subgrid_size, model.nx / 4 * 2);
  s.kernel_size = o.kernel_size;
  s.max_timesteps_per_subgrid = o.max_timesteps_per_subgrid;
  s.max_channels_per_subgrid = o.max_channels_per_subgrid;
  s.validate();
  return s;
}

// Every cross-correlation sample is predicted, flagged or not: weight 1, autocorrelations 0.
std::vector<float> unit_weights(const VisibilitySet& vs) {
  std::vector<float> ones(vs.vis.size(), 0.0f);
  for (size_t row = 0; row < vs.nrows(); ++row)
    if (vs.antenna1[row] != vs.antenna2[row])
      std::fill_n(ones.begin() + vs.index(row, 0, 0), vs.nchan() * vs.nstokes(), 1.0f);
  return ones;
}

// `extra_bytes`: what a way of predicting holds besides the grids and the predictions.
void check_memory(const IdgGridOptions& o, const IdgSettings& s, const VisibilitySet& vs,
                  double extra_bytes = 0) {
  const double needed = idg_image_bytes(s, o.thread_count()) + double(vs.vis.size()) * 8 + extra_bytes;
  const double available = available_memory_bytes();
  if (available > 0 && needed > available)
    throw UsageError(format_string("%s: predicting on a %d x %d grid (the model, padded) needs %s "
                                   "of memory, only %s is available", o.predict_model.c_str(),
                                   s.grid_size, s.grid_size, describe_bytes(needed).c_str(),
                                   describe_bytes(available).c_str()));
}

// The model in the centre of the padded grid's plane of `grid_size` pixels.
IdgImage model_plane(const FitsImage& model, int grid_size) {
  const std::vector<float> pixels = padded_plane(model.pixels, model.nx, grid_size);
  IdgImage image;
  image.npol = 1;
  image.size = grid_size;
  image.pixels.resize(pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i) image.pixels[i] = {pixels[i], 0.0f};
  return image;
}

// The plan of every sample of `view`; one that falls off the model's grid is an error.
IdgPlan predict_plan(const IdgGridOptions& o, const FitsImage& model, const IdgEngine& engine,
                     const IdgVisibilities& view) {
  IdgPlan plan = make_idg_plan(engine.settings(), view, engine.host_threads());
  if (plan.unplaced_off_grid > 0 || plan.unplaced_w > 0)
    throw file_error(o.input, format_string(
        "%lld visibilities cannot be predicted from %s: their baselines fall off its uv grid "
        "(%d pixels of %s) or their w beyond the w-layers; use a model of smaller pixels",
        (long long)(plan.unplaced_off_grid + plan.unplaced_w), o.predict_model.c_str(), model.nx,
        describe_angle(model.cell_rad).c_str()));
  return plan;
}

// Degrids product `product` of every sample into `predicted`; returns the values predicted.
int64_t degrid_product(const IdgGridOptions& o, const FitsImage& model, const VisibilitySet& vs,
                       const std::vector<float>& weights, int product, IdgEngine& engine,
                       const IdgImage& image, std::complex<float>* predicted) {
  IdgVisibilities view;
  view.nrows = vs.nrows();
  view.nchan = vs.nchan();
  view.products = vs.nstokes();
  view.product_index = {product, 0, 0, 0};
  view.antenna1 = vs.antenna1.data();
  view.antenna2 = vs.antenna2.data();
  view.uvw_m = vs.uvw_m.data();
  view.freq_hz = vs.channel_freq_hz.data();
  view.weight = weights.data();
  const IdgPlan plan = predict_plan(o, model, engine, view);
  engine.degrid(plan, image, view, predicted);
  return plan.visibilities_placed;
}

// The model seen through the A-terms: a four-correlation model (a Stokes I model on both
// parallel hands, a product's model on that product), degridded at once with every station's
// Jones matrices (each FREQ plane's for the channels nearest it), so the cross-hand products
// get what the matrices leak into them. Returns the values predicted.
int64_t degrid_through_aterms(const IdgGridOptions& o, const FitsImage& model, VisibilitySet& vs,
                              IdgSettings settings, const ATermInput& aterms,
                              std::unique_ptr<IdgEngine>& engine,
                              std::complex<float>* predicted) {
  const CorrelationProducts correlations = correlation_products(vs.stokes, o.input);
  const std::vector<OutputPolarisation> outputs = correlation_outputs(correlations);
  const size_t nchan = vs.nchan(), values = vs.nrows() * nchan * 4;
  settings.npol = 4;
  // Four model planes, and weights (twice, with several FREQ planes) and predictions of four
  // correlations per sample.
  check_memory(o, settings, vs,
               double(settings.grid_size) * settings.grid_size * 4 * 8 +
                   double(values) * (2 * sizeof(float) + 8));
  const int n = settings.grid_size;
  const std::vector<float> pixels = padded_plane(model.pixels, model.nx, n);
  IdgImage image;
  image.npol = 4;
  image.size = n;
  image.pixels.assign(size_t(4) * n * n, {0.0f, 0.0f});
  for (int k = 0; k < 4; ++k) {
    const bool parallel_hand = k == 0 || k == 3;
    if (outputs[size_t(k)].fits_stokes != model.stokes && !(model.stokes == 1 && parallel_hand)) continue;
    for (size_t i = 0; i < pixels.size(); ++i) image.plane(k)[i] = {pixels[i], 0.0f};
  }
  std::vector<float> weights(values, 0.0f);
  for (size_t row = 0; row < vs.nrows(); ++row)
    if (vs.antenna1[row] != vs.antenna2[row]) std::fill_n(weights.begin() + row * nchan * 4, nchan * 4, 1.0f);
  engine = make_idg_engine(o, settings);
  IdgVisibilities view;
  view.nrows = vs.nrows();
  view.nchan = nchan;
  view.products = 4;
  view.antenna1 = vs.antenna1.data();
  view.antenna2 = vs.antenna2.data();
  view.uvw_m = vs.uvw_m.data();
  view.freq_hz = vs.channel_freq_hz.data();
  view.aterm_slot = aterms.slot.data();
  // One pass per FREQ plane of the cube, over the channels nearest it.
  const ATermPlanes planes = aterm_planes(aterms.cube, vs.channel_freq_hz);
  std::vector<float> own;
  std::vector<std::complex<float>> four(values);
  int64_t written = 0;
  for (int plane : planes.used) {
    view.weight = weights.data();
    if (planes.used.size() > 1) {
      own = plane_pass_weights(planes, plane, weights, nchan);
      view.weight = own.data();
    }
    const IdgATerms sampled = sample_aterms(aterms.cube, settings, aterms.cube.freq_hz[size_t(plane)],
                                            int(vs.array.antennas.size()));
    view.aterms = &sampled;
    const IdgPlan plan = predict_plan(o, model, *engine, view);
    engine->degrid(plan, image, view, four.data());
    for (size_t row = 0; row < vs.nrows(); ++row)
      for (size_t c = 0; c < nchan; ++c) {
        if (planes.of_channel[c] != plane) continue;
        for (size_t k = 0; k < 4; ++k) {
          const int product = correlations.product[k];
          if (product < 0) continue;
          predicted[vs.index(row, c, size_t(product))] = four[(row * nchan + c) * 4 + k];
          written += vs.antenna1[row] != vs.antenna2[row];
        }
      }
  }
  return written;
}

void write_prediction(const IdgGridOptions& o, PredictOutput output, const VisibilitySet& vs) {
  switch (output) {
    case PredictOutput::model_data:
      write_model_data_column(o.input, vs, o.data_desc_id, o.field_id);
      break;
    case PredictOutput::measurement_set:
      write_measurement_set(o.name, vs, o.overwrite);
      break;
    case PredictOutput::uvfits:
      write_uvfits(o.name, vs, o.overwrite);
      break;
  }
}

}  // namespace

IdgPredictSummary run_idg_predict(const IdgGridOptions& o, const Messages& messages) {
  const Stopwatch started;
  std::vector<std::string> warnings;
  const FitsImage model = read_fits_image(o.predict_model, &warnings);
  const PredictOutput output = predict_output(o);
  VisibilitySet vs = read_visibility_file(o.input, o.selection(), &warnings);
  for (const std::string& w : warnings) messages.warning(w);
  check_model(model, o.predict_model, o, vs);
  // The taper's correction is inexact within a kernel of the padded grid's edge: pixels there
  // (with --padding 1, or a border narrower than the kernel) are warned of.
  const int edge = o.kernel_size - (o.padded(model.nx) - model.nx) / 2;
  size_t at_edge = 0;
  for (int y = 0; y < model.ny; ++y)
    for (int x = 0; x < model.nx; ++x)
      if (model.pixels[size_t(y) * model.nx + x] != 0.0f &&
          (x < edge || y < edge || x >= model.nx - edge || y >= model.ny - edge))
        ++at_edge;
  if (at_edge > 0)
    messages.warning(format_string(
        "%s: %zu model pixels lie within %d pixels of the image's edge, where the gridding's "
        "taper is inexact: their visibilities are approximate (model a larger field, or raise "
        "--padding)", o.predict_model.c_str(), at_edge, edge));
  const std::vector<int> products =
      predicted_products(model.stokes, vs.stokes, o.predict_model, o.input);
  ATermInput aterms;
  if (!o.aterms.empty()) {
    aterms = load_aterms(o.aterms, vs);
    correlation_products(vs.stokes, o.input);  // refused before any work
  }

  const std::vector<float> weights = unit_weights(vs);
  const UvExtent extent = uv_extent(vs.uvw_m, vs.channel_freq_hz, [&](size_t row, size_t) {
    return vs.antenna1[row] != vs.antenna2[row];
  });
  IdgSettings settings =
      with_w_layers(model_settings(o, model), extent.max_uv_lambda, extent.max_w_lambda,
                    o.nwlayers, o.wstep_lambda, vs.channel_freq_hz);
  settings.validate();
  check_memory(o, settings, vs);
  const IdgImage image = model_plane(model, settings.grid_size);
  std::unique_ptr<IdgEngine> engine;  // through A-terms, one of four polarisations is made below
  if (o.aterms.empty())
    engine = make_idg_engine(o, settings);

  IdgPredictSummary summary;
  EnergyMeter meter;
  meter.start();
  const Stopwatch degridding;
  std::vector<std::complex<float>> predicted(vs.vis.size(), {0.0f, 0.0f});
  if (o.aterms.empty())
    for (int product : products)
      summary.visibilities +=
          degrid_product(o, model, vs, weights, product, *engine, image, predicted.data());
  else
    summary.visibilities +=
        degrid_through_aterms(o, model, vs, settings, aterms, engine, predicted.data());
  summary.degridding_s = degridding.seconds();
  meter.stop();
  vs.vis = std::move(predicted);
  write_prediction(o, output, vs);
  summary.engine = engine->name();
  summary.energy = meter.report();
  summary.energy_note = meter.unavailable();
  summary.wall_s = started.seconds();
  return summary;
}

}  // namespace rapt
