// snr's fused mode: a filterbank (or PSRFITS file) and a DM plan in, the dedispersed series
// kept in memory (never written) and searched as if dedisp had written them: the same engine,
// the same lengths and padding, the same on/off pairs, so the same events as
// `dedisp ... && snr <root>_DM*.dat`.
#pragma once
#include <string>
#include <vector>

#include "snr/series_input.hpp"

namespace rapt {

struct FusedDedispPlan {
  std::string input;          // .fil or .fits
  double lodm = 0.0;
  double dmstep = 1.0;
  int numdms = 0;
  std::string device = "auto";
  int threads = 0;            // CPU dedispersion threads (0 = all cores)
};

// Dedisperses `plan.input` and returns one series per DM, with samples loaded, named
// "<dir>/<stem>_DM<dm>" as dedisp -o <dir>/<stem> would name them. Throws UsageError for a bad
// plan, DataError for unreadable input.
std::vector<SeriesInput> dedisperse_in_memory(const FusedDedispPlan& plan);

// True for the inputs fused mode takes (filterbank and PSRFITS suffixes).
bool is_filterbank_path(const std::string& path);

}  // namespace rapt
