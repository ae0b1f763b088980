#include "snr/series_input.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sys/stat.h>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/non_finite_samples.hpp"
#include "io/presto_series.hpp"
#include "io/sigproc.hpp"

namespace rapt {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool file_exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

}  // namespace

void apply_onoff(const InfFile& inf, SeriesInput& series) {
  series.usable_samples = series.total_samples;
  series.off_regions.clear();
  if (inf.onoff.size() < 2) return;
  for (size_t i = 0; i + 1 < inf.onoff.size(); ++i)
    series.off_regions.push_back({inf.onoff[i].second, inf.onoff[i + 1].first});
  // single_pulse_search.py does not read a final break that runs to the end (padding).
  if (series.off_regions.back().second == series.total_samples - 1)
    series.usable_samples = series.off_regions.back().first + 1;
}

SeriesInput describe_series(const std::string& path) {
  SeriesInput series;
  series.path = path;
  if (ends_with(path, ".dat")) {
    series.root = strip_suffix(path, ".dat");
    const std::string inf_path = series.root + ".inf";
    if (!file_exists(inf_path)) throw file_error(path, "no .inf beside it (" + inf_path + ")");
    const InfFile inf = read_inf(inf_path);
    const DatReader reader(path);
    if (reader.size() == 0) throw file_error(path, "is empty (no samples)");
    if (reader.size() != inf.n)
      throw file_error(path, "holds " + std::to_string(reader.size()) + " samples but " +
                                 inf_path + " says " + std::to_string(inf.n));
    series.dm = inf.dm;
    series.dt_s = inf.dt_s;
    series.start_mjd = inf.epoch_mjd();
    series.total_samples = reader.size();
    apply_onoff(inf, series);
  } else if (ends_with(path, ".tim")) {
    series.root = strip_suffix(path, ".tim");
    SigprocReader reader(path);
    if (reader.info().nchans != 1)
      throw file_error(path, "has " + std::to_string(reader.info().nchans) +
                                 " channels; a time series (.tim) has one");
    series.dm = reader.header().refdm.value_or(0.0);
    series.dt_s = reader.info().tsamp_s;
    series.start_mjd = reader.header().tstart;
    series.total_samples = reader.info().nspectra;
    series.usable_samples = series.total_samples;
  } else {
    throw file_error(path, "not a time series (expected .dat with its .inf, or .tim)");
  }
  if (series.total_samples <= 0) throw file_error(path, "is empty (no samples)");
  if (!(series.dt_s > 0.0)) throw file_error(path, "has no valid sampling time");
  return series;
}

namespace {
// Fills `samples` from any reader with read(float*, size_t); a short file is an error.
template <typename Reader>
void read_exactly(Reader& reader, const std::string& path, std::vector<float>& samples) {
  size_t got = 0;
  while (got < samples.size()) {
    const size_t n = reader.read(samples.data() + got, samples.size() - got);
    if (n == 0) throw file_error(path, "ended early");
    got += n;
  }
}
}  // namespace

std::vector<std::string> load_series_samples(SeriesInput& series) {
  std::vector<float> samples(size_t(series.usable_samples));
  std::vector<std::string> warnings;
  if (series.root + ".dat" == series.path) {
    DatReader reader(series.path);
    read_exactly(reader, series.path, samples);
    // The SIGPROC reader replaces a .tim's NaNs and infinities itself; a .dat's are replaced so.
    const std::string said = replace_non_finite_in_series(samples, series.path);
    if (!said.empty()) warnings.push_back(said);
  } else {
    SigprocReader reader(series.path);
    const size_t header_notes = reader.warnings().size();  // said when the series was described
    read_exactly(reader, series.path, samples);
    warnings.assign(reader.warnings().begin() + long(header_notes), reader.warnings().end());
  }
  series.samples = std::move(samples);
  return warnings;
}

void check_series_agree(const std::vector<SeriesInput>& series) {
  if (series.empty()) return;
  const SeriesInput& first = series.front();
  for (const SeriesInput& s : series) {
    // The sampling time first: a DM plan's downsampled ranges differ in both, and the cause
    // is the sampling time.
    if (std::fabs(s.dt_s - first.dt_s) > 1e-9 * first.dt_s)
      throw file_error(s.path, format_string("sampling time %.6g s differs from %s's %.6g s (a "
                                             "downsampled range of a DM plan?); give series "
                                             "of one sampling time",
                                             s.dt_s, first.path.c_str(), first.dt_s));
    if (s.total_samples != first.total_samples)
      throw file_error(s.path, "has " + std::to_string(s.total_samples) + " samples but " +
                                   first.path + " has " + std::to_string(first.total_samples) +
                                   "; give series of one length");
  }
}

}  // namespace rapt
