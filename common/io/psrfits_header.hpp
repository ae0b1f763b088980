// Internal to the PSRFITS reader: opening through CFITSIO and turning the primary and SUBINT
// headers into ObservationInfo and a sample layout. Programs use PsrfitsReader instead.
#pragma once
#include <fitsio.h>

#include <optional>
#include <string>
#include <vector>

#include "io/psrfits.hpp"

namespace rapt {

// Throws DataError "path: what: <CFITSIO status text>" and clears CFITSIO's error stack.
[[noreturn]] void throw_cfitsio_error(const std::string& path, const std::string& what,
                                      int status);

// Opens a file on disk (no CFITSIO extended-name syntax). Throws DataError naming the file:
// "cannot open: ...", "not a FITS file", "truncated or damaged FITS header: ...".
fitsfile* open_fits_file(const std::string& path);

// Everything the reader learns from the headers and the first SUBINT row.
struct PsrfitsHeaderFacts {
  ObservationInfo info;
  PsrfitsSampleLayout layout;
  long long nrows = 0;
  int data_column = 0;
  int weights_column = 0;  // 0 = absent (weights 1)
  int offsets_column = 0;  // 0 = absent (offsets 0)
  int scales_column = 0;   // 0 = absent (scales 1)
  long long offsets_repeat = 0;
  long long scales_repeat = 0;
  bool data_as_values = false;  // read DATA as float through CFITSIO ('I', 'E')
  long long data_elements = 0;  // elements of DATA to read per row
};

// Checks FITSTYPE = 'PSRFITS' and OBS_MODE = 'SEARCH' (or 'SRCH'), moves to the SUBINT table
// and reads what a search needs. Throws DataError naming `path` for anything unusable;
// `warnings` receives a line per value replaced.
PsrfitsHeaderFacts read_psrfits_header(fitsfile* fits, const std::string& path,
                                       std::vector<std::string>& warnings);

// "hh:mm:ss.s" or "-dd:mm:ss.s" (one to three fields) as a number of hours or degrees.
std::optional<double> parse_sexagesimal(const std::string& text);

}  // namespace rapt
