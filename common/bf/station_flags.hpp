// Flagged station data (RFI, a dropped packet stream, a station known to be bad) and what it
// does to a block of beam forming.
//
// Flags file: one flagged interval per line, '#' comments and blank lines ignored:
//   <station> <start_s> <end_s>
// `station` is an antenna name from the layout, a 0-based index, or '*' for every station (a
// name made of digits is taken as a name before an index); times are seconds from the first
// sample of the input; the interval is [start, end), and `end` may be "end" (case ignored: to
// the end of the data). Sample k (at k * tsamp) is flagged when its time falls in an interval
// of its station. Fields are separated by spaces or tabs; CR-LF is accepted.
//
// Per block (rapt(7), BEAM FORMING): a station whose flagged fraction of the block exceeds the
// threshold is left out of every beam for that block; any flagged sample of a station that is
// kept flags that sample in every beam. With every station left out, every sample is flagged.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rapt {

struct StationFlagInterval {
  int station = -1;     // -1: every station
  double start_s = 0;
  double end_s = 0;     // +infinity for "end"
};

struct StationFlags {
  std::vector<StationFlagInterval> intervals;
};

// Parses a flags file from memory; `name` is used in messages ("flags.txt: line 2: no station
// 'm099' in the layout"). Throws DataError for a malformed line, an unknown station, an index
// outside 0..nstations-1, a non-finite or negative time, or end <= start.
StationFlags parse_station_flags(std::string_view text, const std::string& name,
                                 const std::vector<std::string>& station_names);
StationFlags read_station_flags(const std::string& path,
                                const std::vector<std::string>& station_names);

// Samples [first, end) counted from the start of a block.
using SampleRange = std::pair<int64_t, int64_t>;

// The flagged samples of each of `nant` stations among samples first_sample .. first_sample +
// nsamples - 1 (at tsamp_s each), as sorted, disjoint ranges relative to first_sample: the
// station's own intervals and those of '*'. Time linear in the intervals. Throws
// std::invalid_argument for a negative nant, first_sample or nsamples, a tsamp_s that is not
// positive and finite, or an interval of a station >= nant.
std::vector<std::vector<SampleRange>> station_flagged_ranges(const StationFlags& flags, int nant,
                                                            int64_t first_sample,
                                                            int64_t nsamples, double tsamp_s);

struct BlockFlags {
  std::vector<uint8_t> station_valid;  // [nant]: 1 = kept in the beams
  std::vector<uint8_t> sample_flags;   // [nsamples]: 1 = flagged in every beam
  int nvalid = 0;                      // stations kept
};

// The flags of samples first_sample .. first_sample + nsamples - 1 (at tsamp_s each) for
// `nant` stations: a station is left out when its flagged fraction of these samples is above
// `flag_thresh` (0..1; a fraction equal to it keeps the station). With nsamples 0 every station
// is kept. Works on each interval's range of sample indices: time linear in nsamples plus
// the intervals, never samples x intervals. Throws std::invalid_argument for a negative nant,
// first_sample or nsamples, a tsamp_s that is not positive and finite, a flag_thresh outside
// [0, 1], or an interval of a station >= nant.
BlockFlags block_flags(const StationFlags& flags, int nant, int64_t first_sample,
                       int64_t nsamples, double tsamp_s, double flag_thresh);

}  // namespace rapt
