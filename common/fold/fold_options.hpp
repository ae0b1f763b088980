// fold's command line: GNU long options, with prepfold's single-dash spellings accepted for the
// names in fold_presto_names() (-accelcand, -pd, -npart, -nosearch ...). Declared once here;
// the man page and --help are kept in step by tests/e2e/man_pages.sh.
#pragma once
#include <cxxopts.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fold/brute_force_run.hpp"
#include "fold/fold_search.hpp"

namespace rapt {

struct FoldOptions {
  std::string input;
  // Candidates: exactly one source.
  std::string accelcand;           // "2", "1,3", "2-5"
  std::string accelfile;
  std::optional<double> p_s, f_hz;
  double pdot = 0.0, pddot = 0.0, fdot = 0.0, fddot = 0.0;
  std::string par;
  // Fold shape.
  int nbins = 0;                   // 0: P / dt rounded, at most 64 (prepfold's rule)
  int npart = 64;
  int nsub = 0;                    // 0: prepfold's default for raw data; 1 for a series
  std::optional<double> dm;        // raw data: DM to form the subbands at
  FoldSearchOptions search;
  std::string outroot;             // -o; default: the input without its suffix
  std::string device = "auto";
  int threads = 0;                 // 0: all cores
  bool plot = false;               // also <pfd>.png
};

void add_fold_options(cxxopts::Options& options);
std::vector<std::string> fold_presto_names();
// Checks the combination (one candidate source, positive values). Throws UsageError.
FoldOptions read_fold_options(const cxxopts::ParseResult& result,
                              const std::vector<std::string>& positional);

// --brute-force's options (the files are the DM trials). Throws UsageError.
BruteForceRunOptions read_brute_force_options(const cxxopts::ParseResult& result,
                                              const std::vector<std::string>& positional);

// Rewrites "--name -1e-6" to "--name=-1e-6" (and "-p -0.1" to "-p-0.1") for options that take
// a number, so a negative value (prepfold's "-pd -6.769e-6") is not read as an option.
std::vector<std::string> join_negative_values(const std::vector<std::string>& args);

// Throws UsageError naming the first of prepfold's options that fold does not have (-timing,
// -psr, -polycos, -mask, -searchpdd, ...) and what to do instead, which the option parser
// would otherwise report as an unknown one-letter option or a bad value.
void refuse_missing_prepfold_options(const std::vector<std::string>& args);

}  // namespace rapt
