#include "fold/pfd_trials.hpp"

#include "fold/fold_statistics.hpp"

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

// What every trial needs: the fold's spin, the part start times and the correction factor.
struct TrialContext {
  int n = 0, npart = 0;
  double fold_p = 0.0, fold_pdot = 0.0;   // the folding period and its derivative
  double chi2_factor = 1.0;
  std::vector<double> part_times;         // start of each sub-integration (s)
  std::vector<double> fddot_turns;        // each part's phase error from the fddot difference
};

// Phase errors of the parts for a trial (df, dfd: differences from the folding frequency and
// its derivative), in bins.
std::vector<double> part_delays(const TrialContext& c, double df, double dfd) {
  std::vector<double> delays(size_t(c.npart));
  for (int k = 0; k < c.npart; ++k) {
    const double t = c.part_times[size_t(k)];
    delays[size_t(k)] = (c.fddot_turns[size_t(k)] + 0.5 * dfd * t * t + df * t) * c.n;
  }
  return delays;
}

double fdot_error(const Pfd& pfd, const TrialContext& c, double pdot) {
  return -pdot / (c.fold_p * c.fold_p) - pfd.fold.p2;
}

// prepfold's rounding of a delay to a right rotation in whole bins: (int)(d mod n + 0.5).
int rounded_right_shift(double delay_bins, int n) {
  double d = std::fmod(delay_bins, double(n));
  if (d < 0.0) d += n;
  return int(d + 0.5);
}

// The same for the trial sums, which prepfold rounds from the negated delay.
int rounded_trial_shift(double delay_bins, int n) {
  double d = std::fmod(-delay_bins, double(n));
  if (d < 0.0) d += n;
  return -int(d + 0.5);
}

void add_stats(FoldStats& total, const FoldStats& s) {
  total.numdata += s.numdata;
  total.data_avg += s.data_avg;
  total.data_var += s.data_var;
  total.prof_avg += s.prof_avg;
  total.prof_var += s.prof_var;
}

// Parts after dedispersion at `dm` (subbands rotated left by their whole-bin delays and added),
// with prepfold's combined statistics: numdata of one subband, averages and variances summed.
void dedisperse_parts(const Pfd& pfd, double dm, std::vector<double>& parts,
                      std::vector<FoldStats>& stats) {
  const int n = pfd.proflen;
  std::vector<int> shifts;
  for (double d : pfd_subband_delays(pfd, dm)) {
    const int s = int(std::lround(d)) % n;
    shifts.push_back(s < 0 ? s + n : s);
  }
  parts.assign(size_t(pfd.npart) * size_t(n), 0.0);
  stats.assign(size_t(pfd.npart), FoldStats{});
  for (int k = 0; k < pfd.npart; ++k) {
    double* out = parts.data() + size_t(k) * size_t(n);
    FoldStats& s = stats[size_t(k)];
    s.numprof = n;
    for (int sub = 0; sub < pfd.nsub; ++sub) {
      const int d = shifts[size_t(sub)];
      for (int b = 0; b < n; ++b) out[b] += pfd.rawfold(k, sub, (b + d) % n);
      add_stats(s, pfd.stat(k, sub));
    }
    s.numdata = pfd.stat(k, 0).numdata;
  }
}

// The parts rotated by their delays and summed (prepfold's combine_profs); the returned
// statistics carry the corrected reduced chi^2. `shifted` (optional) receives each rotated part.
FoldStats sum_parts(const TrialContext& c, const std::vector<double>& parts,
                    const std::vector<FoldStats>& stats, const std::vector<double>& delays,
                    bool best_rounding, std::vector<double>& sum,
                    std::vector<double>* shifted = nullptr, std::vector<double>* running = nullptr) {
  const int n = c.n;
  sum.assign(size_t(n), 0.0);
  FoldStats total;
  total.numprof = n;
  if (running) running->assign(1, 1.0);  // folded noise has reduced chi^2 1
  for (int k = 0; k < c.npart; ++k) {
    const double d = delays[size_t(k)];
    int shift = (best_rounding ? rounded_right_shift(d, n) : rounded_trial_shift(d, n)) % n;
    if (shift < 0) shift += n;
    // Added in place of rotating: bin b goes to b + shift, wrapping.
    const double* in = parts.data() + size_t(k) * size_t(n);
    for (int b = 0; b < n - shift; ++b) sum[size_t(b + shift)] += in[b];
    for (int b = n - shift; b < n; ++b) sum[size_t(b + shift - n)] += in[b];
    if (shifted) rotate_profile(in, n, shift, shifted->data() + size_t(k) * size_t(n));
    add_stats(total, stats[size_t(k)]);
    if (running)
      running->push_back(c.chi2_factor *
                         profile_reduced_chi2(sum.data(), n, total.prof_avg, total.prof_var));
  }
  total.data_avg /= c.npart;
  total.data_var /= c.npart;
  total.redchi = c.chi2_factor * profile_reduced_chi2(sum.data(), n, total.prof_avg,
                                                       total.prof_var);
  return total;
}

void check_trials(const Pfd& pfd) {
  const std::string name = pfd.candnm.empty() ? std::string("pfd") : pfd.candnm;
  if (pfd.periods.empty() || pfd.pdots.empty())
    throw DataError(name + ": the pfd has no period or Pdot trials to plot");
  if (pfd.proflen < 2 || pfd.npart < 1 || pfd.nsub < 1 ||
      pfd.rawfolds.size() != size_t(pfd.npart) * size_t(pfd.nsub) * size_t(pfd.proflen) ||
      pfd.stats.size() != size_t(pfd.npart) * size_t(pfd.nsub))
    throw DataError(name + ": the pfd holds no profiles to plot");
  if (pfd.fold.p1 <= 0.0 || pfd.dt_s <= 0.0)
    throw DataError(name + ": the pfd's folding frequency or sample time is not positive");
}

TrialContext make_context(const Pfd& pfd, const PfdTrials& t, double best_pddot) {
  TrialContext c;
  c.n = pfd.proflen;
  c.npart = pfd.npart;
  c.fold_p = 1.0 / pfd.fold.p1;
  c.fold_pdot = -pfd.fold.p2 / (pfd.fold.p1 * pfd.fold.p1);
  c.chi2_factor = 1.0 / dof_correction(t.best_p_s / pfd.proflen / pfd.dt_s);
  // The fddot difference is applied only when the search went that far (P'' non-zero).
  const double dfdd = best_pddot == 0.0 ? 0.0
      : 2.0 * c.fold_pdot * c.fold_pdot / (c.fold_p * c.fold_p * c.fold_p) -
            best_pddot / (c.fold_p * c.fold_p) - pfd.fold.p3;
  double samples = 0.0;  // before part k: k times part_s in prepfold's equal parts
  for (int k = 0; k < pfd.npart; ++k) {
    // prepfold_plot.c holds the part times in single precision (gen_freqs). That rounding
    // decides the shift of a part whose delay is exactly half a bin (pstep 2 puts parts
    // npart/4 and 3 npart/4 there for an odd period offset), so the best profile is the same.
    const double time = double(float(samples * pfd.dt_s));
    c.part_times.push_back(time);
    c.fddot_turns.push_back(dfdd * time * time * time / 6.0);
    samples += pfd.stat(k, 0).numdata;
  }
  return c;
}

// Each subband at the best DM, P and Pdot summed over time (the phase-frequency panel).
void fill_subband_profiles(const Pfd& pfd, const TrialContext& c, const std::vector<double>& best,
                           double dm, PfdTrials& t) {
  const int n = pfd.proflen;
  const std::vector<double> dm_delays = pfd_subband_delays(pfd, dm);
  t.subband_profiles.assign(size_t(pfd.nsub) * size_t(n), 0.0);
  std::vector<double> parts(size_t(pfd.npart) * size_t(n)), delays(best.size()), sum;
  std::vector<FoldStats> stats(size_t(pfd.npart));
  for (int sub = 0; sub < pfd.nsub; ++sub) {
    for (int k = 0; k < pfd.npart; ++k) {
      std::copy_n(&pfd.rawfolds[(size_t(k) * size_t(pfd.nsub) + size_t(sub)) * size_t(n)], n,
                  parts.begin() + size_t(k) * size_t(n));
      stats[size_t(k)] = pfd.stat(k, sub);
      delays[size_t(k)] = best[size_t(k)] - dm_delays[size_t(sub)];
    }
    sum_parts(c, parts, stats, delays, false, sum);
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

std::vector<double> pfd_subband_delays(const Pfd& pfd, double dm) {
  const double bins_per_s = pfd.fold.p1 * pfd.proflen;
  const int chan_per_sub = std::max(1, pfd.numchan / pfd.nsub);
  const double sub_width = pfd.chan_wid_mhz * chan_per_sub;
  const double doppler = 1.0 + pfd.avgvoverc;
  const double top_mhz = (pfd.lofreq_mhz + (pfd.numchan - 1.0) * pfd.chan_wid_mhz) * doppler;
  const double top_delay = dispersion_delay_s(dm, top_mhz);
  std::vector<double> delays(size_t(pfd.nsub));
  for (int s = 0; s < pfd.nsub; ++s) {
    // The delay at each subband's highest channel, as the subbands were formed.
    const double f = (pfd.lofreq_mhz + sub_width - pfd.chan_wid_mhz + s * sub_width) * doppler;
    delays[size_t(s)] = (dispersion_delay_s(dm, f) - top_delay) * bins_per_s;
  }
  return delays;
}

namespace {

// The best trial's inputs: the parts at the best DM and each part's delay at the best P, P'.
struct BestTrial {
  TrialContext context;
  double dm = 0.0;
  std::vector<double> parts, delays;
  std::vector<FoldStats> stats;
};

// Fills t's best indices, times and chi2_factor, and returns what the best sum needs.
BestTrial prepare_best_trial(const Pfd& pfd, PfdTrials& t) {
  check_trials(pfd);
  const bool bary = pfd.fold.pow == 1.0f;
  t.best_p_s = bary ? pfd.bary.p1 : pfd.topo.p1;
  t.best_pdot_ss = bary ? pfd.bary.p2 : pfd.topo.p2;
  for (int k = 0; k < pfd.npart; ++k) t.numdata += pfd.stat(k, 0).numdata;
  t.part_s = pfd.stat(0, 0).numdata * pfd.dt_s;
  t.total_s = t.numdata * pfd.dt_s;
  t.best_period = nearest_index(pfd.periods, t.best_p_s);
  t.best_pdot = nearest_index(pfd.pdots, t.best_pdot_ss);
  BestTrial b;
  b.context = make_context(pfd, t, bary ? pfd.bary.p3 : pfd.topo.p3);
  t.chi2_factor = b.context.chi2_factor;
  if (pfd.nsub > 1 && !pfd.dms.empty()) {
    t.best_dm = nearest_index(pfd.dms, pfd.bestdm);
    b.dm = pfd.dms[size_t(t.best_dm)];
  }
  dedisperse_parts(pfd, b.dm, b.parts, b.stats);
  b.delays = part_delays(b.context, 1.0 / t.best_p_s - pfd.fold.p1,
                         fdot_error(pfd, b.context, t.best_pdot_ss));
  return b;
}

}  // namespace

FoldStats pfd_best_profile(const Pfd& pfd, std::vector<double>& profile) {
  PfdTrials t;
  const BestTrial b = prepare_best_trial(pfd, t);
  return sum_parts(b.context, b.parts, b.stats, b.delays, true, profile);
}

PfdTrials compute_pfd_trials(const Pfd& pfd) {
  PfdTrials t;
  const int n = pfd.proflen;
  const BestTrial b = prepare_best_trial(pfd, t);
  const TrialContext& c = b.context;
  const bool dm_search = t.best_dm >= 0;
  const double best_dm = b.dm;
  std::vector<double> parts = b.parts, sum;
  std::vector<FoldStats> stats = b.stats;
  const std::vector<double>& best = b.delays;
  t.time_profiles.assign(size_t(pfd.npart) * size_t(n), 0.0);
  t.best_stats = sum_parts(c, parts, stats, best, true, t.best_profile, &t.time_profiles,
                           &t.time_chi2);
  const size_t nper = pfd.periods.size(), npd = pfd.pdots.size();
  t.ppdot_chi2.assign(nper * npd, 0.0);
  for (size_t j = 0; j < npd; ++j) {
    const double dfd = fdot_error(pfd, c, pfd.pdots[j]);
    for (size_t k = 0; k < nper; ++k) {
      const auto delays = part_delays(c, 1.0 / pfd.periods[k] - pfd.fold.p1, dfd);
      t.ppdot_chi2[j * nper + k] = sum_parts(c, parts, stats, delays, false, sum).redchi;
    }
  }
  for (size_t k = 0; k < nper; ++k)
    t.period_chi2.push_back(t.ppdot_chi2[size_t(t.best_pdot) * nper + k]);
  for (size_t j = 0; j < npd; ++j)
    t.pdot_chi2.push_back(t.ppdot_chi2[j * nper + size_t(t.best_period)]);
  if (dm_search) {
    for (double dm : pfd.dms) {
      dedisperse_parts(pfd, dm, parts, stats);
      t.dm_chi2.push_back(sum_parts(c, parts, stats, best, false, sum).redchi);
    }
  }
  fill_subband_profiles(pfd, c, best, best_dm, t);
  return t;
}

}  // namespace rapt
