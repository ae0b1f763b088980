// Which reader a file needs, decided from its content (first bytes, or a directory's
// structure), never from its name alone: the approach of htslib's hts_detect_format.
//
//   FITS ("SIMPLE  =" card): GROUPS = T -> UVFITS; FITSTYPE 'PSRFITS' -> PSRFITS;
//                            CTYPE3 'MATRIX' -> A-term cube (idg-grid --aterms);
//                            NAXIS >= 2 with NAXIS1, NAXIS2 > 0 -> FITS image
//   GUPPI RAW (80-byte cards, '=' in column 9), PSRDADA (text header with HDR_SIZE),
//   VDIF (a frame header whose length repeats at the next frame) -> voltages
//   SIGPROC (int 12 then "HEADER_START") -> spectra
//   PRESTO .inf (its first line), accelsearch's ACCEL table (its column titles)
//   plain-text array layout: printable text with a line starting "# frame:"
//   a directory holding table.dat -> Measurement Set
// Anything else, and anything that is not a regular file (a pipe is read once), goes to the
// SIGPROC/PSRFITS reader, whose message then names the problem.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace rapt {

enum class InspectFormat {
  kSpectra,         // SIGPROC filterbank/.tim or PSRFITS (open_spectra_source decides)
  kPrestoInf,
  kVoltages,        // GUPPI RAW, PSRDADA, VDIF (open_voltage_file decides)
  kUvfits,
  kFitsImage,
  kATermCube,
  kMeasurementSet,
  kLayout,
  kAccelCandidates,
  kUnknown,         // none of these (a PRESTO series and a .pfd are known by their suffix)
};

// Bytes worth reading from the start of a file for detect_format_from_bytes.
constexpr size_t kFormatProbeBytes = 65536;

// The format of a file whose first bytes are `head` and whose size is `file_size` bytes.
// Never throws: what it cannot place is kSpectra.
InspectFormat detect_format_from_bytes(std::string_view head, uint64_t file_size);

// The format of `path` (a file or a directory). Throws DataError "path: problem" when it cannot
// be read or is a directory that is not a Measurement Set.
InspectFormat detect_format(const std::string& path);

}  // namespace rapt
