// PRESTO single_pulse_search.py event lists, <root>.singlepulse (formats.md section 5):
// an empty file when there are no events, else one header line and one line per event.
// Written exactly as PRESTO writes them; read leniently (any whitespace, '#' comments, blank
// lines, extra columns ignored).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rapt {

struct SinglePulseEvent {
  double dm = 0.0;      // pc cm^-3, from the .inf
  double sigma = 0.0;   // boxcar S/N
  double time_s = 0.0;  // sample * dt, seconds since the .inf epoch
  int64_t sample = 0;   // index in the .dat
  int downfact = 1;     // boxcar width in samples
};

// PRESTO's header line, without the newline.
inline constexpr const char* kSinglePulseHeader =
    "# DM      Sigma      Time (s)     Sample    Downfact";

// "" for no events; otherwise the header and "%7.2f %7.2f %13.6f %10d     %3d" per event.
std::string format_singlepulse(const std::vector<SinglePulseEvent>& events);
// `name` is used in error messages; throws DataError naming the line that cannot be read.
std::vector<SinglePulseEvent> parse_singlepulse(const std::string& text, const std::string& name);

std::vector<SinglePulseEvent> read_singlepulse(const std::string& path);
void write_singlepulse(const std::string& path, const std::vector<SinglePulseEvent>& events,
                       bool overwrite);

}  // namespace rapt
