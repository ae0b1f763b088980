// The text `inspect` prints for one file: its header in readable form and, unless asked not to,
// statistics of the data (streamed where the reader streams, so any size works).
#pragma once
#include <string>
#include <vector>

#include "io/vdif_read_options.hpp"

namespace rapt {

struct InspectSettings {
  bool header_only = false;
  bool per_channel = false;
  long long max_spectra = 0;        // spectra, or voltage time samples, to read; 0 = all
  bool layout = false;              // read every file as a plain-text array layout
  VdifReadOptions vdif = {};        // how VDIF frames are read where they do not say
};

// Recognises the format from the file's content (inspect_format.hpp): SIGPROC filterbank/.tim,
// PSRFITS, PRESTO .inf (and .dat/.sdat/.fft through their .inf), GUPPI RAW, PSRDADA, VDIF,
// UVFITS, FITS images, A-term cubes, Measurement Set directories and layout files. "-" reads
// standard input: SIGPROC, PSRFITS redirected from a file, or PSRDADA. Throws DataError "path: problem" for anything it cannot read (a Measurement
// Set in a build without casacore included). Readers' notes on lenient departures are
// appended to `warnings` ("path: ...") when given.
std::string inspect_file(const std::string& path, const InspectSettings& settings,
                         std::vector<std::string>* warnings = nullptr);

}  // namespace rapt
