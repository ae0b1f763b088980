#include "bf/station_flags.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/text_words.hpp"

namespace rapt {

namespace {

bool all_digits(const std::string& word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

struct FlagsParseState {
  FlagsParseState(const std::string& file_name, const std::vector<std::string>& names)
      : name(file_name), station_names(names) {}
  const std::string& name;
  const std::vector<std::string>& station_names;
  int line_number = 0;

  DataError error(const std::string& problem) const {
    return file_error(name, "line " + std::to_string(line_number) + ": " + problem);
  }
};

// '*', then a station name, then a 0-based index: a name that is all digits wins over the index.
int station_index(const FlagsParseState& state, const std::string& word) {
  if (word == "*") return -1;
  const auto named = std::find(state.station_names.begin(), state.station_names.end(), word);
  if (named != state.station_names.end()) {
    return static_cast<int>(named - state.station_names.begin());
  }
  if (!all_digits(word)) throw state.error("no station '" + word + "' in the layout");
  const size_t nstations = state.station_names.size();
  // Compared as text length first, so that a huge index cannot overflow.
  if (word.size() > 9 || std::stoul(word) >= nstations) {
    throw state.error("station index " + word + " is outside 0.." +
                      (nstations == 0 ? std::string("(no stations)")
                                      : std::to_string(nstations - 1)));
  }
  return static_cast<int>(std::stoul(word));
}

double flag_time_s(const FlagsParseState& state, const std::string& word, const char* what) {
  const std::optional<double> value = finite_number(word);
  if (!value) throw state.error(std::string(what) + " '" + word + "' is not a finite number");
  if (*value < 0.0) throw state.error(std::string(what) + " '" + word + "' is negative");
  return *value;
}

StationFlagInterval parse_flag_line(const FlagsParseState& state, const std::string& line) {
  const std::vector<std::string> fields = words(line);
  if (fields.size() != 3) {
    throw state.error("expected '<station> <start_s> <end_s>', got '" + line + "'");
  }
  StationFlagInterval interval;
  interval.station = station_index(state, fields[0]);
  interval.start_s = flag_time_s(state, fields[1], "start time");
  interval.end_s = lowercase(fields[2]) == "end" ? std::numeric_limits<double>::infinity()
                                                 : flag_time_s(state, fields[2], "end time");
  if (!(interval.end_s > interval.start_s)) {
    throw state.error("end time '" + fields[2] + "' is not after start time '" + fields[1] + "'");
  }
  return interval;
}

// The first sample index k >= 0 whose time k * tsamp_s is at or after `time_s` (within
// rounding: a billionth of a sample), or `limit` when that is later than `limit`.
int64_t first_sample_at_or_after(double time_s, double tsamp_s, int64_t limit) {
  if (!(time_s > 0.0)) return 0;
  // A time written as a sample's (0.0064 s at 64 us) may come out a hair past it in binary
  // (64e-6 is stored below 64 us: 100.00000000000001 samples): within rounding it is that
  // sample's time, so an interval's edges fall where the flags file says.
  const double samples = time_s / tsamp_s;
  const double estimate = std::ceil(samples - (1e-9 + 1e-14 * samples));
  if (!(estimate < static_cast<double>(limit))) return limit;
  return std::max<int64_t>(0, static_cast<int64_t>(estimate));
}

// Sorts and joins overlapping or touching ranges in place.
void merge_ranges(std::vector<SampleRange>& ranges) {
  std::sort(ranges.begin(), ranges.end());
  size_t kept = 0;
  for (const SampleRange& range : ranges) {
    if (kept > 0 && range.first <= ranges[kept - 1].second) {
      ranges[kept - 1].second = std::max(ranges[kept - 1].second, range.second);
    } else {
      ranges[kept++] = range;
    }
  }
  ranges.resize(kept);
}

}  // namespace

StationFlags parse_station_flags(std::string_view text, const std::string& name,
                                 const std::vector<std::string>& station_names) {
  FlagsParseState state(name, station_names);
  StationFlags flags;
  for_each_content_line(text, name, [&](int line_number, const std::string& content) {
    state.line_number = line_number;
    flags.intervals.push_back(parse_flag_line(state, content));
  });
  return flags;
}

StationFlags read_station_flags(const std::string& path,
                                const std::vector<std::string>& station_names) {
  return parse_station_flags(read_file_contents(path), path, station_names);
}

std::vector<std::vector<SampleRange>> station_flagged_ranges(const StationFlags& flags, int nant,
                                                            int64_t first_sample,
                                                            int64_t nsamples, double tsamp_s) {
  if (nant < 0 || first_sample < 0 || nsamples < 0 ||
      nsamples > std::numeric_limits<int64_t>::max() - first_sample) {
    throw std::invalid_argument("station flags: negative station count or sample range");
  }
  if (!std::isfinite(tsamp_s) || !(tsamp_s > 0.0)) {
    throw std::invalid_argument("station flags: tsamp_s must be positive and finite");
  }
  const int64_t block_end = first_sample + nsamples;

  // The flagged samples of each station: its own intervals and those of '*', cut to the block.
  std::vector<std::vector<SampleRange>> station_ranges(static_cast<size_t>(nant));
  for (const StationFlagInterval& interval : flags.intervals) {
    if (interval.station < -1 || interval.station >= nant) {
      throw std::invalid_argument("station flags: a flag interval names station " +
                                  std::to_string(interval.station) + " of " +
                                  std::to_string(nant));
    }
    const int64_t lo = std::max(first_sample,
                                first_sample_at_or_after(interval.start_s, tsamp_s, block_end));
    const int64_t hi = std::max(first_sample,
                                first_sample_at_or_after(interval.end_s, tsamp_s, block_end));
    if (hi <= lo) continue;
    const SampleRange range{lo - first_sample, hi - first_sample};
    if (interval.station >= 0) {
      station_ranges[static_cast<size_t>(interval.station)].push_back(range);
    } else {
      for (std::vector<SampleRange>& ranges : station_ranges) ranges.push_back(range);
    }
  }

  for (std::vector<SampleRange>& ranges : station_ranges) merge_ranges(ranges);
  return station_ranges;
}

BlockFlags block_flags(const StationFlags& flags, int nant, int64_t first_sample,
                       int64_t nsamples, double tsamp_s, double flag_thresh) {
  if (!(flag_thresh >= 0.0 && flag_thresh <= 1.0)) {
    throw std::invalid_argument("block_flags: flag_thresh must be in [0, 1]");
  }
  // Intervals of '*' flag time, not a station: they flag those samples in every beam but count
  // toward no station's share, so a short burst of RFI seen by all does not leave every station
  // out of the block.
  StationFlags own, everyone;
  for (const StationFlagInterval& interval : flags.intervals)
    (interval.station < 0 ? everyone : own).intervals.push_back(interval);
  std::vector<std::vector<SampleRange>> station_ranges =
      station_flagged_ranges(own, nant, first_sample, nsamples, tsamp_s);

  BlockFlags out;
  out.station_valid.assign(static_cast<size_t>(nant), 0);
  out.sample_flags.assign(static_cast<size_t>(nsamples), 0);
  std::vector<SampleRange> kept_ranges;  // flagged samples of the stations kept
  for (int a = 0; a < nant; ++a) {
    const std::vector<SampleRange>& ranges = station_ranges[static_cast<size_t>(a)];
    int64_t flagged = 0;
    for (const SampleRange& range : ranges) flagged += range.second - range.first;
    const double fraction =
        nsamples > 0 ? static_cast<double>(flagged) / static_cast<double>(nsamples) : 0.0;
    if (fraction > flag_thresh) continue;
    out.station_valid[static_cast<size_t>(a)] = 1;
    ++out.nvalid;
    kept_ranges.insert(kept_ranges.end(), ranges.begin(), ranges.end());
  }

  if (out.nvalid == 0) {
    std::fill(out.sample_flags.begin(), out.sample_flags.end(), uint8_t{1});
    return out;
  }
  if (!everyone.intervals.empty()) {
    const std::vector<SampleRange> common =
        station_flagged_ranges(everyone, 1, first_sample, nsamples, tsamp_s)[0];
    kept_ranges.insert(kept_ranges.end(), common.begin(), common.end());
  }
  merge_ranges(kept_ranges);
  for (const SampleRange& range : kept_ranges) {
    std::fill(out.sample_flags.begin() + range.first, out.sample_flags.begin() + range.second,
              uint8_t{1});
  }
  return out;
}

}  // namespace rapt
