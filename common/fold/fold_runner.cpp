#include "fold/fold_runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "fold/fold_candidate.hpp"
#include "fold/fold_engine.hpp"
#include "fold/fold_gpu_factory.hpp"
#include "fold/fold_input.hpp"
#include "gpu_device.hpp"

namespace rapt {
namespace {

struct FoldJob {
  FoldCandidate candidate;
  FoldLayout layout;
  FoldOutputNames names;
  std::unique_ptr<FoldEngine> engine;
};

std::vector<FoldCandidate> candidates_from(const FoldOptions& o, const FoldObservation& obs) {
  if (!o.accelcand.empty())
    return accel_candidates(o.accelfile, parse_candidate_numbers(o.accelcand));
  if (o.p_s) return {period_candidate(*o.p_s, o.pdot, o.pddot)};
  if (o.f_hz) return {frequency_candidate(*o.f_hz, o.fdot, o.fddot)};
  return {par_candidate(o.par, obs.epoch_mjd)};
}

// prepfold's profile length: the period in samples, rounded, at most 64. Periods shorter than
// two samples cannot be folded.
int profile_bins(const FoldOptions& o, const FoldObservation& obs, const FoldCandidate& c) {
  const double period_samples = 1.0 / c.spin.f_hz / obs.dt_s;
  if (period_samples < 2.0) {
    char text[200];
    std::snprintf(text, sizeof text, "%s: period %.6g s is shorter than 2 samples (%.6g s)",
                  c.name.c_str(), 1.0 / c.spin.f_hz, 2.0 * obs.dt_s);
    throw file_error(obs.path, text);
  }
  if (o.nbins > 0) return o.nbins;
  return std::min(64, int(period_samples + 0.5));
}

// Folding needs the data to hold at least kMinPeriodsFolded periods of the candidate; fewer
// give no profile worth searching, and prepfold's grids would reach periods <= 0.
constexpr double kMinPeriodsFolded = 2.0;

double periods_in_data(const FoldObservation& obs, const FoldCandidate& c) {
  return double(obs.nsamples) * obs.dt_s * c.spin.f_hz;
}

void require_enough_periods(const FoldObservation& obs, const FoldCandidate& c) {
  const double periods = periods_in_data(obs, c);
  if (periods >= kMinPeriodsFolded) return;
  char text[300];
  std::snprintf(text, sizeof text,
                "%s: the data span %.6g s, %.3g periods of %.6g s; folding needs at least %g "
                "periods",
                c.name.c_str(), double(obs.nsamples) * obs.dt_s, periods, 1.0 / c.spin.f_hz,
                kMinPeriodsFolded);
  throw file_error(obs.path, text);
}

// The P search reaches frequency offsets of npfact * pstep / T (PRESTO's grid). Past half the
// folded frequency the trial periods are meaningless (and past the whole of it, negative), so
// such a fold keeps its P and P' and searches DM only, saying so.
FoldSearchOptions search_for(const FoldSearchOptions& asked, const FoldObservation& obs,
                             const FoldCandidate& c, int npart, const Messages& messages) {
  FoldSearchOptions search = asked;
  // P and P' are found from how the parts drift against each other: one part does not drift,
  // and every trial would fold it alike (the first, at the grid's edge, would be taken).
  if ((asked.search_p || asked.search_pd) && npart < 2) {
    messages.warning(obs.path + ": " + c.name + ": one part (-npart 1) holds no drift to search; "
                     "P and P' are kept as given");
    search.search_p = search.search_pd = false;
    return search;
  }
  const double periods = periods_in_data(obs, c);
  const double needed = 2.0 * double(asked.npfact) * double(asked.pstep);
  if ((asked.search_p || asked.search_pd) && periods < needed) {
    char text[300];
    std::snprintf(text, sizeof text,
                  "%s: %s: the data hold %.3g periods; searching P and P' with --npfact %d needs "
                  "at least %.0f; P and P' are kept as given",
                  obs.path.c_str(), c.name.c_str(), periods, asked.npfact, needed);
    messages.warning(text);
    search.search_p = search.search_pd = false;
  }
  return search;
}

// Constant data (all zeros, a dead channel range) fold to profiles of zero variance, whose
// chi^2 is 0/0.
void require_varying_data(const Pfd& pfd, const std::string& path) {
  double variance = 0.0;
  for (int p = 0; p < pfd.npart; ++p)
    for (int s = 0; s < pfd.nsub; ++s) variance += pfd.stat(p, s).data_var;
  if (!(variance > 0.0))
    throw file_error(path, "every sample has the same value (zero variance); nothing to fold");
}

// Nothing that is not a finite positive period and finite statistics is reported or written.
void check_result(const FoldProduct& product, const std::string& path) {
  const PfdPosition& best = product.pfd.fold.pow == 1.0f ? product.pfd.bary : product.pfd.topo;
  const FoldSearchResult& r = product.result;
  const char* bad = nullptr;
  if (!(best.p1 > 0.0) || !std::isfinite(best.p1)) bad = "the best period";
  else if (!std::isfinite(best.p2)) bad = "the best period derivative";
  else if (!std::isfinite(product.pfd.bestdm)) bad = "the best DM";
  else if (!std::isfinite(r.stats.redchi)) bad = "the reduced chi^2";
  else if (!std::isfinite(r.errors.p_s) || !std::isfinite(r.errors.pdot)) bad = "the error bars";
  if (!bad) return;
  throw file_error(path, product.names.pfd + ": " + bad +
                             " is not a finite number (constant or too little data?); nothing "
                             "written");
}

std::vector<FoldJob> plan_jobs(const FoldOptions& o, const FoldObservation& obs,
                               const std::vector<FoldCandidate>& candidates, int nsub, bool force) {
  const std::string root = o.outroot.empty() ? obs.root : o.outroot;
  std::vector<FoldJob> jobs;
  for (const FoldCandidate& c : candidates) {
    require_enough_periods(obs, c);
    FoldJob job;
    job.candidate = c;
    // A part needs two samples for a variance (one alone gives prof_var 0 and a chi^2 of
    // 0/0); short data get fewer parts.
    job.layout.npart = int(std::min<int64_t>(o.npart, std::max<int64_t>(1, obs.nsamples / 2)));
    job.layout.nsub = nsub;
    job.layout.nbins = profile_bins(o, obs, c);
    job.layout.total_samples = obs.nsamples;
    job.layout.dt_s = obs.dt_s;
    job.layout.spin = c.spin;
    job.names = fold_output_names(root, c.name);
    // Every output refused before any folding, the plot too: a clash found afterwards would
    // leave the .pfd and .bestprof written and the run failed.
    std::vector<std::string> outputs = {job.names.pfd, job.names.bestprof};
    if (o.plot) outputs.push_back(job.names.pfd + ".png");
    for (const std::string& path : outputs)
      if (!force && path_exists(path))
        throw file_error(path, "already exists (use --force to overwrite)");
    jobs.push_back(std::move(job));
  }
  for (FoldJob& job : jobs) job.engine = make_fold_engine(job.layout, o.device);
  return jobs;
}

// One pass over the data feeds every candidate's engine.
void fold_all(FoldInput& input, std::vector<FoldJob>& jobs, const Messages& messages) {
  const FoldObservation& obs = input.observation();
  const size_t block = std::max<size_t>(1024, (size_t(1) << 22) / size_t(input.nsub()));
  std::vector<float> data(block * size_t(input.nsub()));
  int64_t folded = 0;
  while (folded < obs.nsamples) {
    const size_t n = input.read(data.data(), block, block);
    if (n == 0) break;
    for (FoldJob& job : jobs) job.engine->fold(data.data(), block, folded, n);
    folded += int64_t(n);
    if (messages.progress)
      std::fprintf(stderr, "\r%s: %lld of %lld samples folded", messages.program.c_str(),
                   (long long)folded, (long long)obs.nsamples);
  }
  if (messages.progress) std::fputc('\n', stderr);
  if (folded != obs.nsamples)
    throw file_error(obs.path, "ended after " + std::to_string(folded) + " of " +
                                   std::to_string(obs.nsamples) + " samples");
}

}  // namespace

std::vector<FoldProduct> run_fold(const FoldOptions& o, bool force, const Messages& messages) {
  std::unique_ptr<FoldInput> input = open_fold_input(o.input);
  const FoldObservation& obs = input->observation();
  const std::vector<FoldCandidate> candidates = candidates_from(o, obs);
  int nsub = 1;
  double dm = obs.dm;
  if (obs.raw) {
    nsub = o.nsub > 0 ? o.nsub : default_subbands(obs.numchan);
    if (nsub == 0)
      throw UsageError("cannot choose --nsub for " + std::to_string(obs.numchan) +
                       " channels; give --nsub");
    dm = o.dm ? *o.dm : std::max(0.0, candidates.front().par_dm);
    input->set_subbands(nsub, dm);
  } else {
    if (o.nsub > 1) input->set_subbands(o.nsub, dm);  // refuses with the reason
    if (o.dm)
      messages.warning("--dm applies to raw data; " + obs.path + " is folded as it is (DM " +
                       std::to_string(obs.dm) + " in its .inf)");
  }
  if (candidates.front().par_orbit)
    messages.warning(o.par + ": the binary orbit is not applied; the fold uses the spin alone");
  std::vector<FoldJob> jobs = plan_jobs(o, obs, candidates, nsub, force);
  fold_all(*input, jobs, messages);
  for (const std::string& warning : input->warnings()) messages.warning(warning);

  FoldSearchOptions search = o.search;
  search.threads = o.threads > 0 ? o.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  // The search runs where the folding did.
  if (kGpuFoldEngineBuilt) {
    const DeviceChoice device = choose_device(o.device);
    if (device.use_gpu) search.gpu = device.gpu_index;
  }
  std::vector<FoldProduct> products;
  for (FoldJob& job : jobs) {
    FoldProduct product;
    product.names = job.names;
    product.pfd = make_pfd(obs, job.candidate, job.layout, job.engine->cube(), dm, job.names.pfd);
    job.engine.reset();
    require_varying_data(product.pfd, obs.path);
    product.result = search_fold(
        product.pfd, search_for(search, obs, job.candidate, job.layout.npart, messages));
    check_result(product, obs.path);
    product.bestprof = make_bestprof(product.pfd, product.result);
    products.push_back(std::move(product));
  }
  return products;
}

void write_fold_product(const FoldProduct& product, bool force) {
  write_pfd(product.names.pfd, product.pfd, force);
  write_bestprof(product.names.bestprof, product.bestprof, force);
}

}  // namespace rapt
