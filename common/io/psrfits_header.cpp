// PSRFITS headers through CFITSIO. Keyword names and meanings: formats.md section 7.
#include "io/psrfits_header.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cli/errors.hpp"
#include "io/fits_header_value.hpp"
#include "io/header_validation.hpp"

namespace rapt {

namespace {

constexpr double kSecondsPerDay = 86400.0;

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

std::string lower(std::string text) {
  for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Optional keywords: absent, blank or unconvertible ('*' placeholders are common) all read as
// "not given".
std::optional<std::string> string_key(fitsfile* fits, const char* name) {
  char value[FLEN_VALUE] = {};
  int status = 0;
  fits_read_key(fits, TSTRING, name, value, nullptr, &status);
  if (status) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  return trim(value);
}

std::optional<double> double_key(fitsfile* fits, const char* name) {
  double value = 0.0;
  int status = 0;
  fits_read_key(fits, TDOUBLE, name, &value, nullptr, &status);
  if (status || !std::isfinite(value)) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  return value;
}

// Converted by fits_integer_value, not by CFITSIO (io/fits_header_value.hpp says why).
std::optional<long long> int_key(fitsfile* fits, const char* name) {
  char raw[FLEN_VALUE] = {};
  int status = 0;
  fits_read_keyword(fits, name, raw, nullptr, &status);
  if (status) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  return fits_integer_value(raw);
}

long long required_int(fitsfile* fits, const char* name, const std::string& path,
                       const char* where) {
  const auto value = int_key(fits, name);
  if (!value) throw file_error(path, std::string(where) + " has no usable " + name);
  return *value;
}

double required_double(fitsfile* fits, const char* name, const std::string& path,
                       const char* where) {
  const auto value = double_key(fits, name);
  if (!value) throw file_error(path, std::string(where) + " has no usable " + name);
  return *value;
}

int column_number(fitsfile* fits, const char* name) {
  int column = 0;
  int status = 0;
  fits_get_colnum(fits, CASEINSEN, const_cast<char*>(name), &column, &status);
  if (status) {
    fits_clear_errmsg();
    return 0;
  }
  return column;
}

struct ColumnShape {
  int type_code = 0;
  long long repeat = 0;
  std::string tform;
};

ColumnShape column_shape(fitsfile* fits, int column, const std::string& path) {
  ColumnShape shape;
  LONGLONG repeat = 0;
  LONGLONG width = 0;
  int status = 0;
  fits_get_coltypell(fits, column, &shape.type_code, &repeat, &width, &status);
  if (status) {
    throw_cfitsio_error(path, "cannot read SUBINT column " + std::to_string(column), status);
  }
  shape.repeat = repeat;
  const std::string key = "TFORM" + std::to_string(column);
  shape.tform = string_key(fits, key.c_str()).value_or("?");
  return shape;
}

void check_search_mode(fitsfile* fits, const std::string& path) {
  const auto fitstype = string_key(fits, "FITSTYPE");
  if (!fitstype) throw file_error(path, "not a PSRFITS file (no FITSTYPE keyword)");
  if (*fitstype != "PSRFITS") {
    throw file_error(path, "not a PSRFITS file (FITSTYPE is '" + *fitstype + "')");
  }
  const std::string mode = string_key(fits, "OBS_MODE").value_or("");
  if (mode != "SEARCH" && mode != "SRCH") {
    throw file_error(path, "PSRFITS file is not search mode (OBS_MODE is '" + mode + "')");
  }
}

std::string telescope_name(const std::string& telescop) {
  if (telescop.empty()) return "Unknown";
  if (telescop == "ARECIBO 305m") return "Arecibo";
  if (lower(telescop) == "parkes") return "Parkes";
  return telescop;
}

double sky_angle(fitsfile* fits, const char* key, double hours_to_degrees,
                 const std::string& path, std::vector<std::string>& warnings) {
  const auto text = string_key(fits, key);
  if (!text) {
    warnings.push_back(path + ": no " + key + " keyword; using 0");
    return 0.0;
  }
  const auto value = parse_sexagesimal(*text);
  if (!value) {
    warnings.push_back(path + ": " + key + " '" + *text + "' is not [-]xx:mm:ss.s; using 0");
    return 0.0;
  }
  return *value * hours_to_degrees;
}

void read_primary(fitsfile* fits, const std::string& path, ObservationInfo& info,
                  std::vector<std::string>& warnings) {
  info.source_name = string_key(fits, "SRC_NAME").value_or("");
  info.telescope = telescope_name(string_key(fits, "TELESCOP").value_or(""));
  info.instrument = string_key(fits, "BACKEND").value_or("");
  if (info.instrument.empty()) info.instrument = "Unknown";
  info.ra_deg = sky_angle(fits, "RA", 15.0, path, warnings);
  info.dec_deg = sky_angle(fits, "DEC", 1.0, path, warnings);
}

// STT_IMJD + (STT_SMJD + STT_OFFS + BE_DELAY) / 86400: the first sample of row 1 of the
// observation (not yet of this file).
double observation_start_mjd(fitsfile* fits, const std::string& path) {
  const long long imjd = required_int(fits, "STT_IMJD", path, "primary header");
  const long long smjd = required_int(fits, "STT_SMJD", path, "primary header");
  const double offs = double_key(fits, "STT_OFFS").value_or(0.0);
  const double be_delay = double_key(fits, "BE_DELAY").value_or(0.0);
  return double(imjd) + (double(smjd) + offs + be_delay) / kSecondsPerDay;
}

long long file_size(const std::string& path) {
  std::error_code error;
  const auto bytes = std::filesystem::file_size(path, error);
  if (error) throw file_error(path, "cannot read the file size: " + error.message());
  return (long long)bytes;
}

// Steps through the HDUs until the binary table named SUBINT. CFITSIO cannot step past a
// damaged or cut header, so a file whose size differs from the end of its last readable HDU
// is broken rather than missing the table.
void move_to_subint(fitsfile* fits, const std::string& path) {
  long long readable_end = 0;
  int hdu = 1;
  for (;; ++hdu) {
    int status = 0;
    int type = 0;
    if (hdu > 1 && readable_end < file_size(path)) require_ascii_fits_header(path, readable_end, hdu);
    fits_movabs_hdu(fits, hdu, &type, &status);
    if (status) {
      fits_clear_errmsg();
      break;
    }
    if (type == BINARY_TBL && string_key(fits, "EXTNAME").value_or("") == "SUBINT") return;
    LONGLONG header_start = 0, data_start = 0, data_end = 0;
    fits_get_hduaddrll(fits, &header_start, &data_start, &data_end, &status);
    if (status) throw_cfitsio_error(path, "cannot locate HDU " + std::to_string(hdu), status);
    readable_end = data_end;
  }
  if (file_size(path) != readable_end) {
    throw file_error(path, "file is truncated or damaged after HDU " + std::to_string(hdu - 1) +
                               " (no SUBINT table found)");
  }
  throw file_error(path, "no SUBINT table");
}

// Which products form total intensity: AA+BB of a coherence set, I of Stokes, both of two.
void choose_polarisations(PsrfitsSampleLayout& layout, const std::string& pol_type,
                          const std::string& path) {
  layout.first_pol = 0;
  if (layout.npol == 1) {
    layout.pols_summed = 1;
  } else if (layout.npol == 2) {
    layout.pols_summed = 2;
  } else if (layout.npol == 4 && pol_type.rfind("AABB", 0) == 0) {
    layout.pols_summed = 2;
  } else if (layout.npol == 4 && pol_type == "IQUV") {
    layout.pols_summed = 1;
  } else if (layout.npol == 4) {
    throw file_error(path, "NPOL=4 with POL_TYPE '" + pol_type +
                               "'; supported: AABBCRCI, IQUV");
  } else {
    throw file_error(path, "NPOL=" + std::to_string(layout.npol) + "; supported: 1, 2, 4");
  }
}

void read_subint_layout(fitsfile* fits, const std::string& path, PsrfitsHeaderFacts& facts,
                        std::vector<std::string>& warnings) {
  const char* where = "SUBINT header";
  PsrfitsSampleLayout& layout = facts.layout;
  layout.nbits = int(required_int(fits, "NBITS", path, where));
  const int nbits = layout.nbits;
  if (nbits != 1 && nbits != 2 && nbits != 4 && nbits != 8 && nbits != 16 && nbits != 32) {
    throw file_error(path, "NBITS=" + std::to_string(nbits) + "; supported: 1, 2, 4, 8, 16, 32");
  }
  layout.nchans = int(required_int(fits, "NCHAN", path, where));
  layout.npol = int(required_int(fits, "NPOL", path, where));
  layout.nsblk = int(required_int(fits, "NSBLK", path, where));
  if (layout.nchans <= 0 || layout.nsblk <= 0) {
    throw file_error(path, "NCHAN=" + std::to_string(layout.nchans) + " and NSBLK=" +
                               std::to_string(layout.nsblk) + " must both be positive");
  }
  choose_polarisations(layout, string_key(fits, "POL_TYPE").value_or(""), path);
  layout.zero_offset = float(std::fabs(double_key(fits, "ZERO_OFF").value_or(0.0)));
  layout.int8_samples = nbits == 8 && int_key(fits, "SIGNINT").value_or(0) == 1;

  facts.info.tsamp_s = required_double(fits, "TBIN", path, where);
  validate_sample_time(path, "TBIN", facts.info.tsamp_s);
  const long long channel_offset = int_key(fits, "NCHNOFFS").value_or(0);
  if (channel_offset != 0) {
    warnings.push_back(path + ": NCHNOFFS=" + std::to_string(channel_offset) +
                       ": channel 0 here is not the observation's first channel");
  }
  int status = 0;
  LONGLONG rows = 0;
  fits_get_num_rowsll(fits, &rows, &status);
  if (status) throw_cfitsio_error(path, "cannot read the SUBINT row count", status);
  if (rows <= 0) throw file_error(path, "SUBINT table has no rows");
  facts.nrows = rows;
}

// DATA holds nsblk * npol * nchans samples per row, stored as the TFORM and NBITS say.
void check_data_column(fitsfile* fits, const std::string& path, PsrfitsHeaderFacts& facts) {
  facts.data_column = column_number(fits, "DATA");
  if (!facts.data_column) throw file_error(path, "SUBINT table has no DATA column");
  const ColumnShape shape = column_shape(fits, facts.data_column, path);
  PsrfitsSampleLayout& layout = facts.layout;
  const long long samples = (long long)layout.samples_per_row();
  const long long bytes = (samples * layout.nbits + 7) / 8;
  bool fits_layout = false;
  if (layout.nbits == 32) {
    fits_layout = shape.type_code == TFLOAT && shape.repeat == samples;
    facts.data_as_values = true;
    facts.data_elements = samples;
  } else if (layout.nbits == 16 && shape.type_code == TSHORT) {
    fits_layout = shape.repeat == samples;
    facts.data_as_values = true;
    facts.data_elements = samples;
  } else {
    // Bytes as stored: 'B' (or 'X', counted in bits), with any TZERO ignored.
    fits_layout = (shape.type_code == TBYTE && shape.repeat == bytes) ||
                  (shape.type_code == TBIT && shape.repeat == bytes * 8);
    facts.data_elements = bytes;
    int status = 0;
    fits_set_tscale(fits, facts.data_column, 1.0, 0.0, &status);
    if (status) throw_cfitsio_error(path, "cannot read the DATA column", status);
    const std::string tzero_key = "TZERO" + std::to_string(facts.data_column);
    if (layout.nbits == 8 && double_key(fits, tzero_key.c_str()).value_or(0.0) == -128.0) {
      layout.int8_samples = true;
    }
  }
  if (!fits_layout) {
    throw file_error(path, "DATA column is '" + shape.tform + "'; NBITS=" +
                               std::to_string(layout.nbits) + " NSBLK=" +
                               std::to_string(layout.nsblk) + " NPOL=" +
                               std::to_string(layout.npol) + " NCHAN=" +
                               std::to_string(layout.nchans) + " need " +
                               std::to_string(bytes) + " bytes per row");
  }
}

// DAT_OFFS and DAT_SCL hold nchans * npol values (or nchans, shared by every polarisation).
long long scaling_repeat(fitsfile* fits, int column, const char* name, long long nchans,
                         long long npol, const std::string& path) {
  if (!column) return 0;
  const ColumnShape shape = column_shape(fits, column, path);
  if (shape.repeat != nchans * npol && shape.repeat != nchans) {
    throw file_error(path, std::string(name) + " holds " + std::to_string(shape.repeat) +
                               " values per row; NCHAN*NPOL is " + std::to_string(nchans * npol));
  }
  return shape.repeat;
}

void find_scaling_columns(fitsfile* fits, const std::string& path, PsrfitsHeaderFacts& facts) {
  const long long nchans = facts.layout.nchans;
  const long long npol = facts.layout.npol;
  facts.weights_column = column_number(fits, "DAT_WTS");
  if (facts.weights_column &&
      column_shape(fits, facts.weights_column, path).repeat != nchans) {
    throw file_error(path, "DAT_WTS does not hold NCHAN=" + std::to_string(nchans) + " values");
  }
  facts.offsets_column = column_number(fits, "DAT_OFFS");
  facts.scales_column = column_number(fits, "DAT_SCL");
  facts.offsets_repeat =
      scaling_repeat(fits, facts.offsets_column, "DAT_OFFS", nchans, npol, path);
  facts.scales_repeat = scaling_repeat(fits, facts.scales_column, "DAT_SCL", nchans, npol, path);
}

// A file cut short holds fewer bytes than NAXIS1 * NAXIS2 after the SUBINT header. CFITSIO
// reads whole 2880-byte blocks, so a last block without its padding is unreadable too.
void check_not_truncated(fitsfile* fits, const std::string& path, long long nrows) {
  LONGLONG header_start = 0;
  LONGLONG data_start = 0;
  LONGLONG data_end = 0;
  int status = 0;
  fits_get_hduaddrll(fits, &header_start, &data_start, &data_end, &status);
  if (status) throw_cfitsio_error(path, "cannot locate the SUBINT data", status);
  const long long row_bytes = required_int(fits, "NAXIS1", path, "SUBINT header");
  const long long file_bytes = file_size(path);
  const long long needed = data_start + row_bytes * nrows;
  if (file_bytes < needed) {
    const long long available = std::max<long long>(0, file_bytes - data_start);
    throw file_error(path, "file is truncated: SUBINT table has " +
                               std::to_string(row_bytes > 0 ? available / row_bytes : 0) +
                               " of " + std::to_string(nrows) + " rows");
  }
  if (file_bytes < data_end) {
    throw file_error(path, "file is truncated: the last 2880-byte block of the SUBINT table "
                           "lacks " + std::to_string(data_end - file_bytes) +
                           " bytes of padding");
  }
}

std::optional<double> first_row_double(fitsfile* fits, const char* name) {
  const int column = column_number(fits, name);
  if (!column) return std::nullopt;
  double value = 0.0;
  int any_null = 0;
  int status = 0;
  fits_read_col(fits, TDOUBLE, column, 1, 1, 1, nullptr, &value, &any_null, &status);
  if (status) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  return value;
}

// Channel centres from DAT_FREQ of row 1, kept in file order; they must be evenly spaced.
void read_frequencies(fitsfile* fits, const std::string& path, ObservationInfo& info) {
  const int column = column_number(fits, "DAT_FREQ");
  if (!column) throw file_error(path, "SUBINT table has no DAT_FREQ column");
  if (column_shape(fits, column, path).repeat != info.nchans) {
    throw file_error(path, "DAT_FREQ does not hold NCHAN=" + std::to_string(info.nchans) +
                               " values");
  }
  std::vector<double> freqs(size_t(info.nchans));
  int any_null = 0;
  int status = 0;
  fits_read_col(fits, TDOUBLE, column, 1, 1, info.nchans, nullptr, freqs.data(), &any_null,
                &status);
  if (status) throw_cfitsio_error(path, "cannot read DAT_FREQ of SUBINT row 1", status);
  const int n = info.nchans;
  info.fch1_mhz = freqs[0];
  if (n == 1) {
    info.foff_mhz = double_key(fits, "CHAN_BW").value_or(0.0);
    validate_channel_band(path, "DAT_FREQ", info.fch1_mhz, "CHAN_BW", info.foff_mhz, 1);
    return;
  }
  for (const double freq_mhz : freqs)
    require_in_range(path, "DAT_FREQ", freq_mhz, "MHz", 0.0, kMaxSkyFreq_mhz);
  info.foff_mhz = (freqs[size_t(n - 1)] - freqs[0]) / (n - 1);
  if (info.foff_mhz == 0.0) throw file_error(path, "DAT_FREQ gives every channel one frequency");
  validate_channel_band(path, "DAT_FREQ", info.fch1_mhz, "DAT_FREQ spacing", info.foff_mhz, n);
  for (int c = 0; c < n; ++c) {
    const double expected = info.fch1_mhz + c * info.foff_mhz;
    if (std::fabs(freqs[size_t(c)] - expected) > 0.01 * std::fabs(info.foff_mhz)) {
      char message[160];
      std::snprintf(message, sizeof message,
                    "DAT_FREQ channels are not evenly spaced (channel %d at %.6f MHz, "
                    "expected %.6f MHz)", c, freqs[size_t(c)], expected);
      throw file_error(path, message);
    }
  }
}

// Rows recorded before this file's first row: from OFFS_SUB (centre of row 1) when it is
// filled in, else from NSUBOFFS.
long long rows_before_file(fitsfile* fits, double row_seconds) {
  const double offs_sub = first_row_double(fits, "OFFS_SUB").value_or(0.0);
  if (offs_sub > 0.0) {
    return std::max(0LL, (long long)((offs_sub - 0.5 * row_seconds) / row_seconds + 1e-7));
  }
  return std::max(0LL, int_key(fits, "NSUBOFFS").value_or(0));
}

}  // namespace

void throw_cfitsio_error(const std::string& path, const std::string& what, int status) {
  char text[FLEN_STATUS] = {};
  fits_get_errstatus(status, text);
  fits_clear_errmsg();
  throw file_error(path, what + ": " + text);
}

fitsfile* open_fits_file(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw file_error(path, "cannot open: " + errno_text());
  char start[8] = {};
  const size_t got = std::fread(start, 1, sizeof start, file);
  const bool read_failed = std::ferror(file);
  const std::string read_error = read_failed ? errno_text() : "";
  std::fclose(file);
  if (read_failed) throw file_error(path, "cannot read: " + read_error);
  if (got < sizeof start || std::memcmp(start, "SIMPLE  ", sizeof start) != 0) {
    throw file_error(path, "not a FITS file");
  }
  require_ascii_fits_header(path, 0, 1);
  fitsfile* fits = nullptr;
  int status = 0;
  fits_open_diskfile(&fits, path.c_str(), READONLY, &status);
  if (status) throw_cfitsio_error(path, "truncated or damaged FITS header", status);
  return fits;
}

PsrfitsHeaderFacts read_psrfits_header(fitsfile* fits, const std::string& path,
                                       std::vector<std::string>& warnings) {
  PsrfitsHeaderFacts facts;
  ObservationInfo& info = facts.info;
  info.path = path;
  info.format = "PSRFITS search";
  check_search_mode(fits, path);
  read_primary(fits, path, info, warnings);
  const double start_mjd = observation_start_mjd(fits, path);

  move_to_subint(fits, path);
  read_subint_layout(fits, path, facts, warnings);
  check_data_column(fits, path, facts);
  find_scaling_columns(fits, path, facts);
  check_not_truncated(fits, path, facts.nrows);

  const PsrfitsSampleLayout& layout = facts.layout;
  info.nchans = layout.nchans;
  info.nbits = layout.nbits;
  info.npol_summed = layout.pols_summed;
  info.nspectra = facts.nrows * layout.nsblk;
  read_frequencies(fits, path, info);
  info.az_start_deg = first_row_double(fits, "TEL_AZ").value_or(0.0);
  info.za_start_deg = first_row_double(fits, "TEL_ZEN").value_or(0.0);
  const double row_seconds = info.tsamp_s * layout.nsblk;
  info.tstart_mjd =
      start_mjd + double(rows_before_file(fits, row_seconds)) * row_seconds / kSecondsPerDay;
  return facts;
}

std::optional<double> parse_sexagesimal(const std::string& text) {
  const std::string value = trim(text);
  if (value.empty()) return std::nullopt;
  const bool negative = value[0] == '-';
  const char* cursor = value.c_str() + ((value[0] == '-' || value[0] == '+') ? 1 : 0);
  double total = 0.0;
  double unit = 1.0;
  for (int field = 0; field < 3; ++field) {
    if (!std::isdigit(static_cast<unsigned char>(*cursor)) && *cursor != '.') return std::nullopt;
    char* end = nullptr;
    const double number = std::strtod(cursor, &end);
    if (end == cursor || number < 0.0 || (field > 0 && number >= 60.0)) return std::nullopt;
    total += number * unit;
    unit /= 60.0;
    cursor = end;
    if (*cursor == '\0') return negative ? -total : total;
    if (*cursor != ':') return std::nullopt;
    ++cursor;
  }
  return std::nullopt;  // more than three fields
}

}  // namespace rapt
