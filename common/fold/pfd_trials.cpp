#include "fold/pfd_trials.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include "cli/errors.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Seconds of dispersion delay at `freq_mhz` (PRESTO's constant, 1 / 2.41e-4).
double dispersion_delay_s(double dm, double freq_mhz) {
  return freq_mhz == 0.0 ? 0.0 : dm / (0.000241 * freq_mhz * freq_mhz);
}

// Index of the value nearest `x` (prepfold looks for an exact match; the nearest is the same
// when there is one and still sensible when rounding has moved it).
int nearest_index(const std::vector<double>& values, double x) {
  int best = 0;
  for (size_t i = 1; i < values.size(); ++i)
    if (std::fabs(values[i] - x) < std::fabs(values[size_t(best)] - x)) best = int(i);
  return best;
}

// prepfold's f-dot for a trial Pdot, relative to the fold's own f-dot.
double trial_fdot(const Pfd& pfd, double pdot) {
  const double pfold = 1.0 / pfd.fold.p1;
  const double fdot = -pdot / (pfold * pfold);
  return fdot - pfd.fold.p2;
}

// Parts after dedispersion at `dm` (subbands rotated left by their delays and added), with
// prepfold's combined statistics: numdata of one subband, averages and variances summed.
void dedisperse_parts(const Pfd& pfd, const std::vector<int>& delays, std::vector<double>& parts,
                      std::vector<FoldStats>& stats) {
  const int n = pfd.proflen;
  parts.assign(size_t(pfd.npart) * size_t(n), 0.0);
  stats.assign(size_t(pfd.npart), FoldStats{});
  for (int k = 0; k < pfd.npart; ++k) {
    double* out = parts.data() + size_t(k) * size_t(n);
    FoldStats& s = stats[size_t(k)];
    s.numdata = pfd.stat(k, 0).numdata;
    s.numprof = n;
    for (int sub = 0; sub < pfd.nsub; ++sub) {
      const int d = delays[size_t(sub)];
      for (int b = 0; b < n; ++b) out[b] += pfd.rawfold(k, sub, (b + d) % n);
      const FoldStats& in = pfd.stat(k, sub);
      s.data_avg += in.data_avg;
      s.data_var += in.data_var;
      s.prof_avg += in.prof_avg;
      s.prof_var += in.prof_var;
    }
  }
}

// Each part rotated right by the phase a Pdot trial accumulates by the part's start.
std::vector<double> pdot_corrected(const Pfd& pfd, const std::vector<double>& parts, double pdot,
                                   double part_s) {
  const int n = pfd.proflen;
  const double fdot = trial_fdot(pfd, pdot);
  std::vector<double> out(parts.size());
  for (int k = 0; k < pfd.npart; ++k) {
    const double t = k * part_s;
    const int shift = int(std::lround(0.5 * fdot * t * t * n));
    rotate_profile(parts.data() + size_t(k) * size_t(n), n, shift, out.data() + size_t(k) * size_t(n));
  }
  return out;
}

// prepfold's rotation of part k of `nparts` for a drift of `drift_bins` over all of them:
// (int)(k * drift / nparts + 0.5), C truncation included.
int part_drift_shift(int k, int drift_bins, int nparts) {
  return int(double(k) * double(drift_bins) / double(nparts) + 0.5);
}

// The parts summed with a drift of `drift_bins` across them; returns the combined stats.
FoldStats sum_parts(const std::vector<double>& parts, const std::vector<FoldStats>& stats,
                    int nparts, int n, int drift_bins, std::vector<double>& sum,
                    std::vector<double>& scratch) {
  sum.assign(size_t(n), 0.0);
  scratch.resize(size_t(n));
  FoldStats total;
  total.numprof = n;
  for (int k = 0; k < nparts; ++k) {
    rotate_profile(parts.data() + size_t(k) * size_t(n), n, part_drift_shift(k, drift_bins, nparts),
                   scratch.data());
    for (int b = 0; b < n; ++b) sum[size_t(b)] += scratch[size_t(b)];
    total.numdata += stats[size_t(k)].numdata;
    total.data_avg += stats[size_t(k)].data_avg;
    total.data_var += stats[size_t(k)].data_var;
    total.prof_avg += stats[size_t(k)].prof_avg;
    total.prof_var += stats[size_t(k)].prof_var;
  }
  total.data_avg /= nparts;
  total.data_var /= nparts;
  total.redchi = profile_reduced_chi2(sum.data(), n, total.prof_avg, total.prof_var);
  return total;
}

int period_drift_bins(const Pfd& pfd, int period_index) {
  return pfd.pstep * (period_index - (int(pfd.periods.size()) - 1) / 2);
}

void check_trials(const Pfd& pfd) {
  const std::string name = pfd.candnm.empty() ? std::string("pfd") : pfd.candnm;
  if (pfd.periods.empty() || pfd.pdots.empty())
    throw DataError(name + ": the pfd has no period or Pdot trials to plot");
  if (pfd.proflen < 2 || pfd.npart < 1 || pfd.nsub < 1 ||
      pfd.rawfolds.size() != size_t(pfd.npart) * size_t(pfd.nsub) * size_t(pfd.proflen) ||
      pfd.stats.size() != size_t(pfd.npart) * size_t(pfd.nsub))
    throw DataError(name + ": the pfd holds no profiles to plot");
  if (pfd.fold.p1 <= 0.0) throw DataError(name + ": the pfd's folding frequency is not positive");
}

// The time panel and its running chi^2 at the best P and Pdot (pdprofs: Pdot-corrected parts).
void fill_time_arrays(const Pfd& pfd, const std::vector<double>& pdprofs,
                      const std::vector<FoldStats>& stats, PfdTrials& t) {
  const int n = pfd.proflen;
  const int drift = period_drift_bins(pfd, t.best_period);
  t.time_profiles.assign(size_t(pfd.npart) * size_t(n), 0.0);
  t.time_chi2.assign(size_t(pfd.npart) + 1, 1.0);  // folded noise has reduced chi^2 1
  std::vector<double> running(size_t(n), 0.0);
  double avg = 0.0, var = 0.0;
  for (int k = 0; k < pfd.npart; ++k) {
    double* row = t.time_profiles.data() + size_t(k) * size_t(n);
    const int shift = int(std::lround(double(k) * drift / double(pfd.npart))) % n;
    rotate_profile(pdprofs.data() + size_t(k) * size_t(n), n, shift, row);
    for (int b = 0; b < n; ++b) running[size_t(b)] += row[b];
    avg += stats[size_t(k)].prof_avg;
    var += stats[size_t(k)].prof_var;
    t.time_chi2[size_t(k) + 1] = profile_reduced_chi2(running.data(), n, avg, var);
  }
}

// Each subband at the best DM, Pdot and period, summed over time (the phase-frequency panel).
void fill_subband_profiles(const Pfd& pfd, const std::vector<int>& delays, PfdTrials& t) {
  const int n = pfd.proflen;
  t.subband_profiles.assign(size_t(pfd.nsub) * size_t(n), 0.0);
  std::vector<double> parts(size_t(pfd.npart) * size_t(n)), sum, scratch;
  std::vector<FoldStats> stats(size_t(pfd.npart));
  const double fdot = trial_fdot(pfd, t.best_pdot_ss);
  for (int sub = 0; sub < pfd.nsub; ++sub) {
    for (int k = 0; k < pfd.npart; ++k) {
      const double time = k * t.part_s;
      const int shift = int(std::lround(0.5 * fdot * time * time * n)) - delays[size_t(sub)];
      rotate_profile(&pfd.rawfolds[(size_t(k) * size_t(pfd.nsub) + size_t(sub)) * size_t(n)], n,
                     shift, parts.data() + size_t(k) * size_t(n));
      stats[size_t(k)] = pfd.stat(k, sub);
    }
    sum_parts(parts, stats, pfd.npart, n, period_drift_bins(pfd, t.best_period), sum, scratch);
    std::copy(sum.begin(), sum.end(), t.subband_profiles.begin() + size_t(sub) * size_t(n));
  }
}

}  // namespace

double profile_reduced_chi2(const double* profile, int nbins, double prof_avg, double prof_var) {
  if (nbins < 2 || prof_var <= 0.0) return 0.0;
  double chi2 = 0.0;
  for (int b = 0; b < nbins; ++b) {
    const double d = profile[b] - prof_avg;
    chi2 += d * d;
  }
  return chi2 / prof_var / (nbins - 1.0);
}

void rotate_profile(const double* in, int nbins, int shift_bins, double* out) {
  int wrap = shift_bins % nbins;
  if (wrap < 0) wrap += nbins;
  for (int k = 0; k < nbins; ++k) out[(k + wrap) % nbins] = in[k];
}

std::vector<double> shift_profile(const std::vector<double>& in, double shift_bins) {
  const int n = int(in.size());
  std::vector<double> out(in.size(), 0.0);
  if (n == 0) return out;
  // Spectrum of the input, each harmonic delayed by shift/n turns per harmonic number; the
  // Nyquist term of an even length has no phase to carry and is rotated as a real cosine.
  for (int h = 0; h <= n / 2; ++h) {
    std::complex<double> c(0.0, 0.0);
    for (int k = 0; k < n; ++k) c += in[size_t(k)] * std::polar(1.0, -2.0 * kPi * h * k / n);
    const double weight = (h == 0 || (n % 2 == 0 && h == n / 2)) ? 1.0 : 2.0;
    c *= std::polar(1.0, -2.0 * kPi * h * shift_bins / n);
    if (n % 2 == 0 && h == n / 2) c = std::complex<double>(c.real(), 0.0);
    for (int k = 0; k < n; ++k)
      out[size_t(k)] += weight / n * (c * std::polar(1.0, 2.0 * kPi * h * k / n)).real();
  }
  return out;
}

std::vector<int> pfd_subband_delay_bins(const Pfd& pfd, double dm) {
  const double bin_s = 1.0 / (pfd.fold.p1 * pfd.proflen);
  const int chan_per_sub = std::max(1, pfd.numchan / pfd.nsub);
  const double sub_width = pfd.chan_wid_mhz * chan_per_sub;
  const double doppler = 1.0 + pfd.avgvoverc;
  const double top_mhz = (pfd.lofreq_mhz + (pfd.numchan - 1.0) * pfd.chan_wid_mhz) * doppler;
  const double top_delay = dispersion_delay_s(dm, top_mhz);
  std::vector<int> delays(size_t(pfd.nsub));
  for (int s = 0; s < pfd.nsub; ++s) {
    // The delay at each subband's highest channel, as the subbands were formed.
    const double f = (pfd.lofreq_mhz + sub_width - pfd.chan_wid_mhz + s * sub_width) * doppler;
    int d = int(std::lround((dispersion_delay_s(dm, f) - top_delay) / bin_s)) % pfd.proflen;
    delays[size_t(s)] = d < 0 ? d + pfd.proflen : d;
  }
  return delays;
}

PfdTrials compute_pfd_trials(const Pfd& pfd) {
  check_trials(pfd);
  PfdTrials t;
  const int n = pfd.proflen;
  const bool bary = pfd.fold.pow == 1.0f;
  t.best_p_s = bary ? pfd.bary.p1 : pfd.topo.p1;
  t.best_pdot_ss = bary ? pfd.bary.p2 : pfd.topo.p2;
  for (int k = 0; k < pfd.npart; ++k) t.numdata += pfd.stat(k, 0).numdata;
  t.part_s = pfd.stat(0, 0).numdata * pfd.dt_s;
  t.total_s = t.numdata * pfd.dt_s;
  t.best_period = nearest_index(pfd.periods, t.best_p_s);
  t.best_pdot = nearest_index(pfd.pdots, t.best_pdot_ss);
  const bool dm_search = pfd.nsub > 1 && !pfd.dms.empty();
  std::vector<int> delays(size_t(pfd.nsub), 0);
  if (dm_search) {
    t.best_dm = nearest_index(pfd.dms, pfd.bestdm);
    delays = pfd_subband_delay_bins(pfd, pfd.dms[size_t(t.best_dm)]);
  }
  std::vector<double> parts, sum, scratch;
  std::vector<FoldStats> stats;
  const int best_drift = period_drift_bins(pfd, t.best_period);
  if (dm_search) {
    t.dm_chi2.resize(pfd.dms.size());
    for (size_t d = 0; d < pfd.dms.size(); ++d) {
      dedisperse_parts(pfd, pfd_subband_delay_bins(pfd, pfd.dms[d]), parts, stats);
      const auto pd = pdot_corrected(pfd, parts, t.best_pdot_ss, t.part_s);
      t.dm_chi2[d] = sum_parts(pd, stats, pfd.npart, n, best_drift, sum, scratch).redchi;
    }
  }
  dedisperse_parts(pfd, delays, parts, stats);
  const size_t nper = pfd.periods.size(), npd = pfd.pdots.size();
  t.ppdot_chi2.assign(nper * npd, 0.0);
  for (size_t j = 0; j < npd; ++j) {
    const auto pd = pdot_corrected(pfd, parts, pfd.pdots[j], t.part_s);
    for (size_t k = 0; k < nper; ++k)
      t.ppdot_chi2[j * nper + k] =
          sum_parts(pd, stats, pfd.npart, n, period_drift_bins(pfd, int(k)), sum, scratch).redchi;
    if (int(j) == t.best_pdot) fill_time_arrays(pfd, pd, stats, t);
  }
  for (size_t k = 0; k < nper; ++k)
    t.period_chi2.push_back(t.ppdot_chi2[size_t(t.best_pdot) * nper + k]);
  for (size_t j = 0; j < npd; ++j)
    t.pdot_chi2.push_back(t.ppdot_chi2[j * nper + size_t(t.best_period)]);
  const auto best_parts = pdot_corrected(pfd, parts, t.best_pdot_ss, t.part_s);
  t.best_stats = sum_parts(best_parts, stats, pfd.npart, n, best_drift, t.best_profile, scratch);
  fill_subband_profiles(pfd, delays, t);
  return t;
}

}  // namespace rapt
