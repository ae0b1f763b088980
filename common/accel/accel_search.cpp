#include "accel/accel_search.hpp"

#include <chrono>
#include <cstdio>
#include <memory>

#include "accel/accel_sigma.hpp"
#include "accel/candidate_optimise.hpp"
#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"

namespace rapt {
namespace {

GridCandidate grid_candidate(const RawCandidate& raw) {
  GridCandidate grid;
  grid.r = raw.r;
  grid.z = raw.z;
  grid.numharm = raw.numharm;
  grid.power = raw.power;
  grid.sigma = raw.sigma;
  return grid;
}

OptimiseOptions optimise_options(const std::vector<std::complex<float>>& spectrum,
                                 const AccelSearchOptions& options) {
  OptimiseOptions how;
  how.harmonic_polish = options.harmonic_polish;
  how.lobin = options.lobin;
  if (options.normalisation == SpectrumNormalisation::Photon && !spectrum.empty()) {
    how.photons = spectrum[0].real();  // the DC level counts the photons
  }
  how.single_trial_sigma = [](double power, int numharm) {
    return candidate_sigma(power, numharm, 1.0);
  };
  return how;
}

}  // namespace

AccelSearchResult find_accel_candidates(const std::vector<std::complex<float>>& spectrum,
                                        const AccelSearchOptions& options, double obs_length_s,
                                        bool log_txtcand, AccelEngine& engine) {
  AccelSearchResult result;
  result.plan = make_accel_plan(options, int64_t(spectrum.size()) + options.lobin, obs_length_s);
  const std::vector<PlaneHit> hits = engine.search(spectrum, result.plan, result.engine_timings);
  result.raw = collect_candidates(hits, result.plan, log_txtcand ? &result.txtcand : nullptr);
  if (options.numharm > 1 && options.remove_harmonics) eliminate_harmonics(result.raw);
  return result;
}

void optimise_accel_candidates(AccelSearchResult& result,
                               const std::vector<std::complex<float>>& spectrum,
                               const std::string& inf_text, int threads,
                               RzMaximiser& maximiser) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<GridCandidate> grids;
  for (const RawCandidate& raw : result.raw) grids.push_back(grid_candidate(raw));
  result.accel.candidates =
      optimise_candidates(spectrum.data(), int64_t(spectrum.size()), grids,
                          optimise_options(spectrum, result.plan.options), maximiser, threads);
  result.optimise_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.records.clear();
  for (const AccelCandidate& candidate : result.accel.candidates) {
    result.records.push_back(cand_record(candidate));
  }
  const std::vector<std::string> notes = candidate_notes(result.records);
  for (size_t i = 0; i < notes.size(); ++i) result.accel.candidates[i].notes = notes[i];
  result.accel.obs_length_s = result.plan.obs_length_s;
  result.accel.photon =
      result.plan.options.normalisation == SpectrumNormalisation::Photon;
  result.accel.inf_text = inf_text;
}

AccelSearchResult run_accel_search(const std::vector<std::complex<float>>& spectrum,
                                   const AccelSearchOptions& options, double obs_length_s,
                                   const std::string& inf_text, bool log_txtcand,
                                   AccelEngine& engine, int threads) {
  AccelSearchResult result =
      find_accel_candidates(spectrum, options, obs_length_s, log_txtcand, engine);
  const std::unique_ptr<RzMaximiser> maximiser = make_cpu_rz_maximiser(threads);
  optimise_accel_candidates(result, spectrum, inf_text, threads, *maximiser);
  return result;
}

std::string accel_output_name(const std::string& root, int zmax) {
  return root + "_ACCEL_" + std::to_string(zmax);
}

void write_accel_outputs(const std::string& root, const AccelSearchResult& result,
                         bool log_txtcand, bool overwrite) {
  const std::string name = accel_output_name(root, result.plan.options.zmax);
  // Refuse before writing anything, so a clash never leaves a half-written set.
  if (!overwrite) {
    for (const std::string& path : {name, name + ".cand", name + ".txtcand"}) {
      if (path_exists(path)) {
        throw file_error(path, "already exists (use --force to overwrite)");
      }
    }
  }
  if (!result.accel.candidates.empty()) {
    write_accel_text(name, result.accel, overwrite);
    write_cand_file(name + ".cand", result.records, overwrite);
  } else if (overwrite) {
    // --force replaces an earlier run's files; finding nothing replaces its candidates with
    // none, or they would stay beside this run's .txtcand as if this run had found them.
    for (const std::string& path : {name, name + ".cand"}) std::remove(path.c_str());
  }
  if (log_txtcand) write_file_atomically(name + ".txtcand", result.txtcand, overwrite);
}

}  // namespace rapt
