#include <erfa.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/uvfits_tables.hpp"

namespace rapt {

namespace {

constexpr double kMjdToJd = 2400000.5;
constexpr double kEarthRotation_deg_per_day = 360.985647366;

bool linear_feeds(const VisibilitySet& vis) {
  for (int code : vis.stokes)
    if (code <= -1 && code >= -4) return false;
  return true;
}

void write_an_keys(FitsOutputFile& out, const VisibilitySet& vis, double day_mjd) {
  fitsfile* f = out.get();
  int status = 0;
  int iy = 2000, im = 1, id = 1;
  double fd = 0, tai_utc_s = 0;
  eraJd2cal(kMjdToJd, day_mjd, &iy, &im, &id, &fd);
  if (eraDat(iy, im, id, 0.0, &tai_utc_s) < 0) tai_utc_s = 0;
  const double gst0_deg = eraGmst82(kMjdToJd, day_mjd) * 180.0 / M_PI;
  const std::string rdate = uvfits_date_text(day_mjd);
  const std::string telescope = vis.array.telescope.empty() ? vis.telescope : vis.array.telescope;
  int extver = 1, zero = 0, freqid = 1, nif = 1;
  double zero_d = 0, degpdy = kEarthRotation_deg_per_day;
  const double freq_hz = vis.channel_freq_hz.empty() ? 0.0 : vis.channel_freq_hz[0];
  const char* names[3] = {"ARRAYX", "ARRAYY", "ARRAYZ"};
  fits_write_key(f, TINT, "EXTVER", &extver, nullptr, &status);
  // The array centre at the origin, so that STABXYZ are the antennas' own ITRF positions (as
  // CASA writes them): with a centre given, readers (pyuvdata, after AIPS memo 117) take STABXYZ
  // as offsets in a frame turned to the centre's meridian, which only some writers use.
  for (int k = 0; k < 3; ++k)
    fits_write_key_dbl(f, names[k], 0.0, -15, "0: STABXYZ are ITRF positions, metres", &status);
  // The array's reference position, where the centre would have said it (FITS's observatory
  // location keys).
  const char* geo[3] = {"OBSGEO-X", "OBSGEO-Y", "OBSGEO-Z"};
  for (int k = 0; k < 3; ++k)
    fits_write_key_dbl(f, geo[k], vis.array.reference_itrf_m[k], -15, "array reference, ITRF, metres",
                       &status);
  fits_write_key_dbl(f, "GSTIA0", gst0_deg, -15, "GMST at 0h UTC on RDATE, deg", &status);
  fits_write_key_dbl(f, "DEGPDY", degpdy, -15, "Earth rotation, deg per day", &status);
  fits_write_key_dbl(f, "FREQ", freq_hz, -15, "reference frequency, Hz", &status);
  fits_write_key_str(f, "RDATE", rdate.c_str(), "reference date", &status);
  fits_write_key(f, TDOUBLE, "POLARX", &zero_d, nullptr, &status);
  fits_write_key(f, TDOUBLE, "POLARY", &zero_d, nullptr, &status);
  fits_write_key(f, TDOUBLE, "UT1UTC", &zero_d, nullptr, &status);
  fits_write_key(f, TDOUBLE, "DATUTC", &zero_d, nullptr, &status);
  fits_write_key(f, TDOUBLE, "IATUTC", &tai_utc_s, "TAI - UTC on RDATE, s", &status);
  fits_write_key_str(f, "TIMSYS", "UTC", nullptr, &status);
  fits_write_key_str(f, "ARRNAM", telescope.c_str(), nullptr, &status);
  fits_write_key_str(f, "XYZHAND", "RIGHT", nullptr, &status);
  fits_write_key_str(f, "FRAME", "ITRF", nullptr, &status);
  fits_write_key(f, TINT, "NUMORB", &zero, nullptr, &status);
  fits_write_key(f, TINT, "NOPCAL", &zero, nullptr, &status);
  fits_write_key_str(f, "POLTYPE", linear_feeds(vis) ? "X-Y LIN" : "R-L CIRC", nullptr, &status);
  fits_write_key(f, TINT, "FREQID", &freqid, nullptr, &status);
  fits_write_key(f, TINT, "NO_IF", &nif, nullptr, &status);
  out.check(status, "cannot write the AIPS AN header");
}

void write_an_rows(FitsOutputFile& out, const VisibilitySet& vis, bool with_diameter) {
  fitsfile* f = out.get();
  int status = 0;
  const char* feed_a = linear_feeds(vis) ? "X" : "R";
  const char* feed_b = linear_feeds(vis) ? "Y" : "L";
  for (int i = 0; i < vis.array.size(); ++i) {
    const Antenna& a = vis.array.antennas[i];
    const long long row = i + 1;
    char* name = const_cast<char*>(a.name.c_str());
    double xyz[3];
    for (int k = 0; k < 3; ++k) xyz[k] = a.itrf_m[k];
    int number = i + 1, mount = 0;  // NOSTA; MNTSTA 0 = alt-az
    float zero = 0.0f, diameter = static_cast<float>(a.dish_diameter_m);
    float angle_b = linear_feeds(vis) ? static_cast<float>(kLinearFeedYAngleDeg) : 0.0f;
    char* poltya = const_cast<char*>(feed_a);
    char* poltyb = const_cast<char*>(feed_b);
    fits_write_col_str(f, 1, row, 1, 1, &name, &status);
    fits_write_col_dbl(f, 2, row, 1, 3, xyz, &status);
    fits_write_col_int(f, 4, row, 1, 1, &number, &status);
    fits_write_col_int(f, 5, row, 1, 1, &mount, &status);
    fits_write_col_flt(f, 6, row, 1, 1, &zero, &status);
    fits_write_col_str(f, 7, row, 1, 1, &poltya, &status);
    fits_write_col_flt(f, 8, row, 1, 1, &zero, &status);
    fits_write_col_str(f, 10, row, 1, 1, &poltyb, &status);
    fits_write_col_flt(f, 11, row, 1, 1, &angle_b, &status);
    if (with_diameter) fits_write_col_flt(f, 13, row, 1, 1, &diameter, &status);
  }
  out.check(status, "cannot write the AIPS AN rows");
}

}  // namespace

std::string uvfits_date_text(double mjd) {
  int iy = 2000, im = 1, id = 1;
  double fd = 0;
  if (eraJd2cal(kMjdToJd, mjd, &iy, &im, &id, &fd) != 0) return "2000-01-01";
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02d-%02d", iy, im, id);
  return text;
}

// Columns of AIPS memo 117's AN table. ORBPARM (NUMORB = 0) and POLCALA/POLCALB (NOPCAL = 0) are
// present with zero width, as AIPS itself writes them; DIAMETER is added when dishes are known.
void write_uvfits_an_table(FitsOutputFile& out, const VisibilitySet& vis, double day_mjd) {
  bool with_diameter = false;
  size_t name_width = 8;
  for (const Antenna& a : vis.array.antennas) {
    with_diameter = with_diameter || a.dish_diameter_m > 0;
    name_width = std::max(name_width, a.name.size());
  }
  const std::string name_form = std::to_string(name_width) + "A";
  const char* ttype[] = {"ANNAME", "STABXYZ", "ORBPARM", "NOSTA",  "MNTSTA",  "STAXOF", "POLTYA",
                         "POLAA",  "POLCALA", "POLTYB",  "POLAB", "POLCALB", "DIAMETER"};
  const char* tform[] = {name_form.c_str(), "3D", "0D", "1J", "1J", "1E", "1A",
                         "1E", "0E", "1A", "1E", "0E", "1E"};
  const char* tunit[] = {"", "METERS", "", "", "", "METERS", "", "DEGREES", "", "", "DEGREES",
                         "", "METERS"};
  int status = 0;
  fits_create_tbl(out.get(), BINARY_TBL, vis.array.size(), with_diameter ? 13 : 12,
                  const_cast<char**>(ttype), const_cast<char**>(tform),
                  const_cast<char**>(tunit), "AIPS AN", &status);
  out.check(status, "cannot create the AIPS AN table");
  write_an_keys(out, vis, day_mjd);
  write_an_rows(out, vis, with_diameter);
}

void write_uvfits_fq_table(FitsOutputFile& out, const VisibilitySet& vis) {
  const char* ttype[] = {"FRQSEL", "IF FREQ", "CH WIDTH", "TOTAL BANDWIDTH", "SIDEBAND"};
  const char* tform[] = {"1J", "1D", "1E", "1E", "1J"};
  const char* tunit[] = {"", "HZ", "HZ", "HZ", ""};
  int status = 0;
  fitsfile* f = out.get();
  fits_create_tbl(f, BINARY_TBL, 1, 5, const_cast<char**>(ttype), const_cast<char**>(tform),
                  const_cast<char**>(tunit), "AIPS FQ", &status);
  int extver = 1, nif = 1, frqsel = 1;
  int sideband = vis.channel_width_hz < 0 ? -1 : 1;
  double offset_hz = 0;
  float width_hz = static_cast<float>(std::fabs(vis.channel_width_hz));
  float total_hz = static_cast<float>(std::fabs(vis.channel_width_hz) * vis.nchan());
  fits_write_key(f, TINT, "EXTVER", &extver, nullptr, &status);
  fits_write_key(f, TINT, "NO_IF", &nif, nullptr, &status);
  fits_write_col_int(f, 1, 1, 1, 1, &frqsel, &status);
  fits_write_col_dbl(f, 2, 1, 1, 1, &offset_hz, &status);
  fits_write_col_flt(f, 3, 1, 1, 1, &width_hz, &status);
  fits_write_col_flt(f, 4, 1, 1, 1, &total_hz, &status);
  fits_write_col_int(f, 5, 1, 1, 1, &sideband, &status);
  out.check(status, "cannot write the AIPS FQ table");
}

}  // namespace rapt
