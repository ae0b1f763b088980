#include "sift/singlepulse_inputs.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/presto_inf.hpp"
#include "snr/candidate_clustering.hpp"
#include "snr/series_input.hpp"

namespace rapt {

bool dm_from_name(const std::string& path, double& dm) {
  const size_t slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  for (size_t at = name.rfind("_DM"); at != std::string::npos;
       at = at == 0 ? std::string::npos : name.rfind("_DM", at - 1)) {
    const char* start = name.c_str() + at + 3;
    if (!(std::isdigit(static_cast<unsigned char>(*start)) || *start == '-' || *start == '.'))
      continue;
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(start, &end);
    if (end != start && errno == 0 && std::isfinite(value)) {
      dm = value;
      return true;
    }
  }
  return false;
}

namespace {

// <root>.inf or <root>.tim beside the file: the DM its series was searched at, and its
// sampling time.
bool dm_from_series(const std::string& root, SinglePulseFile& file) {
  if (path_exists(root + ".inf")) {
    const InfFile inf = read_inf(root + ".inf");
    file.dm = inf.dm;
    file.dt_s = inf.dt_s;
    file.start_mjd = inf.epoch_mjd();
    file.duration_s = double(inf.n) * inf.dt_s;
    file.dm_source = root + ".inf";
    return true;
  }
  if (path_exists(root + ".tim")) {
    const SeriesInput series = describe_series(root + ".tim");
    file.dm = series.dm;
    file.dt_s = series.dt_s;
    file.start_mjd = series.start_mjd;
    file.duration_s = double(series.total_samples) * series.dt_s;
    file.dm_source = root + ".tim";
    return true;
  }
  return false;
}

}  // namespace

SinglePulseFile read_singlepulse_file(const std::string& path) {
  SinglePulseFile file;
  file.path = path;
  file.events = read_singlepulse(path);
  const std::string root = strip_suffix(path, ".singlepulse");
  if (!dm_from_series(root, file)) {
    if (dm_from_name(path, file.dm)) {
      file.dm_source = "name";
    } else if (!file.events.empty()) {
      file.dm = file.events.front().dm;
      file.dm_source = "events";
    } else {
      throw file_error(path, "no events, no " + root +
                                 ".inf and no _DM<dm> in the name: " + "cannot tell its DM");
    }
  }
  for (SinglePulseEvent& e : file.events) {
    // The column holds the DM to 2 decimals.
    if (std::fabs(e.dm - file.dm) > 0.005 + 1e-9 * std::max(1.0, std::fabs(file.dm)))
      throw file_error(path, format_string("holds an event at DM %.2f, but its DM is %.12g (from "
                                           "%s)",
                                           e.dm, file.dm, file.dm_source.c_str()));
    e.dm = file.dm;
  }
  if (file.dt_s > 0.0)
    file.dt_tolerance = 1e-6;
  else
    sampling_time_from_events(file.events, &file.dt_s, &file.dt_tolerance);
  return file;
}

bool sampling_time_from_events(const std::vector<SinglePulseEvent>& events, double* dt_s,
                               double* tolerance) {
  // The latest event gives the best estimate: its time is written to 1e-6 s.
  const SinglePulseEvent* latest = nullptr;
  for (const SinglePulseEvent& e : events)
    if (e.sample > 0 && (!latest || e.sample > latest->sample)) latest = &e;
  if (!latest || !(latest->time_s > 0.0)) return false;
  *dt_s = latest->time_s / double(latest->sample);
  *tolerance = 1e-6 + 5e-7 / latest->time_s;
  return true;
}

SinglePulseSet merge_singlepulse_files(const std::vector<SinglePulseFile>& files) {
  SinglePulseSet set;
  // The files whose sampling time is known or estimated (those of no events need none).
  std::vector<double> dts, tolerances, starts;
  std::vector<std::string> names;
  for (const SinglePulseFile& f : files)
    if (f.dt_s > 0.0) {
      dts.push_back(f.dt_s);
      tolerances.push_back(f.dt_tolerance);
      starts.push_back(f.start_mjd);
      names.push_back(f.path);
    }
  const std::vector<int> told = finest_sample_scales(dts, names, tolerances);
  if (!dts.empty())
    check_common_start(starts, names, *std::min_element(dts.begin(), dts.end()));
  // Each file's scale: 0 where nothing tells its sampling time (no events to place).
  std::vector<int> scale_of(files.size(), 0);
  for (size_t i = 0, k = 0; i < files.size(); ++i)
    if (files[i].dt_s > 0.0) scale_of[i] = told[k++];
  // A DM plan samples its lowest DMs finest: a file of untold sampling time below the lowest
  // DM of the finest told ones might be finer still.
  const bool several = std::any_of(told.begin(), told.end(), [](int k) { return k != 1; });
  double finest_lowest_dm = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < files.size(); ++i)
    if (scale_of[i] == 1) finest_lowest_dm = std::min(finest_lowest_dm, files[i].dm);
  for (size_t i = 0; i < files.size(); ++i) {
    const SinglePulseFile& f = files[i];
    if (scale_of[i] == 0 && several && f.dm < finest_lowest_dm) ++set.untold_files;
    const int scale = std::max(scale_of[i], 1);
    // The finest samples must stay within the range of sample numbers a file may hold.
    for (const SinglePulseEvent& e : f.events)
      if (std::fabs(double(e.sample) * scale) > 9.0e15)
        throw file_error(f.path, format_string("sample %lld, of samples %d times the finest, "
                                               "lies past the end of any series",
                                               static_cast<long long>(e.sample), scale));
    set.events.insert(set.events.end(), f.events.begin(), f.events.end());
    set.scales.insert(set.scales.end(), f.events.size(), scale);
    set.dms.push_back(f.dm);
    set.duration_s = std::max(set.duration_s, f.duration_s);
    for (const SinglePulseEvent& e : f.events) set.duration_s = std::max(set.duration_s, e.time_s);
  }
  return set;
}

SinglePulseSet events_at_least(const SinglePulseSet& set, double threshold) {
  SinglePulseSet kept;
  kept.dms = set.dms;
  kept.duration_s = set.duration_s;
  kept.untold_files = set.untold_files;
  for (size_t i = 0; i < set.events.size(); ++i)
    if (singlepulse_kept_sigma(set.events[i].sigma) >= threshold) {
      kept.events.push_back(set.events[i]);
      kept.scales.push_back(set.scales[i]);
    }
  return kept;
}

}  // namespace rapt
