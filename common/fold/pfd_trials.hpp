// prepfold's search curves recomputed from a .pfd: the sub-integration x subband profiles are
// rotated and added for each trial DM, period and period derivative, and the reduced chi^2 of
// each sum is the plot's y value. The rules are prepfold's (prepfold_plot.c): shifts are whole
// bins (nearest integer), DM delays are taken at the highest channel of each subband relative to
// the band's top channel (Doppler-corrected by avgvoverc), a Pdot trial rotates part k by
// 0.5 * fdot * t_k^2 turns, and period trial k drifts the parts by
// pstep * (k - (nperiods - 1) / 2) bins over the whole observation.
#pragma once
#include <vector>

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

// Dispersion delays in bins for every subband at `dm`, as left rotations in [0, proflen):
// rotating subband s left by delays[s] lines it up with the top of the band.
std::vector<int> pfd_subband_delay_bins(const Pfd& pfd, double dm);

struct PfdTrials {
  int best_dm = -1;       // index into pfd.dms of the fold's DM (-1: no DM search, nsub == 1)
  int best_period = 0;    // index into pfd.periods nearest the best period
  int best_pdot = 0;      // index into pfd.pdots nearest the best Pdot
  double best_p_s = 0.0, best_pdot_ss = 0.0;  // topocentric (barycentric if folded so)
  double total_s = 0.0;   // T: folded samples x dt
  double part_s = 0.0;    // one sub-integration
  double numdata = 0.0;   // N: folded samples
  std::vector<double> dm_chi2;      // per pfd.dms at the best P and Pdot; empty when nsub == 1
  std::vector<double> period_chi2;  // per pfd.periods at the best DM and Pdot
  std::vector<double> pdot_chi2;    // per pfd.pdots at the best DM and P
  std::vector<double> ppdot_chi2;   // [pdot][period] at the best DM
  std::vector<double> best_profile;     // [proflen], the sum at the best DM, P and Pdot
  FoldStats best_stats;                 // its combined statistics (redchi filled)
  std::vector<double> time_profiles;    // [npart][proflen], each part as it enters the sum
  std::vector<double> time_chi2;        // [npart + 1], reduced chi^2 of the running sum
  std::vector<double> subband_profiles; // [nsub][proflen], each subband summed over time
};

// Throws DataError naming pfd.candnm if the pfd has no period or Pdot trials or no profiles.
PfdTrials compute_pfd_trials(const Pfd& pfd);

}  // namespace rapt
