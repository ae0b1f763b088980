// FITS header values converted by rapt rather than by CFITSIO: CFITSIO 4.2's integer conversion
// of a long value that is not a number overruns a fixed message buffer, and a fortified build
// aborts the process. Readers fetch the raw text with fits_read_keyword and convert it here.
#pragma once
#include <optional>
#include <string>

namespace rapt {

// A header value's text (as fits_read_keyword returns it) as an integer, accepting what CFITSIO
// accepts: a plain or quoted integer, or a real ("55000.0", "5.5D4"; truncated toward zero).
// Anything else (text, hex, non-finite or out of range) is "not given".
std::optional<long long> fits_integer_value(const std::string& raw);

}  // namespace rapt
