#include "corr/corr_options.hpp"

#include <cmath>

#include "cli/errors.hpp"
#include "cli/text_words.hpp"

namespace rapt {

void add_corr_options(cxxopts::Options& options) {
  options.add_options("Visibilities")
      ("o,output", "output visibilities: NAME.uvfits or NAME.ms, or - for UVFITS on standard "
       "output (required)",
       cxxopts::value<std::string>())
      ("format", "uvfits or ms (default: from the output's name)", cxxopts::value<std::string>())
      ("layout", "array layout file (name x y z per line); default: the voltages' header",
       cxxopts::value<std::string>())
      ("phase-centre", "phase centre 'RA DEC' (hh:mm:ss.s +dd:mm:ss.s or degrees); default: "
       "the voltages' pointing, which the output keeps apart (for primary-beam correction)",
       cxxopts::value<std::string>())
      ("fringe-stopped", "the voltages are delay-compensated and fringe-stopped towards their "
       "header's pointing: turn them only by the difference to the phase centre")
      ("delay-interval", "seconds between updates of the fringe-stopping phases (0 = as often "
       "as keeps them within 0.01 turn, at most every second)",
       cxxopts::value<double>()->default_value("0"))
      ("tint", "integration time, seconds (default 1)", cxxopts::value<double>())
      ("nint", "integration length in (channelised) samples, instead of --tint",
       cxxopts::value<int64_t>())
      ("chan-avg", "adjacent channels averaged into one output channel",
       cxxopts::value<int>()->default_value("1"))
      ("no-autos", "write no autocorrelations")
      ("drop-partial", "leave out a last integration shorter than the others (default: write "
       "it with its own length)");
  options.add_options("Flagging")
      ("flags", "flagged intervals: '<station> <start_s> <end_s>' lines",
       cxxopts::value<std::string>());
  add_pfb_options(options, "Channeliser (with --nchan, or always for real-sampled voltages)",
                  true);
  options.add_options("Engine")
      ("precision", "auto, fp32, fp16 or int8 (see the man page)",
       cxxopts::value<std::string>()->default_value("auto"));
  add_stream_options(options, "Engine", "correlated");
  options.add_options("Engine")
      ("files", "station voltages (PSRDADA, GUPPI RAW, VDIF; '-' = PSRDADA on stdin)",
       cxxopts::value<std::vector<std::string>>());
}

namespace {

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

PrecisionChoice precision_of(const std::string& text) {
  if (text == "auto") return PrecisionChoice::automatic;
  if (text == "fp32") return PrecisionChoice::fp32;
  if (text == "fp16") return PrecisionChoice::fp16;
  if (text == "int8") return PrecisionChoice::int8;
  throw UsageError("--precision must be auto, fp32, fp16 or int8, not '" + text + "'");
}

}  // namespace

VisibilityFormat visibility_format_of(const std::string& path, const std::string& format) {
  const std::string f = lowercase(format);
  if (f == "uvfits") return VisibilityFormat::uvfits;
  if (f == "ms") return VisibilityFormat::ms;
  if (!f.empty()) throw UsageError("--format must be uvfits or ms, not '" + format + "'");
  std::string name = lowercase(path);
  while (name.size() > 1 && name.back() == '/') name.pop_back();  // a.ms/
  if (ends_with(name, ".uvfits") || ends_with(name, ".uvf") || ends_with(name, ".fits"))
    return VisibilityFormat::uvfits;
  if (ends_with(name, ".ms")) return VisibilityFormat::ms;
  throw UsageError("cannot tell the format of '" + path +
                   "' from its name (.uvfits or .ms): give --format uvfits or ms");
}

CorrOptions corr_options_from(const cxxopts::ParseResult& r) {
  CorrOptions o;
  if (!r.count("files") || r["files"].as<std::vector<std::string>>().size() != 1)
    throw UsageError("give one voltage file (or '-' for standard input)");
  o.input = r["files"].as<std::vector<std::string>>()[0];
  if (!r.count("output")) throw UsageError("--output is required (NAME.uvfits or NAME.ms)");
  o.output = r["output"].as<std::string>();
  if (o.output.empty()) throw UsageError("--output must name a file, or '-' for standard output");
  const std::string format = r.count("format") ? r["format"].as<std::string>() : "";
  // Standard output takes UVFITS (a Measurement Set is a directory).
  o.format = o.output == "-" ? visibility_format_of("-.uvfits", format)
                             : visibility_format_of(o.output, format);
  if (o.output == "-" && o.format != VisibilityFormat::uvfits)
    throw UsageError("--output -: standard output takes UVFITS, not a Measurement Set");
  if (r.count("layout")) o.layout_path = r["layout"].as<std::string>();
  if (r.count("phase-centre")) o.phase_centre = r["phase-centre"].as<std::string>();
  o.fringe_stopped = r.count("fringe-stopped") > 0;
  o.delay_interval_s = r["delay-interval"].as<double>();
  if (!(o.delay_interval_s >= 0) || !std::isfinite(o.delay_interval_s))
    throw UsageError("--delay-interval must be 0 (automatic) or a positive number of seconds");
  if (r.count("flags")) o.flags_path = r["flags"].as<std::string>();

  if (r.count("tint") && r.count("nint")) throw UsageError("give --tint or --nint, not both");
  if (r.count("tint")) {
    o.tint_s = r["tint"].as<double>();
    if (!(o.tint_s > 0) || !std::isfinite(o.tint_s))
      throw UsageError("--tint must be a positive number of seconds");
  }
  if (r.count("nint")) {
    o.nint = r["nint"].as<int64_t>();
    if (o.nint < 1) throw UsageError("--nint must be a positive number of samples");
  }
  o.chan_avg = r["chan-avg"].as<int>();
  if (o.chan_avg < 1) throw UsageError("--chan-avg must be positive");
  o.autos = r.count("no-autos") == 0;
  o.drop_partial = r.count("drop-partial") > 0;

  o.channelise = r.count("nchan") > 0;
  o.pfb = pfb_options_from(r);
  o.pfb_options_given = r.count("ntaps") || r.count("window") || r.count("coeffs") ||
                        r.count("delays") || r.count("bandpass");

  o.precision = precision_of(r["precision"].as<std::string>());
  o.stream = stream_options_from(r);
  return o;
}

}  // namespace rapt
