#include "io/header_validation.hpp"

#include <sys/types.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "cli/errors.hpp"

namespace rapt {

namespace {

std::string number_text(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

std::string with_unit(double value, const std::string& unit) {
  return unit.empty() ? number_text(value) : number_text(value) + " " + unit;
}

enum class HeaderScan { kClean, kEnded, kNotAscii };

// Header cards in `size` bytes (the last card may be cut): stops at the END card, as the
// bytes after it are padding that no FITS reader parses.
HeaderScan scan_header_bytes(const char* bytes, size_t size) {
  constexpr size_t kCard = 80;
  for (size_t card = 0; card < size; card += kCard) {
    const size_t card_end = std::min(size, card + kCard);
    for (size_t i = card; i < card_end; ++i) {
      const unsigned char c = static_cast<unsigned char>(bytes[i]);
      if (c < 0x20 || c > 0x7e) return HeaderScan::kNotAscii;
    }
    if (card_end - card == kCard && std::memcmp(bytes + card, "END     ", 8) == 0)
      return HeaderScan::kEnded;
  }
  return HeaderScan::kClean;
}

}  // namespace

void throw_header_field_error(const std::string& file, const std::string& field, double value,
                              const std::string& unit, const std::string& requirement) {
  throw file_error(file, "header field " + field + " = " + with_unit(value, unit) + "; " +
                             requirement);
}

void require_finite(const std::string& file, const std::string& field, double value,
                    const std::string& unit) {
  if (!std::isfinite(value)) throw_header_field_error(file, field, value, unit, "must be finite");
}

void require_positive(const std::string& file, const std::string& field, double value,
                      const std::string& unit) {
  require_finite(file, field, value, unit);
  if (!(value > 0.0)) throw_header_field_error(file, field, value, unit, "must be positive");
}

void require_nonzero(const std::string& file, const std::string& field, double value,
                     const std::string& unit) {
  require_finite(file, field, value, unit);
  if (value == 0.0) throw_header_field_error(file, field, value, unit, "must be non-zero");
}

void require_in_range(const std::string& file, const std::string& field, double value,
                      const std::string& unit, double lowest, double highest) {
  require_finite(file, field, value, unit);
  if (value < lowest || value > highest)
    throw_header_field_error(file, field, value, unit,
                             "must be between " + number_text(lowest) + " and " +
                                 with_unit(highest, unit));
}

void validate_sample_time(const std::string& file, const std::string& field, double tsamp_s) {
  require_positive(file, field, tsamp_s, "s");
  require_in_range(file, field, tsamp_s, "s", kMinSampleTime_s, kMaxSampleTime_s);
}

void validate_channel_band(const std::string& file, const std::string& fch1_field,
                           double fch1_mhz, const std::string& foff_field, double foff_mhz,
                           int nchans) {
  require_finite(file, fch1_field, fch1_mhz, "MHz");
  require_finite(file, foff_field, foff_mhz, "MHz");
  if (nchans <= 1) {
    // A single channel (a .tim series) may leave its frequency unrecorded (0), never negative.
    require_in_range(file, fch1_field, fch1_mhz, "MHz", 0.0, kMaxSkyFreq_mhz);
    return;
  }
  require_positive(file, fch1_field, fch1_mhz, "MHz");
  require_in_range(file, fch1_field, fch1_mhz, "MHz", 0.0, kMaxSkyFreq_mhz);
  require_nonzero(file, foff_field, foff_mhz, "MHz");
  const double last_mhz = fch1_mhz + double(nchans - 1) * foff_mhz;
  if (!(last_mhz > 0.0) || last_mhz > kMaxSkyFreq_mhz) {
    throw file_error(file, "header fields " + fch1_field + " = " + with_unit(fch1_mhz, "MHz") +
                               " and " + foff_field + " = " + with_unit(foff_mhz, "MHz") +
                               " put channel " + std::to_string(nchans - 1) + " at " +
                               with_unit(last_mhz, "MHz") +
                               "; every channel must lie between 0 and " +
                               with_unit(kMaxSkyFreq_mhz, "MHz"));
  }
}

void validate_series_length(const std::string& header_file, const std::string& field,
                            int64_t promised, const std::string& data_file, int64_t present) {
  if (present <= 0) throw file_error(data_file, "is empty (no samples)");
  if (present != promised)
    throw file_error(data_file, "holds " + std::to_string(present) + " samples but " +
                                    header_file + " says " + field + " = " +
                                    std::to_string(promised) +
                                    (present < promised ? "; the file is truncated"
                                                        : "; they must agree"));
}

void require_ascii_fits_header(const std::string& path, long long offset, int hdu) {
  constexpr size_t kBlock = 2880, kMaxBlocks = 10000;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw file_error(path, "cannot open: " + errno_text());
  char block[kBlock];
  HeaderScan scan = HeaderScan::kClean;
  if (::fseeko(file, off_t(offset), SEEK_SET) == 0) {
    for (size_t b = 0; b < kMaxBlocks && scan == HeaderScan::kClean; ++b) {
      // A cut block still has its bytes checked: CFITSIO parses the cards it can read before
      // it notices the cut, and the cut itself is left for CFITSIO to report.
      const size_t got = std::fread(block, 1, kBlock, file);
      scan = scan_header_bytes(block, got);
      if (got != kBlock) break;
    }
  }
  std::fclose(file);
  if (scan == HeaderScan::kNotAscii)
    throw file_error(path, "header of HDU " + std::to_string(hdu) +
                               " holds a byte that is not printable ASCII (not FITS)");
}

}  // namespace rapt
