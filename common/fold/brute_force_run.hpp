// fold --brute-force: every dedispersed series of a DM grid folded at every period of a linear
// grid into a few bins (Sclocco's pipeline), written as an S/N map.
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
  std::string device = "auto";
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
// S/N at every period) and returns the `top` highest (DM, period) pairs, best first.
std::vector<BruteForcePeak> run_brute_force(const BruteForceRunOptions& options, bool overwrite,
                                            size_t top);

// The map file's name for `options`.
std::string brute_force_map_path(const BruteForceRunOptions& options);

}  // namespace rapt
