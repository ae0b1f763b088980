// fold --brute-force: every dedispersed series of a DM grid folded at every period of a linear
// grid into a few bins (Sclocco's pipeline), written as an S/N map.
//
// A list of GPUs (--device gpu:0,1, gpu:all) splits the DM trials: each GPU gets a thread, an
// engine and a contiguous run of the series (work_part.hpp's cut), folds them at every period,
// and its rows go back in their place. A DM's S/N depends on its own series alone, so the map is
// the same bytes as one GPU's.
#pragma once
#include <string>
#include <vector>

#include "fold/brute_force_fold.hpp"

namespace rapt {

struct BruteForceRunOptions {
  std::vector<std::string> files;  // .dat (+ .inf) or .tim series, one per DM trial
  double pmin_s = 0.0, pmax_s = 0.0;
  int nperiods = 0;
  int nbins = 32;
  std::string outroot;             // "" = the first series' name without its _DM part
  std::string device = "auto";     // one device, or a list of GPUs to split the DMs over
  int threads = 0;
};

struct BruteForcePeak {
  double dm = 0.0;
  double period_s = 0.0;
  float snr = 0.0f;
};

// The periods pmin + k (pmax - pmin) / (nperiods - 1); one period when nperiods is 1. Throws
// UsageError for pmin <= 0, pmax < pmin or nperiods < 1.
std::vector<double> brute_force_periods(double pmin_s, double pmax_s, int nperiods);

// Loads the series (they must share length and sampling time), folds them all, writes
// <outroot>_bruteforce.txt (a header naming the periods, then one line per DM: the DM and the
// S/N at every period) and returns the `top` highest (DM, period) pairs, best first. The
// readers' warnings about the samples are added to `warnings`.
std::vector<BruteForcePeak> run_brute_force(const BruteForceRunOptions& options, bool overwrite,
                                            size_t top, std::vector<std::string>& warnings);

// `series` (ndm series of nsamples each, [dm][sample]) folded at every period of `grid` on
// `device`: one engine, or for a list of GPUs one engine and thread per entry, each folding a
// contiguous run of the DMs. Throws the first failure.
BruteForceFoldResult fold_brute_force_on_devices(const std::string& device, int threads,
                                                 const float* series, int ndm, int64_t nsamples,
                                                 const BruteForceFoldGrid& grid);

// The map file's name for `options`.
std::string brute_force_map_path(const BruteForceRunOptions& options);

}  // namespace rapt
