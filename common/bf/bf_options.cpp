#include "bf/bf_options.hpp"

#include <cmath>

#include "cli/errors.hpp"

namespace rapt {

void add_bf_options(cxxopts::Options& options) {
  options.add_options("Beams")
      ("o,output", "output root: ROOT_B000.fil, ... (required); - writes a run of one beam to "
       "standard output", cxxopts::value<std::string>())
      ("layout", "array layout file (name x y z per line); default: the voltages' header",
       cxxopts::value<std::string>())
      ("ra", "pointing centre RA (hh:mm:ss.s or degrees); default: the voltages' header",
       cxxopts::value<std::string>())
      ("dec", "pointing centre Dec (+dd:mm:ss.s or degrees); default: the voltages' header",
       cxxopts::value<std::string>())
      ("beams", "beams file: '<ra> <dec> [name]' or 'offset <east_deg> <north_deg> [name]' lines",
       cxxopts::value<std::string>())
      ("tiling", "a grid of beams around the pointing: hex or square",
       cxxopts::value<std::string>())
      ("spacing", "grid spacing in degrees (--tiling)", cxxopts::value<double>())
      ("nbeams", "number of grid beams, nearest the centre first (--tiling)",
       cxxopts::value<int>()->default_value("1"))
      ("weights", "complex weights file (nbeams x nchan x nant) instead of the geometry",
       cxxopts::value<std::string>())
      ("fringe-stopped", "the voltages are delay-compensated towards the pointing centre: "
       "steer by the delay differences from it")
      ("delay-interval", "seconds between updates of the geometric weights (0 = as often as "
       "keeps their phases within 0.01 turn, at most every second)",
       cxxopts::value<double>()->default_value("0"));
  options.add_options("Flagging")
      ("flags", "flagged intervals: '<station> <start_s> <end_s>' lines",
       cxxopts::value<std::string>())
      ("flag-thresh", "leave a station out of a block when more than this fraction of it is "
       "flagged", cxxopts::value<double>()->default_value("0.1"));
  options.add_options("Output")
      ("stokes", "detected beams: I or IQUV", cxxopts::value<std::string>()->default_value("I"))
      ("tint", "input samples integrated into one output sample",
       cxxopts::value<int>()->default_value("1"))
      ("fscrunch", "adjacent channels summed into one output channel",
       cxxopts::value<int>()->default_value("1"))
      ("nbits", "filterbank samples: 32 (float) or 8 (scaled, see the man page)",
       cxxopts::value<int>()->default_value("32"))
      ("coherent", "also write the complex beams (ROOT_B000.dada, ...)")
      ("no-filterbank", "write no detected beams (with --coherent or --incoherent)")
      ("incoherent", "also write the incoherent beam (ROOT_IB.fil)");
  options.add_options("Engine")
      ("precision", "GPU arithmetic: fp32, or fp16 (tensor cores, FP32 accumulation)",
       cxxopts::value<std::string>()->default_value("fp32"));
  add_stream_options(options, "Engine", "formed");
  options.add_options("Engine")
      ("files", "channelised voltages (PSRDADA, GUPPI RAW, VDIF; '-' = PSRDADA on stdin)",
       cxxopts::value<std::vector<std::string>>());
}

namespace {

template <typename T>
T positive(const cxxopts::ParseResult& r, const char* name) {
  const T value = r[name].as<T>();
  if (!(value > 0)) throw UsageError(std::string("--") + name + " must be positive");
  return value;
}

}  // namespace

BfOptions bf_options_from(const cxxopts::ParseResult& r) {
  BfOptions o;
  if (!r.count("files") || r["files"].as<std::vector<std::string>>().size() != 1)
    throw UsageError("give one voltage file (or '-' for standard input)");
  o.input = r["files"].as<std::vector<std::string>>()[0];
  if (!r.count("output")) throw UsageError("--output ROOT is required");
  o.output_root = r["output"].as<std::string>();
  // The root names files (ROOT_B000.fil): an empty one would write _B000.fil in the working
  // directory. ("-", standard output, takes a run of one file: checked with the beams.)
  if (o.output_root.empty())
    throw UsageError("--output needs a root for the file names (ROOT_B000.fil ...)");
  if (r.count("layout")) o.layout_path = r["layout"].as<std::string>();
  if (r.count("ra")) o.ra = r["ra"].as<std::string>();
  if (r.count("dec")) o.dec = r["dec"].as<std::string>();
  if (r.count("beams")) o.beams_path = r["beams"].as<std::string>();
  if (r.count("tiling")) {
    o.tiling = parse_beam_tiling(r["tiling"].as<std::string>());
    if (!r.count("spacing")) throw UsageError("--tiling needs --spacing (degrees)");
    o.spacing_deg = r["spacing"].as<double>();
    o.nbeams = positive<int>(r, "nbeams");
  } else if (r.count("spacing") || r["nbeams"].as<int>() != 1) {
    throw UsageError("--spacing and --nbeams go with --tiling");
  }
  if (r.count("weights")) o.weights_path = r["weights"].as<std::string>();
  if (int(!o.beams_path.empty()) + int(o.tiling.has_value()) + int(!o.weights_path.empty()) > 1)
    throw UsageError("give one of --beams, --tiling and --weights");
  o.fringe_stopped = r.count("fringe-stopped") > 0;
  if (o.fringe_stopped && !o.weights_path.empty())
    throw UsageError("--fringe-stopped steers geometric beams; it does not apply to --weights");
  o.delay_interval_s = r["delay-interval"].as<double>();
  if (!(o.delay_interval_s >= 0) || !std::isfinite(o.delay_interval_s))
    throw UsageError("--delay-interval must be 0 (automatic) or a positive number of seconds");
  if (r.count("flags")) o.flags_path = r["flags"].as<std::string>();
  o.flag_thresh = r["flag-thresh"].as<double>();
  if (!(o.flag_thresh >= 0 && o.flag_thresh <= 1))
    throw UsageError("--flag-thresh must lie between 0 and 1");

  const std::string stokes = r["stokes"].as<std::string>();
  if (stokes == "I" || stokes == "i") o.detection = BeamDetection::stokes_i;
  else if (stokes == "IQUV" || stokes == "iquv") o.detection = BeamDetection::full_stokes;
  else throw UsageError("--stokes must be I or IQUV, not '" + stokes + "'");
  if (r.count("no-filterbank")) o.detection = BeamDetection::none;
  o.tint = positive<int>(r, "tint");
  o.fscrunch = positive<int>(r, "fscrunch");
  o.nbits = r["nbits"].as<int>();
  if (o.nbits != 8 && o.nbits != 32) throw UsageError("--nbits must be 8 or 32");
  o.coherent = r.count("coherent") > 0;
  o.incoherent = r.count("incoherent") > 0;
  if (o.detection == BeamDetection::none && !o.coherent && !o.incoherent)
    throw UsageError("--no-filterbank leaves nothing to write: add --coherent or --incoherent");

  const std::string precision = r["precision"].as<std::string>();
  if (precision == "fp32") o.precision = BeamPrecision::fp32;
  else if (precision == "fp16") o.precision = BeamPrecision::fp16;
  else throw UsageError("--precision must be fp32 or fp16, not '" + precision + "'");
  o.stream = stream_options_from(r);
  if (o.precision == BeamPrecision::fp16 && !o.stream.device.use_gpu)
    throw UsageError("--precision fp16 needs the GPU engine (the CPU engine computes in FP32)");
  return o;
}

}  // namespace rapt
