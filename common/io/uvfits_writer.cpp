// UVFITS writing: AIPS random groups (NAXIS 7, float32, one IF, one subarray) followed by the
// AIPS AN and FQ tables, written under a temporary name and renamed into place.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/uvfits.hpp"
#include "io/uvfits_cfitsio.hpp"
#include "io/uvfits_tables.hpp"

namespace rapt {

namespace {

constexpr double kSpeedOfLight_m_per_s = 299792458.0;
constexpr double kMjdToJd = 2400000.5;
constexpr double kRadToDeg = 180.0 / M_PI;

UsageError usage_error(const std::string& path, const std::string& problem) {
  return UsageError(path + ": " + problem);
}

void check_sizes(const std::string& path, const VisibilitySet& vis) {
  const size_t rows = vis.nrows();
  const size_t cells = rows * vis.nchan() * vis.nstokes();
  if (vis.nchan() == 0 || vis.nstokes() == 0)
    throw usage_error(path, "cannot write UVFITS without channels and correlation products");
  if (vis.antenna2.size() != rows || vis.time_mjd.size() != rows || vis.uvw_m.size() != rows ||
      vis.integration_s.size() != rows || vis.vis.size() != cells ||
      vis.weight.size() != cells || vis.flag.size() != cells)
    throw usage_error(path, "visibility set arrays disagree in size with " +
                                std::to_string(rows) + " rows");
  for (size_t r = 0; r < rows; ++r)
    if (vis.antenna1[r] < 0 || vis.antenna2[r] < 0 || vis.antenna1[r] >= vis.array.size() ||
        vis.antenna2[r] >= vis.array.size())
      throw usage_error(path, "row " + std::to_string(r) + ": antenna index outside the " +
                                  std::to_string(vis.array.size()) + "-antenna array");
  if (vis.array.size() > 2047)
    throw usage_error(path, "UVFITS antenna numbers stop at 2047; the array has " +
                                std::to_string(vis.array.size()));
}

// The FREQ axis step; channels must lie on it (to 1e-6 of a channel). The set's own channel
// width is preferred when it is the spacing, so a file read and written keeps its CDELT exactly.
double channel_step_hz(const std::string& path, const VisibilitySet& vis) {
  const std::vector<double>& f = vis.channel_freq_hz;
  double step = f.size() > 1 ? (f.back() - f[0]) / double(f.size() - 1) : vis.channel_width_hz;
  if (std::fabs(vis.channel_width_hz - step) <= 1e-9 * std::fabs(step)) step = vis.channel_width_hz;
  if (step == 0 || !std::isfinite(step))
    throw usage_error(path, "channel width is zero; UVFITS needs a FREQ axis increment");
  for (size_t k = 0; k < f.size(); ++k)
    if (std::fabs(f[k] - (f[0] + k * step)) > 1e-6 * std::fabs(step))
      throw usage_error(path, "channels are not evenly spaced (channel " + std::to_string(k) +
                                  " at " + std::to_string(f[k]) + " Hz); UVFITS has one FREQ axis");
  return step;
}

// The STOKES axis step (+1 or -1); codes must follow it.
int stokes_step(const std::string& path, const VisibilitySet& vis) {
  const std::vector<int>& s = vis.stokes;
  for (int code : s)
    if (code == 0 || code < -8 || code > 4)
      throw usage_error(path, "Stokes code " + std::to_string(code) + " is not valid");
  const int step = s.size() > 1 ? s[1] - s[0] : (s[0] < 0 ? -1 : 1);
  for (size_t k = 1; k < s.size(); ++k)
    if (s[k] - s[k - 1] != step || (step != 1 && step != -1))
      throw usage_error(path, "correlation products are not consecutive Stokes codes; "
                              "UVFITS has one STOKES axis");
  return step;
}

struct ParamPlan {
  std::vector<std::string> names;
  std::vector<double> zeros;
  bool with_baseline = false;
  double day_mjd = 0;  // DATE PZERO is this day's 0h, as JD
};

ParamPlan plan_params(const VisibilitySet& vis) {
  ParamPlan plan;
  plan.with_baseline = vis.array.size() <= 255;
  plan.day_mjd = vis.time_mjd.empty()
                     ? 51544.0
                     : std::floor(*std::min_element(vis.time_mjd.begin(), vis.time_mjd.end()));
  plan.names = {"UU", "VV", "WW", "DATE", "DATE"};
  plan.zeros = {0, 0, 0, plan.day_mjd + kMjdToJd, 0};
  if (plan.with_baseline) plan.names.push_back("BASELINE");
  for (const char* n : {"ANTENNA1", "ANTENNA2", "SUBARRAY", "INTTIM"}) plan.names.push_back(n);
  plan.zeros.resize(plan.names.size(), 0.0);
  return plan;
}

void write_axis(fitsfile* f, int n, const char* ctype, double crval, double cdelt, int* status) {
  const std::string num = std::to_string(n);
  const double crpix = 1.0;
  fits_write_key_str(f, ("CTYPE" + num).c_str(), ctype, nullptr, status);
  fits_write_key_dbl(f, ("CRVAL" + num).c_str(), crval, -15, nullptr, status);
  fits_write_key_dbl(f, ("CDELT" + num).c_str(), cdelt, -15, nullptr, status);
  fits_write_key_dbl(f, ("CRPIX" + num).c_str(), crpix, -15, nullptr, status);
}

void write_primary_header(FitsOutputFile& out, const VisibilitySet& vis, const ParamPlan& plan,
                          double step_hz, int stokes_cdelt) {
  fitsfile* f = out.get();
  int status = 0;
  long naxes[7] = {0, 3, long(vis.nstokes()), long(vis.nchan()), 1, 1, 1};
  fits_write_grphdr(f, 1, FLOAT_IMG, 7, naxes, long(plan.names.size()), long(vis.nrows()), 1,
                    &status);
  for (size_t i = 0; i < plan.names.size(); ++i) {
    const std::string num = std::to_string(i + 1);
    fits_write_key_str(f, ("PTYPE" + num).c_str(), plan.names[i].c_str(), nullptr, &status);
    fits_write_key_dbl(f, ("PSCAL" + num).c_str(), 1.0, -15, nullptr, &status);
    fits_write_key_dbl(f, ("PZERO" + num).c_str(), plan.zeros[i], -15, nullptr, &status);
  }
  double ra_deg = std::fmod(vis.phase_centre_ra_rad * kRadToDeg, 360.0);
  if (ra_deg < 0) ra_deg += 360.0;
  const double dec_deg = vis.phase_centre_dec_rad * kRadToDeg;
  write_axis(f, 2, "COMPLEX", 1.0, 1.0, &status);
  write_axis(f, 3, "STOKES", vis.stokes[0], stokes_cdelt, &status);
  write_axis(f, 4, "FREQ", vis.channel_freq_hz[0], step_hz, &status);
  write_axis(f, 5, "IF", 1.0, 1.0, &status);
  write_axis(f, 6, "RA", ra_deg, 1.0, &status);
  write_axis(f, 7, "DEC", dec_deg, 1.0, &status);
  const double one = 1.0, zero = 0.0, epoch = 2000.0;
  fits_write_key(f, TDOUBLE, "BSCALE", const_cast<double*>(&one), nullptr, &status);
  fits_write_key(f, TDOUBLE, "BZERO", const_cast<double*>(&zero), nullptr, &status);
  fits_write_key_str(f, "BUNIT", "UNCALIB", nullptr, &status);
  fits_write_key_str(f, "OBJECT", vis.object.c_str(), nullptr, &status);
  fits_write_key_str(f, "TELESCOP", vis.telescope.c_str(), nullptr, &status);
  fits_write_key_str(f, "INSTRUME", vis.instrument.c_str(), nullptr, &status);
  fits_write_key(f, TDOUBLE, "EPOCH", const_cast<double*>(&epoch), nullptr, &status);
  fits_write_key_dbl(f, "OBSRA", ra_deg, -15, "phase centre RA, deg", &status);
  fits_write_key_dbl(f, "OBSDEC", dec_deg, -15, "phase centre Dec, deg", &status);
  fits_write_key_str(f, "DATE-OBS", uvfits_date_text(plan.day_mjd).c_str(), nullptr, &status);
  fits_write_key_str(f, "ORIGIN", "rapt", nullptr, &status);
  out.check(status, "cannot write the UVFITS header");
}

// One group's parameters in plan order, PZERO already taken off. The time is split into a
// float32 part and its float32 remainder, which together keep it to well under a microsecond.
void group_params(const VisibilitySet& vis, const ParamPlan& plan, size_t r, float* p) {
  const double days = vis.time_mjd[r] - plan.day_mjd;
  const float date_main = static_cast<float>(days);
  int k = 0;
  for (int c = 0; c < 3; ++c) p[k++] = static_cast<float>(vis.uvw_m[r][c] / kSpeedOfLight_m_per_s);
  p[k++] = date_main;
  p[k++] = static_cast<float>(days - date_main);
  const int a1 = vis.antenna1[r] + 1, a2 = vis.antenna2[r] + 1;
  if (plan.with_baseline) p[k++] = static_cast<float>(encode_uvfits_baseline(a1, a2));
  p[k++] = static_cast<float>(a1);
  p[k++] = static_cast<float>(a2);
  p[k++] = 1.0f;
  p[k++] = vis.integration_s[r];
}

void write_groups(FitsOutputFile& out, const VisibilitySet& vis, const ParamPlan& plan) {
  const size_t cells = vis.nchan() * vis.nstokes();
  std::vector<float> params(plan.names.size());
  std::vector<float> data(3 * cells);
  int status = 0;
  for (size_t r = 0; r < vis.nrows() && status == 0; ++r) {
    group_params(vis, plan, r, params.data());
    for (size_t c = 0; c < cells; ++c) {
      const size_t i = r * cells + c;  // [chan][product] order matches the FITS axes
      data[3 * c] = vis.vis[i].real();
      data[3 * c + 1] = vis.vis[i].imag();
      data[3 * c + 2] = vis.flag[i] ? -std::fabs(vis.weight[i]) : std::fabs(vis.weight[i]);
    }
    fits_write_grppar_flt(out.get(), long(r + 1), 1, long(params.size()), params.data(), &status);
    fits_write_img_flt(out.get(), long(r + 1), 1, long(data.size()), data.data(), &status);
  }
  out.check(status, "cannot write the visibilities");
}

}  // namespace

void write_uvfits(const std::string& path, const VisibilitySet& vis, bool overwrite) {
  check_sizes(path, vis);
  const double step_hz = channel_step_hz(path, vis);
  const int stokes_cdelt = stokes_step(path, vis);
  const ParamPlan plan = plan_params(vis);
  FitsOutputFile out(path, overwrite);
  write_primary_header(out, vis, plan, step_hz, stokes_cdelt);
  write_groups(out, vis, plan);
  write_uvfits_an_table(out, vis);
  write_uvfits_fq_table(out, vis);
  out.commit();
}

}  // namespace rapt
