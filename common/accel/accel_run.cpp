#include "accel/accel_run.hpp"

#include <fftw3.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include "accel/accel_sigma.hpp"
#include "accel/birdie_zap.hpp"
#include "accel/fourier_response.hpp"
#include "accel/spectrum_input.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/work_part.hpp"
#include "dedisp/parallel_for.hpp"
#include "gpu_device.hpp"

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
    std::vector<BirdieBins> birdies =
        birdie_bins(read_zaplist(run.zaplist), input.spectrum.T_s, run.baryv);
    // The list's bins count from 0 Hz; a spectrum cut at -lobin holds bin lobin first.
    for (BirdieBins& b : birdies) {
      b.lobin -= double(run.search.lobin);
      b.hibin -= double(run.search.lobin);
    }
    zap_birdies(input.spectrum.packed, birdies);
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

// Searches and writes `files` in order on one device (a single-device spelling: auto, cpu,
// gpu, gpu:N). Writes no further input once `stop` is set (another part failed).
void run_files_on_device(const std::vector<std::string>& files, const std::string& device,
                         int threads, const AccelRunOptions& run, const ParsedOptions& args,
                         const AccelInputHook& hook, const std::atomic<bool>& stop,
                         const std::string& share) {
  std::unique_ptr<AccelEngine> engine = make_accel_engine(device, threads);
  args.messages.detail("engine " + engine->name() + share);
  std::unique_ptr<RzMaximiser> maximiser = make_rz_maximiser(device, threads);
  // The next inputs are loaded and searched while the current one's candidates are optimised
  // and written: as many searches at once as the engine can overlap (one on the CPU). Should
  // anything throw, the searches still in flight finish (their futures wait) before the
  // engine they use is destroyed.
  const size_t in_flight = size_t(std::max(1, engine->concurrent_searches()));
  std::deque<std::future<SearchedInput>> searches;
  size_t next_file = 0;
  auto start_next_search = [&] {
    searches.push_back(std::async(std::launch::async, load_and_search, files[next_file++],
                                  std::cref(run), std::ref(*engine)));
  };
  while (next_file < files.size() && searches.size() < in_flight) start_next_search();
  for (size_t i = 0; i < files.size() && !stop; ++i) {
    SearchedInput input = searches.front().get();
    searches.pop_front();
    if (next_file < files.size() && !stop) start_next_search();
    optimise_accel_candidates(input.result, input.spectrum.packed, input.inf_text, threads,
                              *maximiser);
    if (stop) break;
    const bool log_txtcand = input.spectrum.source == SpectrumSource::FftFile;
    // The search's own files first: they refuse to replace an existing file before anything
    // is written, so a refused input leaves no hook output behind either.
    write_accel_outputs(input.spectrum.root, input.result, log_txtcand, args.force);
    if (hook) hook(input.spectrum.root, input.spectrum.packed, input.result.plan);
    // One fprintf per line: the parts' lines never mix within a line.
    for (const std::string& warning : input.spectrum.warnings) args.messages.warning(warning);
    args.messages.info(summary(input));
  }
}

// "inputs 3 to 4 of 8" (1-based, as a user counts them).
std::string share_text(const ItemRange& range, size_t total) {
  if (range.size() == 1)
    return "input " + std::to_string(range.begin + 1) + " of " + std::to_string(total);
  return "inputs " + std::to_string(range.begin + 1) + " to " + std::to_string(range.end) +
         " of " + std::to_string(total);
}

// The FFTs of .dat inputs and of --dump are planned on several threads at once (the searches in
// flight, and one thread per GPU): FFTW's single-precision planner is made safe for that once.
void make_fftw_planner_thread_safe() {
  static std::once_flag once;
  std::call_once(once, [] { fftwf_make_planner_thread_safe(); });
}

}  // namespace

std::vector<std::string> accel_part_files(const AccelRunOptions& run) {
  const ItemRange range = part_items(run.files.size(), run.part);
  return std::vector<std::string>(run.files.begin() + std::ptrdiff_t(range.begin),
                                  run.files.begin() + std::ptrdiff_t(range.end));
}

int run_accel_inputs(const AccelRunOptions& run, const ParsedOptions& args,
                     const AccelInputHook& hook) {
  const DeviceSet devices = choose_devices(run.device);  // a bad --device fails every part
  const std::vector<std::string> files = accel_part_files(run);
  const ItemRange range = part_items(run.files.size(), run.part);
  const size_t first_given = range.begin;  // files[0]'s place among the inputs given
  if (!run.part.whole()) {
    if (files.empty()) {
      args.messages.info(describe(run.part) + ": no inputs (" +
                         std::to_string(run.files.size()) + " input" +
                         (run.files.size() == 1 ? "" : "s") + " over " +
                         std::to_string(run.part.count) + " parts); nothing to do");
      return 0;
    }
    args.messages.detail(describe(run.part) + ": " + share_text(range, run.files.size()));
  }
  const int threads =
      run.threads > 0 ? run.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  make_fftw_planner_thread_safe();
  std::atomic<bool> stop{false};
  const size_t parts = devices.parts();
  if (parts == 1) {  // one device (gpu:all on a machine of one GPU too)
    const std::string device = devices.use_gpu ? gpu_name(devices.gpus[0]) : run.device;
    run_files_on_device(files, device, threads, run, args, hook, stop, "");
    return int(files.size());
  }
  // One thread per listed device, each with a contiguous run of the files; the host threads
  // (candidate optimisation) are shared out among them.
  const int part_threads = std::max(1, threads / int(parts));
  parallel_for(int(parts), parts, [&](size_t p, int) {
    const ItemRange range = part_items(files.size(), WorkPart{int(p) + 1, int(parts)});
    if (range.size() == 0) return;
    const std::vector<std::string> share(files.begin() + std::ptrdiff_t(range.begin),
                                         files.begin() + std::ptrdiff_t(range.end));
    const ItemRange given{first_given + range.begin, first_given + range.end};
    try {
      run_files_on_device(share, gpu_name(devices.gpus[p]), part_threads, run, args, hook,
                          stop, " (" + share_text(given, run.files.size()) + ")");
    } catch (...) {
      stop = true;  // the other parts write nothing more
      throw;
    }
  });
  return int(files.size());
}

}  // namespace rapt
