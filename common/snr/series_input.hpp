// The series a single-pulse search reads: PRESTO .dat (with the .inf beside it) or SIGPROC
// .tim (nchans = 1). The usable part leaves out the padding after the last on/off pair, as
// single_pulse_search.py does; the padding gaps between pairs are kept as "off regions"
// (events touching them are dropped).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/presto_inf.hpp"

namespace rapt {

struct SeriesInput {
  std::string path;           // as given
  std::string root;           // path without .dat/.tim: <root>.singlepulse is written
  double dm = 0.0;            // from the .inf, or the .tim's refdm (0 when absent)
  double dt_s = 0.0;
  double start_mjd = 0.0;     // the first sample's (.inf epoch, .tim tstart); 0 when not given
  int64_t total_samples = 0;  // in the file
  int64_t usable_samples = 0; // before the trailing padding
  std::vector<BinRange> off_regions;  // PRESTO's (end of pair i, start of pair i+1)
  std::vector<float> samples;         // the usable samples, once loaded
};

// Reads the metadata only (cheap: for checking a whole list before any work).
// Throws DataError "path: ..." for a missing or unreadable .inf, an unknown suffix, a .tim with
// more than one channel, or an empty series.
SeriesInput describe_series(const std::string& path);

// Reads the usable samples into `series.samples` (NaNs and infinities replaced, as
// NonFiniteSamples says); returns the reader's warnings about them (one line each).
[[nodiscard]] std::vector<std::string> load_series_samples(SeriesInput& series);

// Series whose samples are compared by index (fold's brute-force search over DM trials) must
// share length and sampling time; their usable parts may differ (dedispersion pads each DM
// differently). Throws DataError naming the first one that differs from the first series.
void check_series_agree(const std::vector<SeriesInput>& series);

// PRESTO's off regions and usable length for an .inf's on/off pairs.
void apply_onoff(const InfFile& inf, SeriesInput& series);

}  // namespace rapt
