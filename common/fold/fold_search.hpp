// prepfold's optimisation: shift-and-add the folded (part x subband) profiles over a grid of
// DM x P x P' trials and keep the one with the largest reduced chi^2.
//
// Each trial only moves whole profiles by whole bins:
//   * a trial DM shifts subband s left by round((delay(f_s) - delay(f_top)) f nbins) bins, with
//     f_s the highest channel of the subband (prepsubband's reference) and f_top the band's
//     highest channel; the subbands of each part are then summed;
//   * a trial (f + df, fdot + dfd) shifts part p right by round((df t_p + dfd t_p^2 / 2) nbins),
//     t_p the part's start; the parts are then summed.
// The grids are PRESTO's: 2 npfact nbins + 1 periods and P-dots, the steps being pstep and pdstep
// bins of drift over the whole fold; 2 ndmfact nbins + 1 DMs, the step dmstep bins of delay at
// the lowest channel, starting at 0 if the grid would go below it.
#pragma once
#include <vector>

#include "fold/fold_statistics.hpp"
#include "io/pfd.hpp"

namespace rapt {

struct FoldSearchOptions {
  bool search_p = true;    // -nopsearch clears
  bool search_pd = true;   // -nopdsearch clears
  bool search_dm = true;   // -nodmsearch clears
  int npfact = 2, ndmfact = 3;
  int pstep = 2, pdstep = 4, dmstep = 2;
  int threads = 1;
  int gpu = -1;            // >= 0: search on this GPU (builds with CUDA; shapes it supports)

  bool nosearch() const { return !search_p && !search_pd && !search_dm; }
  void set_nosearch() { search_p = search_pd = search_dm = false; }
  void set_fine();    // prepfold -fine: npfact 1, ndmfact 1, steps 1, 2, 1
  void set_coarse();  // prepfold -coarse: npfact 4, wider P and P' steps
  void validate() const;  // UsageError for factors or steps < 1
};

struct FoldSearchResult {
  int dm_index = 0, p_index = 0, pd_index = 0;  // the best trial in pfd.dms/periods/pdots
  std::vector<double> profile;   // the best trial's profile
  FoldStats stats;               // its statistics; redchi with the drizzle correction
  double dof_effective = 0.0;    // (nbins - 1) * dof_correction
  double log_prob_noise = 0.0;   // ln Prob(chi^2 this large from noise)
  double sigma = 0.0;            // equivalent Gaussian sigma
  SpinErrors errors;             // on the best P, P', P''
  long long trials = 0;          // DM x P x P' combinations tried
};

// Searches the folds in `pfd` (rawfolds, stats, nsub, npart, proflen, numchan, lofreq_mhz,
// chan_wid_mhz, dt_s, fold = the f, f', f'' folded with, bestdm = the DM folded at) and stores
// the grids (dms, periods, pdots), the search settings, bestdm and the best P, P', P'' (in bary
// if fold.pow == 1, else in topo) back into it. P'' stays the folded one (no P'' search).
FoldSearchResult search_fold(Pfd& pfd, const FoldSearchOptions& options);

// Building blocks, shared with whoever draws the prepfold-style plot from a Pfd.

// Start of each part in seconds from the first sample (from the parts' sample counts).
std::vector<double> part_start_times(const Pfd& pfd);
// The parts' profiles with the subbands shifted for `dm` and summed: [part][bin], and the
// per-part statistics summed over subbands (numdata: one subband's).
void dedisperse_parts(const Pfd& pfd, double dm, std::vector<double>& profiles,
                      std::vector<FoldStats>& stats);

}  // namespace rapt
