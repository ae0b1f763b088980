// accelgpu's and harmsum's command lines: the options, declared once, and their translation
// into search settings. PRESTO's single-dash spellings (-zmax, -numharm, ...) are accepted.
#pragma once
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "accel/accel_plan.hpp"
#include "cli/work_part.hpp"

namespace rapt {

struct AccelRunOptions {
  AccelSearchOptions search;
  std::string zaplist;        // -zaplist: birdies to zap first ("" = none)
  double baryv = 0.0;         // -baryv: v/c used to move topocentric birdies
  std::string device = "auto";  // one device, or a list (gpu:0,1, gpu:all) to split the files over
  int threads = 0;            // -ncpus / --threads; 0 = all cores
  WorkPart part;              // --part K/N: only this part's share of the files
  std::vector<std::string> files;  // every input given, in order (before --part's cut)
};

// Options both programs take (zmax and the polishing switches are accelgpu's only).
void add_accel_options(cxxopts::Options& options, bool with_acceleration);
// The PRESTO single-dash names to accept for the options added above.
std::vector<std::string> accel_presto_option_names(bool with_acceleration);
// Throws UsageError for bad values or a missing input.
AccelRunOptions read_accel_options(const cxxopts::ParseResult& result,
                                   const std::vector<std::string>& positional,
                                   bool with_acceleration);

}  // namespace rapt
