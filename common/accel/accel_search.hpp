// One acceleration search from spectrum to PRESTO's three files: the engine finds the plane
// hits, the host de-duplicates them, removes harmonics, optimises every candidate and writes
// <root>_ACCEL_<zmax> (+ .cand, + .txtcand for .fft input).
#pragma once
#include <complex>
#include <string>
#include <vector>

#include "accel/accel_engine.hpp"
#include "accel/accel_plan.hpp"
#include "accel/candidate_list.hpp"
#include "accel/rz_maximiser.hpp"
#include "io/accel_files.hpp"

namespace rapt {

struct AccelSearchResult {
  AccelPlan plan;
  std::vector<RawCandidate> raw;    // after de-duplication and harmonic removal, sigma order
  AccelCandidates accel;            // optimised, in table order
  std::vector<FourierProps> records;  // the .cand records, in table order
  std::string txtcand;              // the running log (empty for time-series input)
  AccelEngineTimings engine_timings;
  double optimise_s = 0.0;
};

// The two halves of a search, so that one input's engine search can overlap another's
// optimisation. First: plan, engine, de-duplicated and harmonic-filtered candidates.
// `log_txtcand` is false for time-series input, as accelsearch writes no .txtcand then.
AccelSearchResult find_accel_candidates(const std::vector<std::complex<float>>& spectrum,
                                        const AccelSearchOptions& options, double obs_length_s,
                                        bool log_txtcand, AccelEngine& engine);
// Second: optimise every candidate (the (r, z) maxima by `maximiser`, the rest on up to
// `threads` host threads) and assemble the tables; `inf_text` is appended to the ACCEL text.
void optimise_accel_candidates(AccelSearchResult& result,
                               const std::vector<std::complex<float>>& spectrum,
                               const std::string& inf_text, int threads,
                               RzMaximiser& maximiser);

// Both halves for one (zapped) spectrum, optimising on the CPU.
AccelSearchResult run_accel_search(const std::vector<std::complex<float>>& spectrum,
                                   const AccelSearchOptions& options, double obs_length_s,
                                   const std::string& inf_text, bool log_txtcand,
                                   AccelEngine& engine, int threads);

// Output names: "<root>_ACCEL_<zmax>", and the same with ".cand" / ".txtcand".
std::string accel_output_name(const std::string& root, int zmax);

// Writes the files; with no candidates only the .txtcand (if logged) is written, as PRESTO.
// Refuses to replace existing files unless `overwrite`.
void write_accel_outputs(const std::string& root, const AccelSearchResult& result,
                         bool log_txtcand, bool overwrite);

}  // namespace rapt
