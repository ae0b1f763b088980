#include "sift/sift_options.hpp"

#include <cctype>
#include <cmath>

#include "cli/errors.hpp"
#include "snr/snr_options.hpp"

namespace rapt {

namespace {

const std::vector<std::string> kSinglePulseOptions = {"cands", "cluster-dm-trials", "cluster-gap",
                                                      "cluster-width-ratio", "threshold", "plot"};
const std::vector<std::string> kAccelOptions = {"sigma",       "c-pow-threshold", "harm-pow-cutoff",
                                                "r-err",       "min-period",      "max-period",
                                                "min-numharm", "min-num-dms",     "low-dm-cutoff"};

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "_<tag>_<digits>" at `at` of `name`; returns the index after it, or npos.
size_t tag_and_number(const std::string& name, size_t at, const std::string& tag) {
  if (name.compare(at, tag.size(), tag) != 0) return std::string::npos;
  size_t i = at + tag.size();
  const size_t digits = i;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  return i == digits ? std::string::npos : i;
}

bool is_accel_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t at = name.rfind("_ACCEL_");
  if (at == std::string::npos) return false;
  size_t end = tag_and_number(name, at, "_ACCEL_");
  if (end != std::string::npos && end < name.size()) end = tag_and_number(name, end, "_JERK_");
  return end == name.size();
}

}  // namespace

void add_sift_options(cxxopts::Options& options) {
  options.add_options()
      ("o,output", "write the merged candidate list here ('-' = stdout)",
       cxxopts::value<std::string>()->default_value("-"))
      ("cands", ".singlepulse inputs: snr's name for --output", cxxopts::value<std::string>());
  add_cluster_options(options, ".singlepulse inputs: ");
  options.add_options()
      ("t,threshold", ".singlepulse inputs: leave out events below this S/N (0 = none)",
       cxxopts::value<double>()->default_value("0"))
      ("plot", ".singlepulse inputs: write a PNG plot of the events, as snr --plot draws it "
       "(PRESTO's replot from .singlepulse files)", cxxopts::value<std::string>());
  options.add_options()
      ("sigma", "ACCEL inputs: drop candidates below this single-trial sigma (one harmonic: "
       "only if the coherent power is also below --c-pow-threshold)",
       cxxopts::value<double>()->default_value("4.0"))
      ("c-pow-threshold", "ACCEL inputs: coherent power that keeps a one-harmonic candidate",
       cxxopts::value<double>()->default_value("100.0"))
      ("harm-pow-cutoff", "ACCEL inputs: drop candidates whose strongest harmonic has less power",
       cxxopts::value<double>()->default_value("8.0"))
      ("r-err", "ACCEL inputs: candidates this close in Fourier bins are the same",
       cxxopts::value<double>()->default_value("1.1"))
      ("min-period", "ACCEL inputs: shortest period kept (s)",
       cxxopts::value<double>()->default_value("0.0005"))
      ("max-period", "ACCEL inputs: longest period kept (s)",
       cxxopts::value<double>()->default_value("15.0"))
      ("min-numharm", "ACCEL inputs: drop candidates of fewer harmonics",
       cxxopts::value<int>()->default_value("1"))
      ("min-num-dms", "ACCEL inputs: drop candidates found at fewer DM trials (hits)",
       cxxopts::value<int>()->default_value("2"))
      ("low-dm-cutoff", "ACCEL inputs: drop candidates whose strongest hit is at this DM or "
       "below", cxxopts::value<double>()->default_value("2.0"))
      ("files", "input files: .singlepulse, or accelsearch's <root>_DM<dm>_ACCEL_<zmax>",
       cxxopts::value<std::vector<std::string>>());
}

SiftInputKind sift_input_kind(const std::string& path) {
  if (ends_with(path, ".singlepulse")) return SiftInputKind::kSinglePulse;
  if (is_accel_name(path)) return SiftInputKind::kAccel;
  if (ends_with(path, ".cand") || ends_with(path, ".txtcand"))
    throw UsageError(path + ": give the ACCEL text file (" +
                     path.substr(0, path.find_last_of('.')) + "), not its ." +
                     path.substr(path.find_last_of('.') + 1));
  throw UsageError(path +
                   ": not a .singlepulse file or an ACCEL file "
                   "(<root>_DM<dm>_ACCEL_<zmax>)");
}

SiftRunOptions read_sift_options(const cxxopts::ParseResult& result,
                                 const std::vector<std::string>& positional) {
  SiftRunOptions o;
  o.files = positional;
  if (o.files.empty()) throw UsageError("no input files");
  o.kind = sift_input_kind(o.files.front());
  for (const std::string& path : o.files)
    if (sift_input_kind(path) != o.kind)
      throw UsageError("give .singlepulse files or ACCEL files, not both (" + o.files.front() +
                       ", " + path + ")");
  const bool single_pulse = o.kind == SiftInputKind::kSinglePulse;
  for (const std::string& name : single_pulse ? kAccelOptions : kSinglePulseOptions)
    if (result.count(name))
      throw UsageError("--" + name + " belongs to " + (single_pulse ? "ACCEL" : ".singlepulse") +
                       " inputs");
  o.output = result["output"].as<std::string>();
  if (result.count("cands")) {
    if (result.count("output")) throw UsageError("give --cands or --output, not both");
    o.output = result["cands"].as<std::string>();
  }
  if (o.output.empty()) throw UsageError("--output needs a file name ('-' = stdout)");

  o.cluster = read_cluster_options(result);
  o.threshold = result["threshold"].as<double>();
  if (!(o.threshold >= 0.0) || !std::isfinite(o.threshold))
    throw UsageError("--threshold must be a finite S/N >= 0");
  if (result.count("plot")) o.plot = result["plot"].as<std::string>();
  if (result.count("plot") && o.plot.empty()) throw UsageError("--plot needs a file name");

  AccelSiftSettings& a = o.accel;
  a.sigma_threshold = result["sigma"].as<double>();
  a.c_pow_threshold = result["c-pow-threshold"].as<double>();
  a.harm_pow_cutoff = result["harm-pow-cutoff"].as<double>();
  a.r_err = result["r-err"].as<double>();
  a.min_period_s = result["min-period"].as<double>();
  a.max_period_s = result["max-period"].as<double>();
  a.min_numharm = result["min-numharm"].as<int>();
  a.min_num_dms = result["min-num-dms"].as<int>();
  a.low_dm_cutoff = result["low-dm-cutoff"].as<double>();
  if (!(a.r_err > 0.0)) throw UsageError("--r-err must be > 0 bins");
  if (!(a.min_period_s >= 0.0) || !(a.max_period_s > a.min_period_s))
    throw UsageError("--min-period and --max-period must satisfy 0 <= min < max");
  if (a.min_numharm < 1) throw UsageError("--min-numharm must be at least 1");
  if (a.min_num_dms < 1) throw UsageError("--min-num-dms must be at least 1");
  for (double x : {a.sigma_threshold, a.c_pow_threshold, a.harm_pow_cutoff, a.low_dm_cutoff})
    if (!std::isfinite(x)) throw UsageError("thresholds must be finite numbers");
  return o;
}

}  // namespace rapt
