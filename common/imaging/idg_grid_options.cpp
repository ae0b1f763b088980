#include "imaging/idg_grid_options.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include "cli/errors.hpp"
#include "cli/text_words.hpp"
#include "imaging/cell_size.hpp"
#include "imaging/image_padding.hpp"
#include "imaging/polarisation_selection.hpp"

namespace rapt {

int IdgGridOptions::thread_count() const {
  return threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
}

std::unique_ptr<IdgEngine> make_idg_engine(const IdgGridOptions& o, const IdgSettings& settings) {
  return o.device.use_gpu ? make_gpu_idg_engine(settings, o.device.gpu_index)
                          : make_cpu_idg_engine(settings, o.thread_count());
}

int IdgGridOptions::padded(int n) const { return padded_size(n, padding); }

MeasurementSetSelection IdgGridOptions::selection() const {
  MeasurementSetSelection s;
  s.data_column = data_column;
  s.data_desc_id = data_desc_id;
  s.field_id = field_id;
  return s;
}

void add_idg_grid_options(cxxopts::Options& options) {
  options.add_options("Input")
      ("data-column", "Measurement Set column to image: DATA, CORRECTED_DATA, MODEL_DATA or any other "
       "complex data column",
       cxxopts::value<std::string>()->default_value("DATA"))
      ("field", "Measurement Set FIELD_ID to image (default: the lowest the rows use)",
       cxxopts::value<int>())
      ("data-desc-id", "Measurement Set DATA_DESC_ID (spectral window) to image (default: the "
       "one the rows use)", cxxopts::value<int>())
      ("pol", "images to make: I, Q, U, V, XX, YY, XY, YX, RR, LL, RL, LR or a list (IQUV, xx,yy)",
       cxxopts::value<std::string>()->default_value("I"))
      ("taper", "Gaussian uv taper: the FWHM it gives the PSF, e.g. 60asec (WSClean's "
       "-taper-gaussian)", cxxopts::value<std::string>())
      ("weight", "natural, uniform or briggs:R (also 'briggs R'; robustness R, -5..5)",
       cxxopts::value<std::string>()->default_value("natural"))
      ("minuv-l", "leave out samples of uv distance below this, wavelengths (WSClean's -minuv-l)",
       cxxopts::value<double>())
      ("maxuv-l", "leave out samples of uv distance above this, wavelengths (WSClean's -maxuv-l)",
       cxxopts::value<double>());
  options.add_options("Image")
      ("size", "image and grid size in pixels, N (square; even, at least 20; required)",
       cxxopts::value<int>())
      ("scale", "pixel size: 100mas, 20asec, 1.5amin, 0.01deg, 2e-5rad (a bare number is "
       "degrees; required)",
       cxxopts::value<std::string>())
      ("o,name", "output name: NAME-dirty.fits and NAME-psf.fits (required, except with "
       "--predict into a Measurement Set's MODEL_DATA)",
       cxxopts::value<std::string>())
      ("no-psf", "write no NAME-psf.fits")
      ("channels-out", "images of K groups of adjacent channels: NAME-0000-dirty.fits, ..., and "
       "with K >= 2 the whole band's NAME-MFS-dirty.fits",
       cxxopts::value<int>()->default_value("1"))
      ("predict", "instead of imaging, predict the visibilities of this model image (Jy/pixel) "
       "into a new file -o NAME.uvfits or NAME.ms, or without -o into the input Measurement "
       "Set's MODEL_DATA", cxxopts::value<std::string>());
  options.add_options("Deconvolution")
      ("niter", "CLEAN up to N components (Hogbom minor cycles, Cotton-Schwab major cycles): "
       "also NAME-model.fits, NAME-residual.fits and NAME-image.fits (restored)",
       cxxopts::value<int>()->default_value("0"))
      ("gain", "fraction of the peak a CLEAN component takes",
       cxxopts::value<double>()->default_value("0.1"))
      ("mgain", "fraction of its first peak a minor cycle cleans before a major cycle (1 = "
       "none until the end)", cxxopts::value<double>()->default_value("0.8"))
      ("threshold", "Jy/beam: CLEAN takes no component below it",
       cxxopts::value<double>()->default_value("0"));
  options.add_options("Gridding")
      ("padding", "grid P times the image's size and write its centre, so that its edge is "
       "exact (WSClean's -padding; 1 to 2)", cxxopts::value<double>()->default_value("1.2"))
      ("subgrid", "subgrid size in pixels (images under 64 pixels: half of --size)",
       cxxopts::value<int>()->default_value("32"))
      ("kernel-size", "support of the (taper) kernel in pixels, kept free on every subgrid",
       cxxopts::value<int>()->default_value("9"))
      ("max-timesteps-per-subgrid", "most time steps one subgrid holds",
       cxxopts::value<int>()->default_value("128"))
      ("max-channels-per-subgrid", "most channels one subgrid holds",
       cxxopts::value<int>()->default_value("16"))
      ("wstep", "w-layer thickness in wavelengths (default: from --nwlayers)",
       cxxopts::value<double>())
      ("nwlayers", "number of w-layers the data's w range is split into (0 = as few as the "
       "kernel allows)", cxxopts::value<int>()->default_value("0"))
      ("aterms", "per-station direction-dependent Jones matrices to grid (and --predict) "
       "through: a FITS cube with axes RA, DEC, MATRIX, ANTENNA[, FREQ, TIME]",
       cxxopts::value<std::string>());
  options.add_options("Engine")
      ("device", "auto, cpu, gpu or gpu:N",
       cxxopts::value<std::string>()->default_value("auto"))
      ("threads", "CPU threads (0 = all cores)", cxxopts::value<int>()->default_value("0"))
      ("files", "visibilities: a Measurement Set or a UVFITS file (- for UVFITS on standard input)",
       cxxopts::value<std::vector<std::string>>());
}

namespace {

int positive(const cxxopts::ParseResult& r, const char* key) {
  const int value = r[key].as<int>();
  if (value < 1) throw UsageError(std::string("--") + key + " must be a positive number");
  return value;
}

// The image size first: a small one also sets the subgrid's default.
void check_gridding(const IdgGridOptions& o) {
  if (o.nx < 20 || o.nx % 2) throw UsageError("--size must be even and at least 20");
  if (o.kernel_size < 8)
    throw UsageError("--kernel-size must be at least 8 (the taper's 7 pixels and room for the "
                     "w-term)");
  if (o.subgrid_size % 2 || o.subgrid_size <= o.kernel_size)
    throw UsageError("--subgrid (" + std::to_string(o.subgrid_size) + "; by default 32, or half "
                     "of --size where that is less) must be an even number of pixels larger than "
                     "--kernel-size (" + std::to_string(o.kernel_size) + ")");
  if (o.cell_rad > 0 && o.cell_rad * o.padded(o.nx) >= 2)
    throw UsageError("--size x --scale, padded (--padding), spans more than the whole sky "
                     "(direction cosines -1..1)");
  if (o.subgrid_size > o.nx / 2)
    throw UsageError("--subgrid (" + std::to_string(o.subgrid_size) +
                     ") must be at most half of --size");
}

}  // namespace

namespace {

void read_input_options(const cxxopts::ParseResult& r, IdgGridOptions& o) {
  if (!r.count("files") || r["files"].as<std::vector<std::string>>().size() != 1)
    throw UsageError("give one Measurement Set or UVFITS file");
  o.input = r["files"].as<std::vector<std::string>>()[0];
  // Measurement Set column names are upper case; "corrected_data" means CORRECTED_DATA.
  o.data_column = uppercase(r["data-column"].as<std::string>());
  const bool name_like =
      !o.data_column.empty() && std::all_of(o.data_column.begin(), o.data_column.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      });
  if (!name_like)
    throw UsageError("--data-column must name a column, such as DATA, CORRECTED_DATA or "
                     "MODEL_DATA (got '" + r["data-column"].as<std::string>() + "')");
  if (r.count("field")) {
    o.field_id = r["field"].as<int>();
    if (o.field_id < 0) throw UsageError("--field must not be negative");
  }
  if (r.count("data-desc-id")) {
    o.data_desc_id = r["data-desc-id"].as<int>();
    if (o.data_desc_id < 0) throw UsageError("--data-desc-id must not be negative");
  }
  o.polarisations = parse_polarisation_list(r["pol"].as<std::string>());
  o.weighting = parse_weighting(r["weight"].as<std::string>());
  if (r.count("taper")) {
    o.weighting.taper_fwhm_rad = parse_cell_size_rad(r["taper"].as<std::string>(), "--taper");
    if (!(o.weighting.taper_fwhm_rad > 0))
      throw UsageError("--taper must be a positive angle (the FWHM, e.g. 60asec)");
  }
  for (const char* key : {"minuv-l", "maxuv-l"}) {
    if (!r.count(key)) continue;
    const double value = r[key].as<double>();
    if (!(value >= 0) || !std::isfinite(value))
      throw UsageError(std::string("--") + key + " must be a number of wavelengths, 0 or more");
    (std::string(key) == "minuv-l" ? o.weighting.min_uv_lambda : o.weighting.max_uv_lambda) = value;
  }
  if (o.weighting.max_uv_lambda > 0 && o.weighting.max_uv_lambda <= o.weighting.min_uv_lambda)
    throw UsageError("--maxuv-l must be larger than --minuv-l");
}

void read_clean_options(const cxxopts::ParseResult& r, IdgGridOptions& o) {
  CleanSettings& c = o.clean;
  c.niter = r["niter"].as<int>();
  c.gain = r["gain"].as<double>();
  c.mgain = r["mgain"].as<double>();
  c.threshold = r["threshold"].as<double>();
  if (c.niter < 0) throw UsageError("--niter must not be negative");
  if (!(c.gain > 0 && c.gain <= 1)) throw UsageError("--gain must lie in (0, 1]");
  if (!(c.mgain > 0 && c.mgain <= 1)) throw UsageError("--mgain must lie in (0, 1]");
  if (!(c.threshold >= 0) || !std::isfinite(c.threshold))
    throw UsageError("--threshold must be a flux of 0 Jy/beam or more");
  for (const char* key : {"gain", "mgain", "threshold"})
    if (r.count(key) && c.niter == 0) throw UsageError(std::string("--") + key + " needs --niter");
  if (c.niter > 0 && !o.predict_model.empty())
    throw UsageError("--niter does not apply to --predict");
}

void read_image_options(const cxxopts::ParseResult& r, IdgGridOptions& o) {
  if (r.count("predict")) {
    o.predict_model = r["predict"].as<std::string>();
    for (const char* key : {"pol", "weight", "taper", "minuv-l", "maxuv-l", "no-psf", "channels-out"})
      if (r.count(key))
        throw UsageError(std::string("--") + key + " does not apply to --predict (one Stokes I "
                         "or product model, every channel)");
  }
  const bool predict = !o.predict_model.empty();
  // With --predict the model image gives size and pixel; --size and --scale, if given, must
  // agree with it (model_prediction.cpp).
  if (r.count("size")) {
    o.nx = o.ny = positive(r, "size");
  } else if (!predict) {
    throw UsageError("--size is required (image size in pixels)");
  }
  if (r.count("scale")) {
    o.cell_rad = parse_cell_size_rad(r["scale"].as<std::string>());
    if (o.cell_rad * o.nx >= 2)
      throw UsageError("--size x --scale spans more than the whole sky (direction cosines -1..1)");
  } else if (!predict) {
    throw UsageError("--scale is required (pixel size, e.g. 20asec)");
  }
  // --predict without -o writes MODEL_DATA into the input Measurement Set.
  if (!r.count("name") && !predict)
    throw UsageError("--name (-o) is required: images go to NAME-dirty.fits");
  if (r.count("name")) {
    o.name = r["name"].as<std::string>();
    if (o.name.empty() || o.name == "-") throw UsageError("--name must name files");
  }
  o.psf = r.count("no-psf") == 0;
  o.channels_out = positive(r, "channels-out");
  read_clean_options(r, o);
}

void read_gridding_options(const cxxopts::ParseResult& r, IdgGridOptions& o) {
  o.padding = r["padding"].as<double>();
  // Above 2 CLEAN's region (the central half of the padded image) would pass the image's edge.
  if (!(o.padding >= 1 && o.padding <= 2))
    throw UsageError("--padding must be from 1 to 2");
  o.subgrid_size = positive(r, "subgrid");
  // Small images take smaller subgrids unless told otherwise (a subgrid spans at most half).
  if (!r.count("subgrid") && o.nx > 0) o.subgrid_size = std::min(o.subgrid_size, o.nx / 4 * 2);
  o.kernel_size = positive(r, "kernel-size");
  o.max_timesteps_per_subgrid = positive(r, "max-timesteps-per-subgrid");
  o.max_channels_per_subgrid = positive(r, "max-channels-per-subgrid");
  o.nwlayers = r["nwlayers"].as<int>();
  if (o.nwlayers < 0) throw UsageError("--nwlayers must be 0 (automatic) or positive");
  if (r.count("wstep")) {
    if (o.nwlayers > 0) throw UsageError("give --wstep or --nwlayers, not both");
    o.wstep_lambda = r["wstep"].as<double>();
    if (!(o.wstep_lambda > 0) || !std::isfinite(o.wstep_lambda))
      throw UsageError("--wstep must be a positive number of wavelengths");
  }
  if (r.count("aterms")) {
    o.aterms = r["aterms"].as<std::string>();
    if (o.aterms.empty()) throw UsageError("--aterms must name a FITS file");
    if (o.clean.niter > 0)
      throw UsageError("--niter does not take --aterms: CLEAN works on images gridded without "
                       "A-terms");
  }
  // With --predict and no --size, the model's size is checked when it is read.
  if (o.predict_model.empty() || o.nx > 0) check_gridding(o);
}

void read_engine_options(const cxxopts::ParseResult& r, IdgGridOptions& o) {
  o.device = choose_device(lowercase(r["device"].as<std::string>()));
  o.threads = r["threads"].as<int>();
  if (o.threads < 0) throw UsageError("--threads must not be negative");
}

}  // namespace

IdgGridOptions idg_grid_options_from(const cxxopts::ParseResult& r) {
  IdgGridOptions o;
  read_input_options(r, o);
  read_image_options(r, o);
  read_gridding_options(r, o);
  read_engine_options(r, o);
  return o;
}

}  // namespace rapt
