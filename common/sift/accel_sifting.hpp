// ACCEL_sift.py's sifting of accelsearch candidates over many DM trials (PRESTO's sifting
// module, with ACCEL_sift.py's settings as defaults), on candidates read by accel_sift_file:
//   1. per file: drop periods outside [min_period, max_period]; drop candidates below
//      sigma_threshold (one harmonic: only if the coherent power is also below
//      c_pow_threshold); drop those whose strongest harmonic has power below harm_pow_cutoff,
//      and those dominated by one high harmonic (8+ harmonics: the strongest is above the 5th
//      and over 2x the next; 4+: above the 3rd and over 3x the next); and (ours) those with
//      fewer than min_numharm harmonics;
//   2. duplicates: sorted by r, a run of candidates within r_err bins of the first becomes its
//      strongest (highest sigma), which keeps the others' (DM, S/N, sigma) as hits;
//   3. DM problems: fewer than min_num_dms hits, the highest-sigma hit at DM <= low_dm_cutoff,
//      or hits at no two neighbouring DM trials;
//   4. harmonics: going down in sigma, candidates whose frequency is within r_err / T times
//      the factor of 1/16 ... 16 times, or 3/2, 5/2, 2/3, 4/3, 5/3, 3/4, 5/4, 2/5, 3/5, 4/5
//      times, a stronger one's are dropped.
// The result is sorted by sigma, highest first; ties keep the order of the files sorted by DM,
// then name, then path, and of the candidates in each: one order however the files were
// split into parts or listed.
#pragma once
#include <string>
#include <vector>

#include "sift/accel_sift_file.hpp"

namespace rapt {

struct AccelSiftSettings {
  double sigma_threshold = 4.0;
  double c_pow_threshold = 100.0;
  double harm_pow_cutoff = 8.0;
  double r_err = 1.1;  // Fourier bins
  double min_period_s = 0.0005;
  double max_period_s = 15.0;
  int min_numharm = 1;
  int min_num_dms = 2;
  double low_dm_cutoff = 2.0;
};

// How many candidates each step left.
struct AccelSiftCounts {
  size_t read = 0;
  size_t passed_thresholds = 0;
  size_t distinct = 0;
  size_t good_dms = 0;
  size_t fundamentals = 0;
};

// Step 1 on one file's candidates (their order is kept).
std::vector<SiftCandidate> reject_weak_candidates(std::vector<SiftCandidate> candidates,
                                                  const AccelSiftSettings& settings);
// Step 2. The result is sorted by sigma, highest first.
std::vector<SiftCandidate> remove_duplicate_candidates(std::vector<SiftCandidate> candidates,
                                                       double r_err);
// Step 3. `dms_searched`: every DM trial searched (hits' DMs are added when missing).
std::vector<SiftCandidate> remove_dm_problems(std::vector<SiftCandidate> candidates,
                                              const std::vector<double>& dms_searched,
                                              int min_num_dms, double low_dm_cutoff);
// Step 4. The result is sorted by sigma, highest first.
std::vector<SiftCandidate> remove_harmonics(std::vector<SiftCandidate> candidates, double r_err);

// The DM trials searched: those of the files and, as ACCEL_sift takes them from the
// *DM*.inf files, those of the .inf files of the same observation beside them
// (<dir>/<obs>_DM*.inf for <dir>/<obs>_DM<dm>_ACCEL_<zmax>): a DM trial without
// candidates has no ACCEL file.
std::vector<double> dm_trials_beside(const std::vector<AccelSiftFile>& files);

// All four steps, on the files in any order.
std::vector<SiftCandidate> sift_accel_candidates(const std::vector<AccelSiftFile>& files,
                                                 const std::vector<double>& dms_searched,
                                                 const AccelSiftSettings& settings,
                                                 AccelSiftCounts* counts = nullptr);

// ACCEL_sift's candidate list (sifting's write_candlist): a header, then per candidate
// "file:candnum DM SNR sigma numharm ipow cpow P(ms) r z (numhits)" and, when it has more than
// one hit, one "  DM=... SNR=... Sigma=...   ***" line per hit, sorted by DM.
std::string format_sift_candlist(const std::vector<SiftCandidate>& candidates);

// Python's str.center(width): the extra space of an odd margin goes left when width is odd.
std::string python_center(const std::string& text, size_t width);

}  // namespace rapt
