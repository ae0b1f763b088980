#include "snr/snr_options.hpp"

#include <glob.h>

#include <cmath>

#include "cli/errors.hpp"
#include "snr/realtime_search.hpp"

namespace rapt {

void add_snr_options(cxxopts::Options& options) {
  options.add_options()
      ("t,threshold", "S/N threshold for events (PRESTO's -t)",
       cxxopts::value<double>()->default_value("5.0"))
      ("m,max-width", "widest boxcar in seconds (PRESTO's -m; default: 30 samples)",
       cxxopts::value<double>())
      ("max-width-samples", "widest boxcar in samples (PRESTO's widths, then steps of ~1.5x)",
       cxxopts::value<int64_t>())
      ("b,no-badblocks", "do not reject blocks of unusual noise (PRESTO's -b)")
      ("f,fast", "median baseline (PRESTO's -f); same as --baseline median")
      ("baseline", "per-block baseline: median or linear",
       cxxopts::value<std::string>()->default_value("median"))
      ("noise", "per-block sigma: mad (1.4826 x MAD) or clipped (PRESTO's clipped rms)",
       cxxopts::value<std::string>()->default_value("mad"))
      ("presto", "PRESTO's numbers: --baseline linear --noise clipped (unless -f)")
      ("d,detrend-factor", "detrend blocks of 1000 x N samples (PRESTO's -d, 1..32)",
       cxxopts::value<int>())
      ("detrend-len", "detrend blocks of this many samples", cxxopts::value<int64_t>())
      ("g,glob", "also search the files matching this shell pattern (quote it)",
       cxxopts::value<std::vector<std::string>>())
      ("mode", "boxcar (single_pulse_search.py) or peak ((max - mean) / std per chunk)",
       cxxopts::value<std::string>()->default_value("boxcar"))
      ("chunk-len", "peak mode: samples per chunk (0 = the detrend length)",
       cxxopts::value<int64_t>()->default_value("0"))
      ("device", "auto, cpu, gpu or gpu:N; fused mode also gpu:N,M,... or gpu:all",
       cxxopts::value<std::string>()->default_value("auto"))
      ("part", "search only part K of N of the files (fused mode: of the DM trials)",
       cxxopts::value<std::string>())
      ("threads", "CPU threads (0 = all cores)", cxxopts::value<int>()->default_value("0"))
      ("o,outdir", "write the .singlepulse files here (default: beside each input)",
       cxxopts::value<std::string>())
      ("cands", "clustered candidate list ('-' = stdout)",
       cxxopts::value<std::string>()->default_value("-"));
  add_cluster_options(options, "");
  options.add_options()
      ("lodm", "filterbank input: the lowest DM trial",
       cxxopts::value<double>()->default_value("0"))
      ("dmstep", "filterbank input: the DM step", cxxopts::value<double>()->default_value("1"))
      ("numdms", "filterbank input: the number of DM trials (dedispersed in memory)",
       cxxopts::value<int>()->default_value("0"));
  add_dm_plan_options(options, "", "filterbank input: ");
  options.add_options()
      ("mask", "filterbank input: rfifind mask FILE, as dedisp --mask", cxxopts::value<std::string>())
      ("ignorechan", "filterbank input: leave out channels, as dedisp --ignorechan (0:10,34)",
       cxxopts::value<std::string>())
      ("zerodm", "filterbank input: zero-DM filter, as dedisp --zerodm")
      ("realtime", "filterbank input (or - for stdin): search chunk by chunk as the data "
       "arrive, printing candidates as they are found; the first Ctrl-C, SIGTERM or SIGHUP ends "
       "the data, not the search")
      ("chunk", "real-time mode: new spectra per chunk (0 = about 65536; a multiple of the "
       "detrend length and of 4, times a plan's largest downsampling)",
       cxxopts::value<int64_t>()->default_value("0"))
      ("json", "real-time mode: write the timing summary as JSON ('-' = stdout)",
       cxxopts::value<std::string>())
      ("plot", "write a PNG plot: DM vs time, S/N histogram, S/N vs DM",
       cxxopts::value<std::string>())
      ("files", "input series: .dat (with .inf), .tim, or .bestprof",
       cxxopts::value<std::vector<std::string>>());
}

namespace {

std::vector<std::string> expand_glob(const std::string& pattern) {
  glob_t matches{};
  const int status = ::glob(pattern.c_str(), 0, nullptr, &matches);
  std::vector<std::string> paths;
  if (status == 0)
    for (size_t i = 0; i < matches.gl_pathc; ++i) paths.emplace_back(matches.gl_pathv[i]);
  globfree(&matches);
  if (paths.empty()) throw UsageError("--glob '" + pattern + "' matches no files");
  return paths;
}

void read_search_options(const cxxopts::ParseResult& result, SnrSettings& s) {
  s.threshold = result["threshold"].as<double>();
  s.reject_bad_blocks = result.count("no-badblocks") == 0;
  const bool presto = result.count("presto") > 0;
  const std::string baseline = presto ? "linear" : result["baseline"].as<std::string>();
  if (baseline == "median") s.baseline = Baseline::kMedian;
  else if (baseline == "linear") s.baseline = Baseline::kLinear;
  else throw UsageError("--baseline must be median or linear, not '" + baseline + "'");
  if (result.count("fast")) s.baseline = Baseline::kMedian;
  const std::string noise = presto ? "clipped" : result["noise"].as<std::string>();
  if (noise == "mad") s.noise = NoiseEstimate::kMad;
  else if (noise == "clipped") s.noise = NoiseEstimate::kClippedRms;
  else throw UsageError("--noise must be mad or clipped, not '" + noise + "'");
  if (result.count("detrend-factor") && result.count("detrend-len"))
    throw UsageError("give -d/--detrend-factor or --detrend-len, not both");
  if (result.count("detrend-factor")) {
    const int factor = result["detrend-factor"].as<int>();
    if (factor < 1 || factor > 32) throw UsageError("-d/--detrend-factor must be 1..32");
    s.detrend_len = 1000 * int64_t(factor);
  }
  if (result.count("detrend-len")) s.detrend_len = result["detrend-len"].as<int64_t>();
  if (result.count("max-width") && result.count("max-width-samples"))
    throw UsageError("give -m/--max-width or --max-width-samples, not both");
  if (result.count("max-width-samples")) {
    const int64_t w = result["max-width-samples"].as<int64_t>();
    if (w < 1) throw UsageError("--max-width-samples must be at least 1");
    s.widths = boxcar_widths_up_to(w);
  }
  if (result.count("max-width") && !(result["max-width"].as<double>() > 0.0))
    throw UsageError("-m/--max-width must be > 0 seconds");
  validate_snr_settings(s);
}

}  // namespace

std::vector<int> widths_for_max_seconds(double max_width_s, double dt_s) {
  // PRESTO: the widths with width * dt <= -m; if none but 1, width 2 as well.
  const int64_t max_samples = int64_t(std::floor(max_width_s / dt_s * (1.0 + 1e-12)));
  std::vector<int> widths = boxcar_widths_up_to(std::max<int64_t>(max_samples, 1));
  if (widths.size() == 1) widths.push_back(2);
  return widths;
}

void add_cluster_options(cxxopts::Options& options, const std::string& help_prefix) {
  options.add_options()
      ("cluster-dm-trials", help_prefix + "join events at most this many DM trials apart",
       cxxopts::value<int>()->default_value("2"))
      ("cluster-gap", help_prefix + "join events whose boxcars lie at most this many samples "
       "(of the finest series) apart", cxxopts::value<int64_t>()->default_value("2"))
      ("cluster-width-ratio", help_prefix + "join only events whose widths differ by at most "
       "this factor (0 = any)", cxxopts::value<double>()->default_value("0"));
}

ClusterSettings read_cluster_options(const cxxopts::ParseResult& result) {
  ClusterSettings c;
  c.dm_trials = result["cluster-dm-trials"].as<int>();
  c.gap_samples = result["cluster-gap"].as<int64_t>();
  c.width_ratio = result["cluster-width-ratio"].as<double>();
  if (c.dm_trials < 0 || c.gap_samples < 0 || c.width_ratio < 0.0)
    throw UsageError("the --cluster-* values must be >= 0");
  if (c.width_ratio > 0.0 && c.width_ratio < 1.0)
    throw UsageError("--cluster-width-ratio must be 0 (any) or at least 1");
  return c;
}

SnrRunOptions read_snr_options(const cxxopts::ParseResult& result,
                               const std::vector<std::string>& positional) {
  SnrRunOptions o;
  read_search_options(result, o.search);
  const std::string mode = result["mode"].as<std::string>();
  if (mode == "boxcar") o.mode = SnrMode::kBoxcar;
  else if (mode == "peak") o.mode = SnrMode::kPeak;
  else throw UsageError("--mode must be boxcar or peak, not '" + mode + "'");
  o.chunk_len = result["chunk-len"].as<int64_t>();
  if (o.chunk_len < 0 || (o.chunk_len > 0 && o.chunk_len < 2))
    throw UsageError("--chunk-len must be at least 2 samples");
  if (o.chunk_len == 0) o.chunk_len = o.search.detrend_len;
  if (o.mode != SnrMode::kPeak && result.count("chunk-len"))
    throw UsageError("--chunk-len belongs to --mode peak");
  o.device = result["device"].as<std::string>();
  o.threads = result["threads"].as<int>();
  if (o.threads < 0) throw UsageError("--threads must be >= 0");
  if (result.count("outdir")) o.outdir = result["outdir"].as<std::string>();
  o.cands = result["cands"].as<std::string>();
  o.cluster = read_cluster_options(result);
  o.lodm = result["lodm"].as<double>();
  o.dmstep = result["dmstep"].as<double>();
  o.numdms = result["numdms"].as<int>();
  if (result.count("plot")) o.plot = result["plot"].as<std::string>();
  if (!o.plot.empty() && o.plot == o.cands)
    throw UsageError("--plot and --cands name one file (" + o.plot + ")");
  if (result.count("mask")) o.cleaning.mask_path = result["mask"].as<std::string>();
  if (result.count("ignorechan")) o.cleaning.ignorechan = result["ignorechan"].as<std::string>();
  o.cleaning.zerodm = result.count("zerodm") > 0;
  o.realtime = result.count("realtime") > 0;
  o.realtime_chunk = result["chunk"].as<int64_t>();
  if (result.count("json")) o.json = result["json"].as<std::string>();
  if (!o.realtime && (result.count("chunk") || result.count("json")))
    throw UsageError("--chunk and --json belong to --realtime");
  o.plan = read_dm_plan_options(result);
  if (o.realtime && o.numdms < 1 && !o.plan.enabled)
    throw UsageError("--realtime needs --numdms (and --lodm, --dmstep) or --plan");
  if (o.realtime && o.mode != SnrMode::kBoxcar) throw UsageError("--realtime runs the boxcar search");
  // Checked here against the detrend length; a plan's downsampling is known once the input's
  // header is read.
  if (o.realtime) realtime_chunk_length(o.realtime_chunk, o.search.detrend_len);
  if (result.count("max-width")) o.max_width_s = result["max-width"].as<double>();
  o.files = positional;
  if (result.count("glob"))
    for (const std::string& pattern : result["glob"].as<std::vector<std::string>>())
      for (std::string& path : expand_glob(pattern)) o.files.push_back(std::move(path));
  if (o.files.empty()) throw UsageError("no input files");
  if (result.count("part")) o.part = parse_work_part(result["part"].as<std::string>());
  if (o.realtime && !o.part.whole()) throw UsageError("--part does not apply to --realtime");
  return o;
}

}  // namespace rapt
