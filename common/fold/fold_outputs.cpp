#include "fold/fold_outputs.hpp"

#include <algorithm>
#include <cmath>

#include "fold/fold_statistics.hpp"
#include "io/presto_inf.hpp"

namespace rapt {

FoldOutputNames fold_output_names(const std::string& root, const std::string& candidate) {
  const std::string pfd = root + "_" + candidate + ".pfd";
  return {pfd, pfd + ".bestprof"};
}

namespace {

// One (part, subband) profile with equal exposure in every bin, and PRESTO's foldstats of it.
// A part rarely holds a whole number of turns: the bins its last partial turn covers collect
// more samples than the others, a step of (extra samples) x (data mean) that would swamp the
// pulse. prepfold carries partial turns over to the next part (and drops the last one); we keep
// every sample and instead take the part's mean level times the extra exposure off each bin,
// which leaves the sum of the profile and its noise as they were.
FoldStats cell_profile(const FoldCube& cube, int part, int sub, double* profile) {
  const size_t cell = cube.cell(part, sub);
  FoldStats st;
  const double n = double(cube.count[cell]);
  st.numdata = n;
  st.numprof = cube.nbins;
  if (n > 0) st.data_avg = cube.data_sum[cell] / n;
  if (n > 1) st.data_var = std::max(0.0, (cube.data_sumsq[cell] - n * st.data_avg * st.data_avg) / (n - 1.0));
  const float* weights = &cube.weights[cell * cube.nbins];
  const double mean_weight = n / cube.nbins;
  for (int b = 0; b < cube.nbins; ++b) {
    profile[b] = cube.sum(part, sub, b) - st.data_avg * (double(weights[b]) - mean_weight);
    st.prof_avg += profile[b];
  }
  st.prof_avg /= cube.nbins;
  st.prof_var = st.data_var * n / cube.nbins;
  if (st.prof_var > 0.0)
    st.redchi = profile_chi2(profile, cube.nbins, st.prof_avg, st.prof_var) / (cube.nbins - 1.0);
  return st;
}

}  // namespace

Pfd make_pfd(const FoldObservation& obs, const FoldCandidate& candidate, const FoldLayout& layout,
             const FoldCube& cube, double dm, const std::string& pfd_path) {
  Pfd pfd;
  pfd.nsub = layout.nsub;
  pfd.npart = layout.npart;
  pfd.proflen = layout.nbins;
  pfd.numchan = obs.numchan;
  pfd.filenm = obs.filenm;
  pfd.candnm = candidate.name;
  pfd.telescope = obs.telescope;
  pfd.pgdev = pfd_path + ".ps/CPS";
  pfd.rastr = format_ra_hms(obs.ra_deg);
  pfd.decstr = format_dec_dms(obs.dec_deg);
  pfd.dt_s = obs.dt_s;
  pfd.start_frac = 0.0;
  pfd.end_frac = 1.0;
  const bool bary = obs.barycentric || candidate.barycentric;
  (bary ? pfd.bepoch_mjd : pfd.tepoch_mjd) = obs.epoch_mjd;
  pfd.lofreq_mhz = obs.lofreq_mhz;
  pfd.chan_wid_mhz = obs.chan_wid_mhz;
  pfd.bestdm = dm;
  pfd.fold.pow = bary ? 1.0f : 0.0f;
  pfd.fold.p1 = layout.spin.f_hz;
  pfd.fold.p2 = layout.spin.fdot;
  pfd.fold.p3 = layout.spin.fddot;
  PfdPosition& start = bary ? pfd.bary : pfd.topo;
  start.p1 = 1.0 / layout.spin.f_hz;
  start.p2 = layout.spin.fdot == 0.0 ? 0.0 : -layout.spin.fdot / (layout.spin.f_hz * layout.spin.f_hz);
  start.p3 = period_pddot(layout.spin);
  pfd.allocate_folds();
  for (int part = 0; part < pfd.npart; ++part)
    for (int sub = 0; sub < pfd.nsub; ++sub)
      pfd.stat(part, sub) = cell_profile(cube, part, sub, &pfd.rawfold(part, sub, 0));
  return pfd;
}

Bestprof make_bestprof(const Pfd& pfd, const FoldSearchResult& result) {
  Bestprof bp;
  bp.input_file = pfd.filenm;
  bp.candidate = pfd.candnm;
  bp.telescope = pfd.telescope;
  if (pfd.tepoch_mjd != 0.0 && pfd.tepoch_mjd != -1.0) bp.epoch_topo_mjd = pfd.tepoch_mjd;
  if (pfd.bepoch_mjd != 0.0) bp.epoch_bary_mjd = pfd.bepoch_mjd;
  bp.t_sample_s = pfd.dt_s;
  bp.data_folded = result.stats.numdata;
  bp.data_avg = result.stats.data_avg;
  bp.data_stddev = std::sqrt(result.stats.data_var);
  bp.profile_avg = result.stats.prof_avg;
  bp.profile_stddev = std::sqrt(result.stats.prof_var);
  bp.reduced_chi_sqr = result.stats.redchi;
  bp.prob_noise = result.log_prob_noise < -700.0 ? 0.0 : std::exp(result.log_prob_noise);
  bp.prob_noise_sigma = result.sigma;
  if (pfd.nsub > 1) bp.best_dm = pfd.bestdm;
  const bool bary = pfd.fold.pow == 1.0f;
  const PfdPosition& best = bary ? pfd.bary : pfd.topo;
  BestprofPeriods periods;
  periods.p_ms = best.p1 * 1000.0;
  periods.p_ms_err = result.errors.p_s * 1000.0;
  periods.pdot = best.p2;
  periods.pdot_err = result.errors.pdot;
  periods.pddot = best.p3;
  periods.pddot_err = result.errors.pddot;
  (bary ? bp.bary : bp.topo) = periods;
  bp.profile = result.profile;
  return bp;
}

}  // namespace rapt
