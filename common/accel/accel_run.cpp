#include "accel/accel_run.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <future>
#include <thread>

#include "accel/accel_sigma.hpp"
#include "accel/birdie_zap.hpp"
#include "accel/fourier_response.hpp"
#include "accel/spectrum_input.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

namespace rapt {
namespace {

struct SearchedInput {
  AccelSpectrum spectrum;
  std::string inf_text;
  AccelSearchResult result;
};

// The f-fdot response of the largest drift must fit in the spectrum; a shorter series gives a
// plane of padding, so it is refused rather than searched.
void require_bins_for_zmax(const AccelSpectrum& spectrum, int zmax) {
  const int z = accel_rounded_zmax(zmax);
  const int64_t needed = 2 * int64_t(z_response_halfwidth(double(z), ResponseAccuracy::Low));
  const int64_t bins = int64_t(spectrum.packed.size());
  if (bins >= needed) return;
  throw file_error(spectrum.path, "spectrum has " + std::to_string(bins) +
                                      " Fourier bins; -zmax " + std::to_string(z) +
                                      " needs at least " + std::to_string(needed) +
                                      (z > 0 ? " (a longer series, or a smaller -zmax)"
                                             : " (a longer series)"));
}

SearchedInput load_and_search(const std::string& path, const AccelRunOptions& run,
                              AccelEngine& engine) {
  SearchedInput input;
  SpectrumInputOptions load_options;
  load_options.photon = run.search.normalisation == SpectrumNormalisation::Photon;
  load_options.lobin = run.search.lobin;
  input.spectrum = load_accel_spectrum(path, load_options);
  require_bins_for_zmax(input.spectrum,
                        run.search.plane_mode == PlaneMode::Interbin ? 0 : run.search.zmax);
  input.inf_text = read_file_contents(input.spectrum.root + ".inf");
  if (!run.zaplist.empty()) {
    zap_birdies(input.spectrum.packed,
                birdie_bins(read_zaplist(run.zaplist), input.spectrum.T_s, run.baryv));
  }
  const bool log_txtcand = input.spectrum.source == SpectrumSource::FftFile;
  input.result = find_accel_candidates(input.spectrum.packed, run.search,
                                       input.spectrum.T_s, log_txtcand, engine);
  return input;
}

std::string summary(const SearchedInput& input) {
  const AccelSearchResult& r = input.result;
  char text[256];
  std::snprintf(text, sizeof text,
                "%s: %zu candidates (plane %.1f ms, harmonic sums %.1f ms, optimisation %.1f ms)",
                input.spectrum.path.c_str(), r.accel.candidates.size(),
                r.engine_timings.plane_s * 1e3, r.engine_timings.harmsum_s * 1e3,
                r.optimise_s * 1e3);
  return text;
}

}  // namespace

int run_accel_inputs(const AccelRunOptions& run, const ParsedOptions& args,
                     const AccelInputHook& hook) {
  const int threads =
      run.threads > 0 ? run.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  std::unique_ptr<AccelEngine> engine = make_accel_engine(run.device, threads);
  args.messages.detail("engine " + engine->name());
  std::unique_ptr<RzMaximiser> maximiser = make_rz_maximiser(run.device, threads);
  // The next inputs are loaded and searched while the current one's candidates are optimised
  // and written: as many searches at once as the engine can overlap (one on the CPU).
  const size_t in_flight = size_t(std::max(1, engine->concurrent_searches()));
  std::deque<std::future<SearchedInput>> searches;
  size_t next_file = 0;
  auto start_next_search = [&] {
    searches.push_back(std::async(std::launch::async, load_and_search, run.files[next_file++],
                                  std::cref(run), std::ref(*engine)));
  };
  while (next_file < run.files.size() && searches.size() < in_flight) start_next_search();
  for (size_t i = 0; i < run.files.size(); ++i) {
    SearchedInput input = searches.front().get();
    searches.pop_front();
    if (next_file < run.files.size()) start_next_search();
    optimise_accel_candidates(input.result, input.spectrum.packed, input.inf_text, threads,
                              *maximiser);
    if (hook) hook(input.spectrum.root, input.spectrum.packed, input.result.plan);
    const bool log_txtcand = input.spectrum.source == SpectrumSource::FftFile;
    write_accel_outputs(input.spectrum.root, input.result, log_txtcand, args.force);
    args.messages.info(summary(input));
  }
  return int(run.files.size());
}

}  // namespace rapt
