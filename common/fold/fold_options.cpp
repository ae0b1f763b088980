#include "fold/fold_options.hpp"

#include <cctype>
#include <utility>

#include "cli/errors.hpp"
#include "gpu_device.hpp"

namespace rapt {

void add_fold_options(cxxopts::Options& options) {
  options.add_options()
      ("accelcand", "fold these candidates of --accelfile: N, N,M or N-M (prepfold's -accelcand)",
       cxxopts::value<std::string>())
      ("accelfile", "accelsearch's .cand file (its .inf must sit beside it)",
       cxxopts::value<std::string>())
      ("p,period", "fold at this period (s)", cxxopts::value<double>())
      ("pd", "period derivative (s/s)", cxxopts::value<double>()->default_value("0"))
      ("pdd", "period second derivative (s/s^2)", cxxopts::value<double>()->default_value("0"))
      ("f,freq", "fold at this frequency (Hz)", cxxopts::value<double>())
      ("fd", "frequency derivative (Hz/s)", cxxopts::value<double>()->default_value("0"))
      ("fdd", "frequency second derivative (Hz/s^2)", cxxopts::value<double>()->default_value("0"))
      ("par", "fold with a par file's F0, F1, F2, PEPOCH (topocentric) and DM",
       cxxopts::value<std::string>())
      ("n,nbins", "profile bins (default: P/dt, at most 64)", cxxopts::value<int>())
      ("npart", "sub-integrations", cxxopts::value<int>()->default_value("64"))
      ("nsub", "subbands for raw data (default: prepfold's choice)", cxxopts::value<int>())
      ("dm", "raw data: DM to form the subbands at", cxxopts::value<double>())
      ("nosearch", "no search: report the fold at the given P, P', DM")
      ("nopsearch", "do not search periods")
      ("nopdsearch", "do not search period derivatives")
      ("nodmsearch", "do not search DMs")
      ("npfact", "period and P-dot trials span 2 x npfact x nbins bins of drift",
       cxxopts::value<int>()->default_value("2"))
      ("ndmfact", "DM trials: 2 x ndmfact x nbins + 1", cxxopts::value<int>()->default_value("3"))
      ("pstep", "period step, bins of drift over the fold", cxxopts::value<int>()->default_value("2"))
      ("pdstep", "P-dot step, bins of drift over the fold", cxxopts::value<int>()->default_value("4"))
      ("dmstep", "DM step, bins of delay at the lowest channel",
       cxxopts::value<int>()->default_value("2"))
      ("fine", "finer, narrower search (prepfold's -fine)")
      ("coarse", "coarser, wider search (prepfold's -coarse)")
      ("topo", "fold topocentrically: always so; accepted for prepfold command lines")
      ("noxwin", "no X window: never opened; accepted for prepfold command lines")
      ("plot", "also write <name>.pfd.png, the diagnostic plot (prepfold's layout)")
      ("brute-force", "fold every given DM trial (.dat/.tim) at every period of --pmin, --pmax, "
       "--nperiods into -n bins (default 32) and write the S/N map")
      ("pmin", "brute force: shortest trial period (s)", cxxopts::value<double>())
      ("pmax", "brute force: longest trial period (s)", cxxopts::value<double>())
      ("nperiods", "brute force: trial periods, evenly spaced", cxxopts::value<int>())
      ("o,output", "output root (default: the input without its suffix)",
       cxxopts::value<std::string>())
      ("device", "auto, cpu, gpu, gpu:N, gpu:N,M,... or gpu:all (a list of GPUs: --brute-force "
       "only, which splits the DM trials over them)",
       cxxopts::value<std::string>()->default_value("auto"))
      ("threads", "CPU threads for the search (0 = all cores)",
       cxxopts::value<int>()->default_value("0"))
      ("files", "input: .dat/.sdat time series (with .inf) or filterbank/PSRFITS",
       cxxopts::value<std::vector<std::string>>());
}

std::vector<std::string> fold_presto_names() {
  return {
      "accelcand", "accelfile", "pd",      "pdd",    "fd",     "fdd",        "par",
      "npart",     "nsub",      "dm",      "nosearch", "nopsearch", "nopdsearch", "nodmsearch",
      "npfact",    "ndmfact",   "pstep",   "pdstep", "dmstep", "fine",       "coarse",
      "topo", "noxwin"};
}

void refuse_missing_prepfold_options(const std::vector<std::string>& args) {
  static const std::pair<const char*, const char*> missing[] = {
      {"timing", "prepfold's TEMPO timing mode is not available (fold with --par -nosearch)"},
      {"psr", "there is no pulsar catalogue (give the ephemeris with --par)"},
      {"polycos", "polyco folding is not available (give the ephemeris with --par)"},
      {"searchpdd", "fold does not search P''"},
      {"slow", "not available (set --npfact, --pstep and --pdstep)"},
      {"mask", "not available (dedisp --mask, then fold the series)"},
      {"zerodm", "not available (dedisp --zerodm, then fold the series)"},
      {"events", "photon event lists are not read"},
      {"bin", "binary orbits are not folded"},
      {"pb", "binary orbits are not folded"},
      {"To", "binary orbits are not folded"}};
  for (const std::string& arg : args) {
    const size_t dashes = arg.rfind("--", 0) == 0 ? 2 : 1;
    if (arg.size() <= dashes || arg[0] != '-') continue;
    const std::string name = arg.substr(dashes, arg.find('=') - dashes);
    for (const auto& [option, why] : missing)
      if (name == option) throw UsageError("-" + name + ": " + why);
  }
}

std::vector<std::string> join_negative_values(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool is_option = a.size() > 1 && a[0] == '-' && a.find('=') == std::string::npos &&
                           !std::isdigit(static_cast<unsigned char>(a[1])) && a[1] != '.';
    if (is_option && i + 1 < args.size()) {
      const std::string& next = args[i + 1];
      if (next.size() > 1 && next[0] == '-' &&
          (std::isdigit(static_cast<unsigned char>(next[1])) || next[1] == '.')) {
        // A one-letter option takes its value straight after it (-p-0.1); "=" would become
        // part of the value.
        const bool short_option = a.size() == 2;
        out.push_back(a + (short_option ? "" : "=") + next);
        ++i;
        continue;
      }
    }
    out.push_back(a);
  }
  return out;
}

namespace {

int positive_int(const cxxopts::ParseResult& r, const char* name) {
  const int value = r[name].as<int>();
  if (value < 1) throw UsageError(std::string("--") + name + " must be at least 1");
  return value;
}

}  // namespace

BruteForceRunOptions read_brute_force_options(const cxxopts::ParseResult& r,
                                              const std::vector<std::string>& positional) {
  for (const char* name : {"pmin", "pmax", "nperiods"}) {
    if (!r.count(name)) throw UsageError(std::string("--brute-force needs --") + name);
  }
  BruteForceRunOptions o;
  o.files = positional;
  if (o.files.empty()) throw UsageError("--brute-force needs the DM trials' series (.dat or .tim)");
  o.pmin_s = r["pmin"].as<double>();
  o.pmax_s = r["pmax"].as<double>();
  o.nperiods = r["nperiods"].as<int>();
  if (r.count("nbins")) o.nbins = r["nbins"].as<int>();
  if (r.count("output")) o.outroot = r["output"].as<std::string>();
  o.device = r["device"].as<std::string>();
  o.threads = r["threads"].as<int>();
  if (o.threads < 0) throw UsageError("--threads must be >= 0");
  return o;
}

FoldOptions read_fold_options(const cxxopts::ParseResult& r,
                              const std::vector<std::string>& positional) {
  FoldOptions o;
  if (positional.size() != 1) throw UsageError("give one input file (a .dat or a filterbank)");
  o.input = positional[0];
  if (r.count("accelcand")) o.accelcand = r["accelcand"].as<std::string>();
  if (r.count("accelfile")) o.accelfile = r["accelfile"].as<std::string>();
  if (r.count("period")) o.p_s = r["period"].as<double>();
  if (r.count("freq")) o.f_hz = r["freq"].as<double>();
  o.pdot = r["pd"].as<double>();
  o.pddot = r["pdd"].as<double>();
  o.fdot = r["fd"].as<double>();
  o.fddot = r["fdd"].as<double>();
  if (r.count("par")) o.par = r["par"].as<std::string>();
  const int sources = int(!o.accelcand.empty()) + int(o.p_s.has_value()) +
                      int(o.f_hz.has_value()) + int(!o.par.empty());
  if (sources != 1)
    throw UsageError("give one candidate: --accelcand with --accelfile, -p, -f or --par");
  if (!o.accelcand.empty() && o.accelfile.empty())
    throw UsageError("--accelcand needs --accelfile (the ACCEL .cand file)");
  if (r.count("nbins")) {
    o.nbins = r["nbins"].as<int>();
    if (o.nbins < 2) throw UsageError("-n must be at least 2 bins");
  }
  o.npart = positive_int(r, "npart");
  if (r.count("nsub")) {
    o.nsub = r["nsub"].as<int>();
    if (o.nsub < 1) throw UsageError("--nsub must be at least 1");
  }
  if (r.count("dm")) {
    o.dm = r["dm"].as<double>();
    if (*o.dm < 0.0) throw UsageError("--dm must be >= 0");
  }
  FoldSearchOptions& s = o.search;
  s.npfact = positive_int(r, "npfact");
  s.ndmfact = positive_int(r, "ndmfact");
  s.pstep = positive_int(r, "pstep");
  s.pdstep = positive_int(r, "pdstep");
  s.dmstep = positive_int(r, "dmstep");
  if (r.count("fine") && r.count("coarse")) throw UsageError("--fine and --coarse exclude each other");
  if (r.count("fine")) s.set_fine();
  if (r.count("coarse")) s.set_coarse();
  s.search_p = !r.count("nopsearch");
  s.search_pd = !r.count("nopdsearch");
  s.search_dm = !r.count("nodmsearch");
  if (r.count("nosearch")) s.set_nosearch();
  if (r.count("output")) o.outroot = r["output"].as<std::string>();
  o.device = r["device"].as<std::string>();
  // One GPU outside --brute-force: a list is refused here, before any data is read, with
  // choose_device's own message (which needs no device to say it).
  if (o.device.find(',') != std::string::npos || o.device == "gpu:all") choose_device(o.device);
  o.threads = r["threads"].as<int>();
  if (o.threads < 0) throw UsageError("--threads must be >= 0");
  o.plot = r.count("plot") > 0;
  return o;
}

}  // namespace rapt
