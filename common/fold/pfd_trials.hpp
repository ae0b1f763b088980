// prepfold's search curves recomputed from a .pfd: the sub-integration x subband profiles are
// rotated and added for each trial DM, period and period derivative, and the reduced chi^2 of
// each sum is the plot's y value. The rules are prepfold's (prepfold_plot.c): DM delays are
// taken at the highest channel of each subband relative to the band's top channel
// (Doppler-corrected by avgvoverc) and applied in whole bins; sub-integration k, starting at
// t_k, is rotated by the phase error (df t_k + fdot t_k^2 / 2 + fddot t_k^3 / 6) x proflen
// bins, rounded, where df, fdot, fddot are the trial's differences from the folding
// frequency and its derivatives; every reduced chi^2 is multiplied by prepfold's correction
// for the correlation between bins that fold()'s smearing of samples introduces
// (1 / DOF_corr(P / proflen / dt)).
#pragma once
#include <vector>

#include "fold/fold_statistics.hpp"  // dof_correction
#include "io/pfd.hpp"

namespace rapt {

// sum((p - prof_avg)^2) / prof_var / (nbins - 1): 1 on average for noise whose bins have
// variance prof_var around prof_avg (Leahy et al. 1983, as prepfold reports it).
double profile_reduced_chi2(const double* profile, int nbins, double prof_avg, double prof_var);

// Rotates right by a whole number of bins: out[k] = in[(k - shift_bins) mod nbins], any sign.
// `out` must not overlap `in`.
void rotate_profile(const double* in, int nbins, int shift_bins, double* out);

// Rotates right by a fractional number of bins through the Fourier shift theorem (exactly
// rotate_profile for whole numbers, up to rounding); keeps the mean and the power spectrum.
std::vector<double> shift_profile(const std::vector<double>& in, double shift_bins);

// Dispersion delays in bins for every subband at `dm` relative to the top of the band
// (positive: the subband's pulse arrives later), as prepfold computes them.
std::vector<double> pfd_subband_delays(const Pfd& pfd, double dm);


struct PfdTrials {
  int best_dm = -1;       // index into pfd.dms of the fold's DM (-1: no DM search, nsub == 1)
  int best_period = 0;    // index into pfd.periods nearest the best period
  int best_pdot = 0;      // index into pfd.pdots nearest the best Pdot
  double best_p_s = 0.0, best_pdot_ss = 0.0;  // topocentric (barycentric if folded so)
  double total_s = 0.0;   // T: folded samples x dt
  double part_s = 0.0;    // one sub-integration
  double numdata = 0.0;   // N: folded samples
  double chi2_factor = 1.0;  // the bin-correlation correction applied to every reduced chi^2
  std::vector<double> dm_chi2;      // per pfd.dms at the best P and Pdot; empty when nsub == 1
  std::vector<double> period_chi2;  // per pfd.periods at the best DM and Pdot
  std::vector<double> pdot_chi2;    // per pfd.pdots at the best DM and P
  std::vector<double> ppdot_chi2;   // [pdot][period] at the best DM
  std::vector<double> best_profile;     // [proflen], the sum at the best DM, P and Pdot
  FoldStats best_stats;                 // its combined statistics (redchi filled)
  std::vector<double> time_profiles;    // [npart][proflen], each part as it enters the sum
  std::vector<double> time_chi2;        // [npart + 1], reduced chi^2 of the running sum (1 first)
  std::vector<double> subband_profiles; // [nsub][proflen], each subband summed over time
};

// Throws DataError naming pfd.candnm if the pfd has no period or Pdot trials or no profiles.
PfdTrials compute_pfd_trials(const Pfd& pfd);

// Only the best profile and its statistics (compute_pfd_trials' best_profile and best_stats,
// redchi corrected): what prepfold writes to the .bestprof, so plot and file agree.
FoldStats pfd_best_profile(const Pfd& pfd, std::vector<double>& profile);

}  // namespace rapt
