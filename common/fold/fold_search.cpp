#include "fold/fold_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "accel/accel_sigma.hpp"
#include "cli/errors.hpp"
#include "dedisp/dedisp_plan.hpp"
#include "dedisp/parallel_for.hpp"
#include "fold/fold_search_gpu.hpp"
#include "fold/pfd_trials.hpp"

namespace rapt {

void FoldSearchOptions::set_fine() {
  npfact = ndmfact = 1;
  pstep = 1;
  pdstep = 2;
  dmstep = 1;
}

void FoldSearchOptions::set_coarse() {
  npfact = 4;
  pstep = pstep == 1 ? 2 : 3;
  pdstep = pdstep == 2 ? 4 : 6;
}

void FoldSearchOptions::validate() const {
  if (npfact < 1 || ndmfact < 1) throw UsageError("--npfact and --ndmfact must be at least 1");
  if (pstep < 1 || pdstep < 1 || dmstep < 1)
    throw UsageError("--pstep, --pdstep and --dmstep must be at least 1");
}

namespace {

double dispersion_delay_s(double dm, double freq_mhz) {
  return freq_mhz > 0.0 ? dm * kDispersionConstantPresto / (freq_mhz * freq_mhz) : 0.0;
}

int nearest_int(double x) { return int(x < 0.0 ? std::ceil(x - 0.5) : std::floor(x + 0.5)); }

// The right shift, in [0, nbins), that prepfold's combine_profs applies for a delay of `bins`:
// it rounds the left shift (-bins) mod nbins half up, which is ceil(bins - 1/2) mod nbins.
int right_shift(double bins, int nbins) {
  const long long n = (long long)std::ceil(bins - 0.5);
  const long long s = n % nbins;
  return int(s < 0 ? s + nbins : s);
}

// right_shift for the search's inner loop, where it runs for every part of every trial:
// no libm call and no division. Delays are offset by a whole number of profiles so the
// rounded value is a non-negative 32-bit integer, reduced modulo nbins by multiplication
// (Lemire's fastmod).
// The whole number of profiles FastShift adds to a delay before truncating it.
double shift_offset(int nbins) { return double(nbins) * std::ceil(double(1 << 24) / nbins); }

class FastShift {
 public:
  explicit FastShift(int nbins)
      : nbins_(uint32_t(nbins)),
        magic_(~uint64_t(0) / uint64_t(nbins) + 1),
        offset_(shift_offset(nbins)) {}
  int operator()(double bins) const {
    const double x = bins - 0.5 + offset_;  // > 0 for any delay the grids produce
    if (!(x >= 0.0 && x < 4294967295.0)) return right_shift(bins, int(nbins_));
    uint32_t n = uint32_t(x);               // truncation = floor for positive x
    n += double(n) < x;                     // ceil
    const uint64_t low = magic_ * n;
    return int((static_cast<unsigned __int128>(low) * nbins_) >> 64);
  }

 private:
  uint32_t nbins_;
  uint64_t magic_;
  double offset_;
};

// Profiles of the parts at one DM, minus their means, each written twice in a row (plus
// padding), so that any circular shift of a profile is one contiguous window.
struct CentredParts {
  int nbins = 0, padded = 0, stride = 0;
  std::vector<float> values;  // [part][stride]
  double variance = 0.0;      // sum of the parts' profile variances
};

CentredParts centre_parts(const std::vector<double>& profiles, const std::vector<FoldStats>& stats,
                          int nbins) {
  CentredParts c;
  c.nbins = nbins;
  c.padded = (nbins + 7) / 8 * 8;
  c.stride = 2 * nbins + 8;
  const size_t nparts = stats.size();
  c.values.assign(nparts * c.stride, 0.0f);
  for (size_t p = 0; p < nparts; ++p) {
    float* row = &c.values[p * c.stride];
    for (int b = 0; b < 2 * nbins; ++b)
      row[b] = float(profiles[p * nbins + b % nbins] - stats[p].prof_avg);
    c.variance += stats[p].prof_var;
  }
  return c;
}

// Eight floats that the compiler keeps in vector registers (GCC/Clang vector extension; plain
// SSE pairs without -mavx), so the shift-and-add below runs eight bins at a time.
typedef float Float8 __attribute__((vector_size(32)));

// On x86-64 the shift-and-add is also compiled for AVX2 and picked at run time (one register
// holds 8 floats there, so 8 x 8 partial sums stay in registers).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define RAPT_FOLD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define RAPT_FOLD_CLONES
#endif

// Sums bins [8 block0, 8 (block0 + kBlocks)) of the shifted parts into out[8 block0 ...], the
// partial sums held in registers.
template <int kBlocks>
inline void add_shifted_window(const CentredParts& c, const int* shifts, size_t nparts,
                               int block0, float* out) {
  Float8 acc[kBlocks] = {};
  for (size_t p = 0; p < nparts; ++p) {
    const float* src = &c.values[p * c.stride + (c.nbins - shifts[p]) + 8 * block0];
    for (int k = 0; k < kBlocks; ++k) {
      Float8 v;
      __builtin_memcpy(&v, src + 8 * k, sizeof v);  // unaligned load
      acc[k] += v;
    }
  }
  // Unaligned stores: the AVX2 clone takes Float8 to be 32-byte aligned, but memory allocated
  // by the default-target code is only 16-byte aligned for it.
  for (int k = 0; k < kBlocks; ++k)
    __builtin_memcpy(out + 8 * (block0 + k), &acc[k], sizeof acc[k]);
}

// Reduced chi^2 of the parts summed with right shifts `shifts` (uncorrected, as the search
// compares trials). `sum` is scratch of c.padded floats.
RAPT_FOLD_CLONES
double shifted_redchi(const CentredParts& c, const int* shifts, size_t nparts, float* sum) {
  const int blocks = c.padded / 8;
  int block = 0;
  for (; block + 8 <= blocks; block += 8) add_shifted_window<8>(c, shifts, nparts, block, sum);
  switch (blocks - block) {
    case 7: add_shifted_window<7>(c, shifts, nparts, block, sum); break;
    case 6: add_shifted_window<6>(c, shifts, nparts, block, sum); break;
    case 5: add_shifted_window<5>(c, shifts, nparts, block, sum); break;
    case 4: add_shifted_window<4>(c, shifts, nparts, block, sum); break;
    case 3: add_shifted_window<3>(c, shifts, nparts, block, sum); break;
    case 2: add_shifted_window<2>(c, shifts, nparts, block, sum); break;
    case 1: add_shifted_window<1>(c, shifts, nparts, block, sum); break;
    default: break;
  }
  double chi2 = 0.0;
  for (int b = 0; b < c.nbins; ++b) chi2 += double(sum[b]) * sum[b];
  return chi2 / c.variance / (c.nbins - 1.0);
}

struct Grid {
  std::vector<double> df_hz, dfdot;  // per trial index, relative to the folded f and f'
};

struct Best {
  double redchi = -1.0;
  int dm = 0, p = 0, pd = 0;
};

}  // namespace

std::vector<double> part_start_times(const Pfd& pfd) {
  std::vector<double> times(size_t(pfd.npart), 0.0);
  double samples = 0.0;
  for (int p = 0; p < pfd.npart; ++p) {
    times[p] = samples * pfd.dt_s;
    samples += pfd.stat(p, 0).numdata;
  }
  return times;
}

void dedisperse_parts(const Pfd& pfd, double dm, std::vector<double>& profiles,
                      std::vector<FoldStats>& stats) {
  const int nbins = pfd.proflen, nsub = pfd.nsub;
  std::vector<int> delays(size_t(nsub), 0);
  if (nsub > 1) {
    const double sub_width = pfd.chan_wid_mhz * (pfd.numchan / nsub);
    const double lowest_sub_top = pfd.lofreq_mhz + sub_width - pfd.chan_wid_mhz;
    const double top = pfd.lofreq_mhz + (pfd.numchan - 1.0) * pfd.chan_wid_mhz;
    const double bins_per_s = pfd.fold.p1 * nbins;
    for (int s = 0; s < nsub; ++s) {
      const double delay = dispersion_delay_s(dm, lowest_sub_top + s * sub_width) -
                           dispersion_delay_s(dm, top);
      delays[s] = ((nearest_int(delay * bins_per_s) % nbins) + nbins) % nbins;
    }
  }
  profiles.assign(size_t(pfd.npart) * nbins, 0.0);
  stats.assign(size_t(pfd.npart), FoldStats{});
  for (int p = 0; p < pfd.npart; ++p) {
    double* out = &profiles[size_t(p) * nbins];
    FoldStats& st = stats[p];
    st.numdata = pfd.stat(p, 0).numdata;
    st.numprof = nbins;
    for (int s = 0; s < nsub; ++s) {
      for (int b = 0; b < nbins; ++b) out[b] += pfd.rawfold(p, s, (b + delays[s]) % nbins);
      const FoldStats& in = pfd.stat(p, s);
      st.data_avg += in.data_avg;
      st.data_var += in.data_var;
      st.prof_avg += in.prof_avg;
      st.prof_var += in.prof_var;
    }
  }
}

namespace {

// PRESTO's DM grid around the folded DM; returns the index of the folded DM (or the nearest
// grid DM when the grid had to start at 0).
int make_dm_grid(Pfd& pfd, const FoldSearchOptions& options) {
  const int ndms = 2 * options.ndmfact * pfd.proflen + 1;
  const double bin_s = 1.0 / pfd.fold.p1 / pfd.proflen;
  const double ddm = bin_s * options.dmstep / dispersion_delay_s(1.0, pfd.lofreq_mhz);
  const double dm = pfd.bestdm;
  double lodm = dm - double((ndms - 1) / 2) * ddm;
  int centre = (ndms - 1) / 2;
  if (lodm < 0.0) {
    lodm = 0.0;
    double closest = 1000.0;
    for (int i = 0; i < ndms; ++i)
      if (std::fabs(i * ddm - dm) < closest) {
        closest = std::fabs(i * ddm - dm);
        centre = i;
      }
  }
  pfd.dms.resize(size_t(ndms));
  for (int i = 0; i < ndms; ++i) pfd.dms[i] = lodm + i * ddm;
  return centre;
}

std::vector<int> indices(bool search, int count, int only) {
  if (!search) return {only};
  std::vector<int> all(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) all[i] = i;
  return all;
}

double period_second_derivative(double f, double fd, double fdd) {
  return fdd == 0.0 ? 0.0 : 2.0 * fd * fd / (f * f * f) - fdd / (f * f);
}

#ifdef RAPT_WITH_CUDA
// The same search on a GPU: the host forms each DM's centred parts, the device tries every
// (P', P) of every DM.
Best search_grid_gpu(const Pfd& pfd, const Grid& grid, const std::vector<int>& dms,
                     const std::vector<int>& pds, const std::vector<int>& ps, int threads,
                     int gpu) {
  const int nbins = pfd.proflen;
  FoldGridInput input;
  input.nbins = nbins;
  input.npart = pfd.npart;
  input.times_s = part_start_times(pfd);
  input.df_hz = grid.df_hz;
  input.dfdot = grid.dfdot;
  input.dms = dms;
  input.pds = pds;
  input.ps = ps;
  input.shift_offset = shift_offset(nbins);
  const size_t stride = size_t(2 * nbins + 8) * size_t(pfd.npart);
  input.centred.resize(dms.size() * stride);
  input.variance.resize(dms.size());
  parallel_for(threads, dms.size(), [&](size_t d, int) {
    std::vector<double> profiles;
    std::vector<FoldStats> stats;
    dedisperse_parts(pfd, pfd.dms.empty() ? 0.0 : pfd.dms[size_t(dms[d])], profiles, stats);
    const CentredParts centred = centre_parts(profiles, stats, nbins);
    std::copy(centred.values.begin(), centred.values.end(), input.centred.begin() + d * stride);
    input.variance[d] = centred.variance;
  });
  const FoldGridBest found = search_fold_grid_gpu(input, gpu);
  return {found.redchi, found.dm, found.p, found.pd};
}
#endif

// Searches the P x P' plane of every DM in `dms`, in PRESTO's loop order (DM, P', P); the
// first largest reduced chi^2 wins.
Best search_grid(const Pfd& pfd, const Grid& grid, const std::vector<int>& dms,
                 const std::vector<int>& pds, const std::vector<int>& ps, int threads) {
  const int nbins = pfd.proflen;
  const std::vector<double> times = part_start_times(pfd);
  const size_t nparts = times.size();
  Best best;
  std::vector<double> profiles;
  std::vector<FoldStats> stats;
  for (int idm : dms) {
    dedisperse_parts(pfd, pfd.dms.empty() ? 0.0 : pfd.dms[idm], profiles, stats);
    const CentredParts centred = centre_parts(profiles, stats, nbins);
    std::vector<Best> per_pd(pds.size());
    parallel_for(threads, pds.size(), [&](size_t item, int) {
      const int ipd = pds[item];
      std::vector<double> pd_bins(nparts);
      for (size_t p = 0; p < nparts; ++p)
        pd_bins[p] = 0.5 * grid.dfdot[ipd] * times[p] * times[p] * nbins;
      std::vector<int> shifts(nparts);
      const FastShift shift_of(nbins);
      std::vector<float> sum(size_t(centred.padded));
      Best& mine = per_pd[item];
      for (int ip : ps) {
        for (size_t p = 0; p < nparts; ++p)
          shifts[p] = shift_of(pd_bins[p] + grid.df_hz[ip] * times[p] * nbins);
        const double redchi = shifted_redchi(centred, shifts.data(), nparts, sum.data());
        if (redchi > mine.redchi) mine = {redchi, idm, ip, ipd};
      }
    });
    for (const Best& candidate : per_pd)
      if (candidate.redchi > best.redchi) best = candidate;
  }
  return best;
}

}  // namespace

namespace {

// PRESTO's period and P-dot grids around the folded f, f' (stored in pfd.periods, pfd.pdots),
// and the search settings recorded in the .pfd.
Grid make_spin_grids(Pfd& pfd, const FoldSearchOptions& options, double t_obs) {
  const int nbins = pfd.proflen;
  const double f = pfd.fold.p1, fd = pfd.fold.p2;
  const bool nosearch = !options.search_p && !options.search_pd &&
                        (!options.search_dm || pfd.nsub == 1);
  int ntrials = 2 * options.npfact * nbins + 1;
  if (nosearch && nbins > 100) ntrials = 201;  // no need to show a huge plane
  const int mid = (ntrials - 1) / 2;
  Grid grid;
  grid.df_hz.resize(size_t(ntrials));
  grid.dfdot.resize(size_t(ntrials));
  pfd.periods.resize(size_t(ntrials));
  pfd.pdots.resize(size_t(ntrials));
  for (int i = 0; i < ntrials; ++i) {
    const int drift = i - mid;
    grid.df_hz[i] = double(drift * options.pstep) / nbins / t_obs;
    grid.dfdot[i] = 2.0 * (double(drift * options.pdstep) / nbins) / (t_obs * t_obs);
    pfd.periods[i] = 1.0 / (f + grid.df_hz[i]);
    const double pdot = -(fd + grid.dfdot[i]) / (f * f);
    pfd.pdots[i] = pdot == 0.0 ? 0.0 : pdot;
  }
  pfd.npfact = options.npfact;
  pfd.ndmfact = options.ndmfact;
  pfd.pstep = options.pstep;
  pfd.pdstep = options.pdstep;
  pfd.dmstep = options.dmstep;
  return grid;
}

// The best trial's profile, rebuilt in double precision, with the statistics prepfold reports;
// the best P, P', P'' go into the .pfd. prepfold writes the .bestprof from its plot's sum of the
// parts (prepfold_plot.c), which rounds a half-bin delay its own way, so the profile and
// reduced chi^2 come from that same sum (pfd_best_profile), and the plot and the file agree.
void finish_result(Pfd& pfd, double n_samples, FoldSearchResult& result) {
  const int nbins = pfd.proflen;
  const double best_p = pfd.periods[result.p_index], best_pd = pfd.pdots[result.pd_index];
  const double best_pdd = period_second_derivative(pfd.fold.p1, pfd.fold.p2, pfd.fold.p3);
  PfdPosition& position = pfd.fold.pow == 1.0f ? pfd.bary : pfd.topo;
  position.p1 = best_p;
  position.p2 = best_pd;
  position.p3 = best_pdd;
  result.stats = pfd_best_profile(pfd, result.profile);  // redchi corrected
  const double correction = dof_correction(best_p / nbins / pfd.dt_s);
  result.dof_effective = (nbins - 1.0) * correction;
  // The effective (fractional) degrees of freedom, as the PRESTO that made the golden files.
  result.log_prob_noise =
      chi2_log_probability(result.stats.redchi * result.dof_effective, result.dof_effective);
  result.sigma = gaussian_sigma_from_log_p(result.log_prob_noise);
  result.errors = fold_errors(result.profile, pfd.dt_s, n_samples, result.stats.data_var, best_p,
                              best_pd, best_pdd);
}

}  // namespace

FoldSearchResult search_fold(Pfd& pfd, const FoldSearchOptions& options) {
  options.validate();
  double n_samples = 0.0;
  for (int p = 0; p < pfd.npart; ++p) n_samples += pfd.stat(p, 0).numdata;
  const Grid grid = make_spin_grids(pfd, options, n_samples * pfd.dt_s);
  const int ntrials = int(pfd.periods.size()), mid = (ntrials - 1) / 2;
  int dm_centre = 0;
  pfd.dms.clear();
  if (pfd.nsub > 1) dm_centre = make_dm_grid(pfd, options);

  const int ndms = pfd.nsub > 1 ? int(pfd.dms.size()) : 1;
  const std::vector<int> dms = indices(options.search_dm && pfd.nsub > 1, ndms, dm_centre);
  const std::vector<int> pds = indices(options.search_pd, ntrials, mid);
  const std::vector<int> ps = indices(options.search_p, ntrials, mid);
#ifdef RAPT_WITH_CUDA
  const bool on_gpu = options.gpu >= 0 && fold_grid_gpu_supported(pfd.proflen, pfd.npart);
  const Best best = on_gpu ? search_grid_gpu(pfd, grid, dms, pds, ps, options.threads, options.gpu)
                           : search_grid(pfd, grid, dms, pds, ps, options.threads);
#else
  const Best best = search_grid(pfd, grid, dms, pds, ps, options.threads);
#endif

  FoldSearchResult result;
  result.dm_index = best.dm;
  result.p_index = best.p;
  result.pd_index = best.pd;
  result.trials = (long long)dms.size() * (long long)pds.size() * (long long)ps.size();
  if (pfd.nsub > 1) pfd.bestdm = pfd.dms[best.dm];
  finish_result(pfd, n_samples, result);
  return result;
}

}  // namespace rapt
