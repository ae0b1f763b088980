#include "fold/brute_force_run.hpp"

#include <algorithm>
#include <cstdio>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/work_part.hpp"
#include "dedisp/parallel_for.hpp"
#include "gpu_device.hpp"
#include "snr/series_input.hpp"

namespace rapt {
namespace {

// "dir/obs_DM12.00" -> "dir/obs".
std::string observation_root(const std::string& root) {
  const size_t dm = root.rfind("_DM");
  const size_t slash = root.find_last_of('/');
  if (dm == std::string::npos || (slash != std::string::npos && dm < slash)) return root;
  return root.substr(0, dm);
}

std::string format_map(const std::vector<SeriesInput>& series, const BruteForceFoldGrid& grid,
                       const BruteForceFoldResult& result) {
  std::string text = "# brute-force fold: S/N of every (DM, period), " +
                     std::to_string(grid.nbins) + " bins, " +
                     std::to_string(series.front().usable_samples) + " samples of " +
                     format_string("%.9g", series.front().dt_s) + " s\n# periods (s):";
  for (double p : grid.periods_s) text += format_string(" %.12g", p);
  text += "\n# DM  S/N at each period\n";
  for (int d = 0; d < result.ndm; ++d) {
    text += format_string("%.3f", series[size_t(d)].dm);
    for (int p = 0; p < result.nperiods; ++p) text += format_string(" %.3f", result.at(d, p));
    text += "\n";
  }
  return text;
}

}  // namespace

std::vector<double> brute_force_periods(double pmin_s, double pmax_s, int nperiods) {
  if (!(pmin_s > 0.0)) throw UsageError("--pmin must be positive");
  if (!(pmax_s >= pmin_s)) throw UsageError("--pmax must be at least --pmin");
  if (nperiods < 1) throw UsageError("--nperiods must be at least 1");
  std::vector<double> periods;
  for (int k = 0; k < nperiods; ++k) {
    periods.push_back(nperiods == 1 ? pmin_s
                                    : pmin_s + k * (pmax_s - pmin_s) / (nperiods - 1));
  }
  return periods;
}

std::string brute_force_map_path(const BruteForceRunOptions& options) {
  const std::string root = options.outroot.empty()
      ? observation_root(describe_series(options.files.front()).root)
      : options.outroot;
  return root + "_bruteforce.txt";
}

// A period longer than half the data folds less than two turns: its S/N means nothing.
void require_two_turns(const std::string& path, double span_s, double pmax_s) {
  if (2.0 * pmax_s <= span_s) return;
  char text[200];
  std::snprintf(text, sizeof text,
                "the data span %.6g s, under two turns of --pmax %.6g s; use --pmax %.6g or less",
                span_s, pmax_s, 0.5 * span_s);
  throw file_error(path, text);
}

BruteForceFoldResult fold_brute_force_on_devices(const std::string& device, int threads,
                                                 const float* series, int ndm, int64_t nsamples,
                                                 const BruteForceFoldGrid& grid) {
  const DeviceSet devices = choose_devices(device);
  const size_t parts = devices.parts();
  if (parts == 1 || ndm < 1) {  // one device (gpu:all on a machine of one GPU too)
    const std::string one = devices.use_gpu ? gpu_name(devices.gpus[0]) : device;
    return make_brute_force_engine(one, threads)->fold(series, ndm, nsamples, grid);
  }
  BruteForceFoldResult result;
  result.ndm = ndm;
  result.nperiods = int(grid.periods_s.size());
  result.snr.assign(size_t(ndm) * grid.periods_s.size(), 0.0f);
  parallel_for(int(parts), parts, [&](size_t p, int) {
    const ItemRange dms = part_items(size_t(ndm), WorkPart{int(p) + 1, int(parts)});
    if (dms.size() == 0) return;
    const std::unique_ptr<BruteForceFoldEngine> engine =
        make_brute_force_engine(gpu_name(devices.gpus[p]), threads);
    const BruteForceFoldResult rows = engine->fold(series + dms.begin * size_t(nsamples),
                                                   int(dms.size()), nsamples, grid);
    std::copy(rows.snr.begin(), rows.snr.end(),
              result.snr.begin() + std::ptrdiff_t(dms.begin * grid.periods_s.size()));
  });
  return result;
}

std::vector<BruteForcePeak> run_brute_force(const BruteForceRunOptions& options, bool overwrite,
                                            size_t top, std::vector<std::string>& warnings) {
  if (options.files.empty()) throw UsageError("--brute-force needs the DM trials' series");
  choose_devices(options.device);  // a bad --device fails before the series are read
  BruteForceFoldGrid grid;
  grid.periods_s = brute_force_periods(options.pmin_s, options.pmax_s, options.nperiods);
  grid.nbins = options.nbins;
  std::vector<SeriesInput> series;
  for (const std::string& path : options.files) series.push_back(describe_series(path));
  check_series_agree(series);
  grid.tsamp_s = series.front().dt_s;
  check_brute_force_grid(grid);
  const std::string map_path = brute_force_map_path(options);
  if (!overwrite && path_exists(map_path)) {
    throw file_error(map_path, "already exists (use --force to overwrite)");
  }
  // Every series is cut to the shortest usable length, so all DMs fold the same samples.
  int64_t nsamples = series.front().usable_samples;
  for (const SeriesInput& s : series) nsamples = std::min(nsamples, s.usable_samples);
  require_two_turns(series.front().path, double(nsamples) * grid.tsamp_s, options.pmax_s);
  std::vector<float> block(series.size() * size_t(nsamples));
  for (size_t d = 0; d < series.size(); ++d) {
    for (std::string& warning : load_series_samples(series[d])) warnings.push_back(std::move(warning));
    std::copy_n(series[d].samples.begin(), nsamples, block.begin() + d * size_t(nsamples));
    series[d].samples = {};
  }
  const BruteForceFoldResult result = fold_brute_force_on_devices(
      options.device, options.threads, block.data(), int(series.size()), nsamples, grid);
  write_file_atomically(map_path, format_map(series, grid, result), overwrite);
  std::vector<BruteForcePeak> peaks;
  for (int d = 0; d < result.ndm; ++d) {
    for (int p = 0; p < result.nperiods; ++p) {
      peaks.push_back({series[size_t(d)].dm, grid.periods_s[size_t(p)], result.at(d, p)});
    }
  }
  const size_t keep = std::min(top, peaks.size());
  std::partial_sort(peaks.begin(), peaks.begin() + std::ptrdiff_t(keep), peaks.end(),
                    [](const BruteForcePeak& a, const BruteForcePeak& b) { return a.snr > b.snr; });
  peaks.resize(keep);
  return peaks;
}

}  // namespace rapt
