// The text `inspect` prints for one file: its header in readable form and, unless asked not to,
// statistics of the data (streamed, so any size works).
#pragma once
#include <string>

namespace rapt {

struct InspectSettings {
  bool header_only = false;
  bool per_channel = false;
  long long max_spectra = 0;  // 0 = all
};

// Recognises SIGPROC filterbank/.tim and PSRFITS by content, PRESTO .inf by its text, and
// PRESTO .dat/.fft by their companion .inf. Throws DataError naming the file otherwise.
std::string inspect_file(const std::string& path, const InspectSettings& settings);

}  // namespace rapt
