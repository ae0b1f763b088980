#include <cmath>
#include <cstdio>
#include <optional>
#include <unordered_set>

#include "cli/errors.hpp"
#include "io/header_validation.hpp"
#include "io/uvfits_tables.hpp"

namespace rapt {

namespace {

void warn(std::vector<std::string>* warnings, const std::string& name, const std::string& text) {
  if (warnings) warnings->push_back(name + ": " + text);
}

// Column number by name, or 0 when the table has no such column.
int find_column(fitsfile* fits, const char* column) {
  int number = 0;
  int status = 0;
  char templ[FLEN_VALUE];
  std::snprintf(templ, sizeof templ, "%s", column);
  if (fits_get_colnum(fits, CASEINSEN, templ, &number, &status) != 0) {
    fits_clear_errmsg();
    return 0;
  }
  return number;
}

long column_repeat(fitsfile* fits, int column) {
  int type = 0;
  long repeat = 0, width = 0;
  int status = 0;
  fits_get_coltype(fits, column, &type, &repeat, &width, &status);
  return status == 0 ? repeat : 0;
}

// Moves to the named BINTABLE (any EXTVER: the first one found); false, back at the HDU it
// started from, when there is none. Walked here rather than by fits_movnam_hdu, which reports a
// header it cannot parse (a non-numeric NAXIS2, ...) as "no such HDU": that is a DataError.
// A file cut short says so, rather than what CFITSIO met where the bytes ended.
bool move_to_table(fitsfile* fits, const char* extname, const std::string& name) {
  int start_hdu = 1;
  fits_get_hdu_num(fits, &start_hdu);
  const LONGLONG file_bytes = fits->Fptr->logfilesize;
  for (int hdu = 2;; ++hdu) {
    int status = 0, type = 0;
    LONGLONG head = 0, data = 0, next = 0;  // of the HDU before this one
    fits_get_hduaddrll(fits, &head, &data, &next, &status);
    if (fits_movabs_hdu(fits, hdu, &type, &status) != 0) {
      if (status != END_OF_FILE && next < file_bytes && next + 2880 > file_bytes)
        throw file_error(name, "truncated: the file ends " + std::to_string(file_bytes - next) +
                                   " bytes into HDU " + std::to_string(hdu) + "'s header");
      if (status != END_OF_FILE)
        throw_fits_error(name, "HDU " + std::to_string(hdu) + ": cannot read its header", status);
      fits_clear_errmsg();
      status = 0;
      fits_movabs_hdu(fits, start_hdu, nullptr, &status);
      return false;
    }
    const std::string found = fits_string_key(fits, "EXTNAME").value_or("");
    if (type == BINARY_TBL && fits_normalised_name(found) == extname) {
      // Its rows and heap must be in the file (the last block's padding may be missing).
      LONGLONG naxis1 = 0, naxis2 = 0, pcount = 0;
      fits_read_key(fits, TLONGLONG, "NAXIS1", &naxis1, nullptr, &status);
      fits_read_key(fits, TLONGLONG, "NAXIS2", &naxis2, nullptr, &status);
      fits_read_key(fits, TLONGLONG, "PCOUNT", &pcount, nullptr, &status);
      fits_get_hduaddrll(fits, &head, &data, &next, &status);
      const double needed = double(data) + double(naxis1) * double(naxis2) + double(pcount);
      if (status == 0 && naxis1 >= 0 && naxis2 >= 0 && pcount >= 0 && needed > double(file_bytes)) {
        char text[160];
        std::snprintf(text, sizeof text, "truncated: the %s table needs %.0f bytes, the file has %lld",
                      extname, needed, (long long)file_bytes);
        throw file_error(name, text);
      }
      fits_clear_errmsg();
      return true;
    }
  }
}

void check_frame(fitsfile* fits, const std::string& name, std::vector<std::string>* warnings) {
  const auto frame = fits_string_key(fits, "FRAME");
  if (!frame) {
    warn(warnings, name, "AIPS AN table has no FRAME; assuming ITRF");
  } else if (fits_normalised_name(*frame) != "ITRF") {
    warn(warnings, name, "AIPS AN table FRAME '" + *frame + "'; positions taken as ITRF");
  }
}

std::vector<std::string> read_names(fitsfile* fits, const std::string& name, long long nrows) {
  std::vector<std::string> names(nrows);
  const int column = find_column(fits, "ANNAME");
  if (column == 0) {
    for (long long r = 0; r < nrows; ++r) names[r] = std::to_string(r + 1);
    return names;
  }
  int type = 0;
  long width = 0, unused = 0;
  int status = 0;
  fits_get_coltype(fits, column, &type, &width, &unused, &status);
  // CFITSIO would format a numeric column as text of its own width; only 'nA' is a name.
  if (status != 0 || type != TSTRING || width <= 0 || width > 1 << 16)
    throw file_error(name, "AIPS AN table: ANNAME is not a character column");
  std::vector<char> buffer(width + 1, '\0');
  for (long long r = 0; r < nrows; ++r) {
    char* cell = buffer.data();
    int anynul = 0;
    fits_read_col_str(fits, column, r + 1, 1, 1, nullptr, &cell, &anynul, &status);
    if (status != 0) throw_fits_error(name, "AIPS AN table: cannot read ANNAME", status);
    names[r] = cell;
    while (!names[r].empty() && names[r].back() == ' ') names[r].pop_back();
  }
  return names;
}

std::vector<double> read_doubles(fitsfile* fits, const std::string& name, const char* column_name,
                                 long long nrows, long per_row) {
  const int column = find_column(fits, column_name);
  if (column == 0) return {};
  if (column_repeat(fits, column) < per_row)
    throw file_error(name, std::string("AIPS AN table: column ") + column_name +
                               " has fewer than " + std::to_string(per_row) + " values per row");
  std::vector<double> values(static_cast<size_t>(nrows) * per_row);
  for (long long r = 0; r < nrows; ++r) {
    int status = 0, anynul = 0;
    fits_read_col_dbl(fits, column, r + 1, 1, per_row, 0.0, &values[r * per_row], &anynul,
                      &status);
    if (status != 0)
      throw_fits_error(name, std::string("AIPS AN table: cannot read ") + column_name, status);
  }
  return values;
}

}  // namespace

UvfitsAntennaTable read_uvfits_an_table(fitsfile* fits, const std::string& name,
                                        size_t file_bytes, std::vector<std::string>* warnings) {
  if (!move_to_table(fits, "AIPS AN", name)) throw file_error(name, "UVFITS has no AIPS AN table");
  long long nrows = 0;
  int status = 0;
  fits_get_num_rowsll(fits, &nrows, &status);
  const long long row_bytes = fits_int_key(fits, "NAXIS1").value_or(1);
  if (status != 0 || nrows < 0 || row_bytes < 1 ||
      nrows > static_cast<long long>(file_bytes) / row_bytes)
    throw file_error(name, "AIPS AN table: row count " + std::to_string(nrows) +
                               " does not fit in the file");
  check_frame(fits, name, warnings);
  UvfitsAntennaTable table;
  ArrayLayout& layout = table.layout;
  layout.telescope = fits_string_key(fits, "ARRNAM").value_or("");
  const ItrfPosition centre = {fits_double_key(fits, "ARRAYX").value_or(0),
                               fits_double_key(fits, "ARRAYY").value_or(0),
                               fits_double_key(fits, "ARRAYZ").value_or(0)};
  // An array on Earth (or in orbit): within ten Earth radii of its centre.
  constexpr double kFarthestCentre_m = 6.4e7;
  require_in_range(name, "ARRAYX", centre[0], "m", -kFarthestCentre_m, kFarthestCentre_m);
  require_in_range(name, "ARRAYY", centre[1], "m", -kFarthestCentre_m, kFarthestCentre_m);
  require_in_range(name, "ARRAYZ", centre[2], "m", -kFarthestCentre_m, kFarthestCentre_m);
  // Two conventions, told apart as pyuvdata does: with the array centre at the origin (CASA,
  // rapt) STABXYZ are ITRF positions; with a centre (AIPS memo 117, cotter, pyuvdata) they are
  // offsets from it in the ITRF frame turned about z to the centre's meridian.
  const bool centred = centre[0] != 0 || centre[1] != 0 || centre[2] != 0;
  const double longitude = centred ? std::atan2(centre[1], centre[0]) : 0.0;
  const double cos_lon = std::cos(longitude), sin_lon = std::sin(longitude);
  const std::vector<std::string> names = read_names(fits, name, nrows);
  const std::vector<double> xyz = read_doubles(fits, name, "STABXYZ", nrows, 3);
  if (xyz.empty()) throw file_error(name, "AIPS AN table has no STABXYZ column");
  const std::vector<double> nosta = read_doubles(fits, name, "NOSTA", nrows, 1);
  const std::vector<double> diameter = read_doubles(fits, name, "DIAMETER", nrows, 1);
  std::unordered_set<long long> seen;
  for (long long r = 0; r < nrows; ++r) {
    Antenna antenna;
    antenna.name = names[r];
    const double* v = &xyz[size_t(r) * 3];
    antenna.itrf_m = {centre[0] + cos_lon * v[0] - sin_lon * v[1],
                      centre[1] + sin_lon * v[0] + cos_lon * v[1], centre[2] + v[2]};
    if (!diameter.empty() && std::isfinite(diameter[r])) antenna.dish_diameter_m = diameter[r];
    const double number = nosta.empty() ? r + 1 : nosta[r];
    if (!(std::fabs(number) < 1e15) || !seen.insert(std::llround(number)).second)
      throw file_error(name, "AIPS AN table: NOSTA " + std::to_string(number) + " in row " +
                                 std::to_string(r + 1) + " is repeated or invalid");
    table.numbers.push_back(std::llround(number));
    layout.antennas.push_back(std::move(antenna));
  }
  // The reference: the centre given, else OBSGEO-X/Y/Z (rapt writes them), else the antennas'
  // mean (as the MS reader takes it).
  layout.reference_itrf_m = centre;
  const std::optional<double> geo[3] = {fits_double_key(fits, "OBSGEO-X"),
                                        fits_double_key(fits, "OBSGEO-Y"),
                                        fits_double_key(fits, "OBSGEO-Z")};
  const auto finite = [](const std::optional<double>& v) { return v && std::isfinite(*v); };
  if (!centred && finite(geo[0]) && finite(geo[1]) && finite(geo[2])) {
    layout.reference_itrf_m = {*geo[0], *geo[1], *geo[2]};
  } else if (!centred) {
    layout.reference_itrf_m = layout.mean_antenna_position();
  }
  return table;
}

std::vector<double> read_uvfits_if_offsets(fitsfile* fits, const std::string& name, int nif,
                                           std::vector<std::string>* warnings) {
  if (!move_to_table(fits, "AIPS FQ", name)) {
    if (nif == 1) return {0.0};
    throw file_error(name, std::to_string(nif) +
                               " IFs but no AIPS FQ table gives their frequencies");
  }
  const int column = find_column(fits, "IF FREQ");
  long long nrows = 0;
  int status = 0;
  fits_get_num_rowsll(fits, &nrows, &status);
  if (column == 0 || nrows < 1 || column_repeat(fits, column) < nif) {
    if (nif == 1) {
      warn(warnings, name, "AIPS FQ table has no usable IF FREQ; IF offset taken as 0");
      return {0.0};
    }
    throw file_error(name, "AIPS FQ table: IF FREQ missing or shorter than " +
                               std::to_string(nif) + " IFs");
  }
  std::vector<double> offsets(nif);
  int anynul = 0;
  fits_read_col_dbl(fits, column, 1, 1, nif, 0.0, offsets.data(), &anynul, &status);
  if (status != 0) throw_fits_error(name, "AIPS FQ table: cannot read IF FREQ", status);
  if (nrows > 1) warn(warnings, name, "AIPS FQ table has several rows; using FRQSEL row 1");
  return offsets;
}

}  // namespace rapt
