// UVFITS writing: AIPS random groups (NAXIS 7, float32, one IF, one subarray) followed by the
// AIPS AN and FQ tables, written under a temporary name and renamed into place.
//
// Groups are appended as rows arrive (open_uvfits_writer), so memory does not grow with the
// observation. GCOUNT, the one header value that depends on how many groups there are, is
// written as 1 and set at commit() before the tables go after the groups; CFITSIO lets the
// primary array grow while it is the last HDU. write_uvfits() is the same writer fed once.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/uvfits.hpp"
#include "io/uvfits_cfitsio.hpp"
#include "io/uvfits_tables.hpp"
#include "io/visibility_writer.hpp"
#include "io/visibility_writer_checks.hpp"

namespace rapt {

namespace {

constexpr double kSpeedOfLight_m_per_s = 299792458.0;
constexpr double kMjdToJd = 2400000.5;
constexpr double kRadToDeg = 180.0 / M_PI;
constexpr double kDayWithoutRows_mjd = 51544.0;  // J2000's day, when there is nothing to date

UsageError usage_error(const std::string& path, const std::string& problem) {
  return UsageError(path + ": " + problem);
}

void check_metadata(const std::string& path, const VisibilitySet& vis) {
  if (vis.nchan() == 0 || vis.nstokes() == 0)
    throw usage_error(path, "cannot write UVFITS without channels and correlation products");
  if (vis.array.size() > 2047)
    throw usage_error(path, "UVFITS antenna numbers stop at 2047; the array has " +
                                std::to_string(vis.array.size()));
}

void check_rows(const std::string& path, const VisibilitySet& vis) {
  const size_t rows = vis.nrows();
  const size_t cells = rows * vis.nchan() * vis.nstokes();
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

// Whether the codes run by +1 or by -1 throughout: one STOKES axis as they stand.
bool runs_by_one(const std::vector<int>& codes) {
  const int step = codes.size() > 1 ? codes[1] - codes[0] : 1;
  if (step != 1 && step != -1) return false;
  for (size_t k = 1; k < codes.size(); ++k)
    if (codes[k] - codes[k - 1] != step) return false;
  return true;
}

// The order the STOKES axis takes the products in: order[q] is the product written q-th. The
// input's own order where its codes already run by +-1; otherwise the codes sorted (Stokes
// I..V up, correlation products down), so that a Measurement Set's RR RL LR LL or XX XY YX YY
// goes out as RR LL RL LR or XX YY XY YX. Identity where no order makes them consecutive
// (stokes_step then refuses them).
std::vector<size_t> stokes_axis_order(const std::vector<int>& codes) {
  std::vector<size_t> order(codes.size());
  for (size_t q = 0; q < order.size(); ++q) order[q] = q;
  if (runs_by_one(codes)) return order;
  const bool down = codes[0] < 0;
  std::vector<size_t> sorted = order;
  std::stable_sort(sorted.begin(), sorted.end(), [&](size_t a, size_t b) {
    return down ? codes[a] > codes[b] : codes[a] < codes[b];
  });
  std::vector<int> sorted_codes;
  for (const size_t q : sorted) sorted_codes.push_back(codes[q]);
  return runs_by_one(sorted_codes) ? sorted : order;
}

// `vis` with its products in `order` (a copy; rows and metadata alike).
VisibilitySet with_products_in(const VisibilitySet& vis, const std::vector<size_t>& order) {
  VisibilitySet out = vis;
  const size_t np = order.size();
  for (size_t q = 0; q < np; ++q) out.stokes[q] = vis.stokes[order[q]];
  const size_t cells = vis.vis.size() / std::max<size_t>(np, 1);
  for (size_t c = 0; c < cells; ++c)
    for (size_t q = 0; q < np; ++q) {
      out.vis[c * np + q] = vis.vis[c * np + order[q]];
      if (!vis.weight.empty()) out.weight[c * np + q] = vis.weight[c * np + order[q]];
      if (!vis.flag.empty()) out.flag[c * np + q] = vis.flag[c * np + order[q]];
    }
  return out;
}

bool is_identity(const std::vector<size_t>& order) {
  for (size_t q = 0; q < order.size(); ++q)
    if (order[q] != q) return false;
  return true;
}

// The STOKES axis step (+1 or -1); codes must follow it.
int stokes_step(const std::string& path, const VisibilitySet& vis) {
  const std::vector<int>& s = vis.stokes;
  for (int code : s)
    if (code == 0 || code < -8 || code > 4)
      throw usage_error(path, "Stokes code " + std::to_string(code) + " is not valid");
  if (!runs_by_one(s))
    throw usage_error(path, "correlation products are not consecutive Stokes codes; "
                            "UVFITS has one STOKES axis");
  return s.size() > 1 ? s[1] - s[0] : (s[0] < 0 ? -1 : 1);
}

// The UTC day (MJD of its 0h) that the first DATE parameter's PZERO names.
double first_day_mjd(const std::vector<double>& time_mjd) {
  return std::floor(*std::min_element(time_mjd.begin(), time_mjd.end()));
}

struct ParamPlan {
  std::vector<std::string> names;
  std::vector<double> zeros;
  bool with_baseline = false;
  double day_mjd = 0;  // DATE PZERO is this day's 0h, as JD
};

ParamPlan plan_params(const VisibilitySet& vis, double day_mjd) {
  ParamPlan plan;
  plan.with_baseline = vis.array.size() <= 255;
  plan.day_mjd = day_mjd;
  plan.names = {"UU", "VV", "WW", "DATE", "DATE"};
  plan.zeros = {0, 0, 0, plan.day_mjd + kMjdToJd, 0};
  if (plan.with_baseline) plan.names.push_back("BASELINE");
  for (const char* n : {"ANTENNA1", "ANTENNA2", "SUBARRAY", "INTTIM"}) plan.names.push_back(n);
  plan.zeros.resize(plan.names.size(), 0.0);
  return plan;
}

// Right ascension in [0, 360) degrees, as FITS readers expect it.
double ra_in_degrees(double ra_rad) {
  const double ra_deg = std::fmod(ra_rad * kRadToDeg, 360.0);
  return ra_deg < 0 ? ra_deg + 360.0 : ra_deg;
}

void write_axis(fitsfile* f, int n, const char* ctype, double crval, double cdelt, int* status) {
  const std::string num = std::to_string(n);
  const double crpix = 1.0;
  fits_write_key_str(f, ("CTYPE" + num).c_str(), ctype, nullptr, status);
  fits_write_key_dbl(f, ("CRVAL" + num).c_str(), crval, -15, nullptr, status);
  fits_write_key_dbl(f, ("CDELT" + num).c_str(), cdelt, -15, nullptr, status);
  fits_write_key_dbl(f, ("CRPIX" + num).c_str(), crpix, -15, nullptr, status);
}

// The primary header with GCOUNT 1 (CFITSIO will not start from 0); set_group_count() gives
// the real count at the end.
void write_primary_header(FitsOutputFile& out, const VisibilitySet& vis, const ParamPlan& plan,
                          double step_hz, int stokes_cdelt) {
  fitsfile* f = out.get();
  int status = 0;
  long naxes[7] = {0, 3, long(vis.nstokes()), long(vis.nchan()), 1, 1, 1};
  fits_write_grphdr(f, 1, FLOAT_IMG, 7, naxes, long(plan.names.size()), 1, 1, &status);
  for (size_t i = 0; i < plan.names.size(); ++i) {
    const std::string num = std::to_string(i + 1);
    fits_write_key_str(f, ("PTYPE" + num).c_str(), plan.names[i].c_str(), nullptr, &status);
    fits_write_key_dbl(f, ("PSCAL" + num).c_str(), 1.0, -15, nullptr, &status);
    fits_write_key_dbl(f, ("PZERO" + num).c_str(), plan.zeros[i], -15, nullptr, &status);
  }
  const double ra_deg = ra_in_degrees(vis.phase_centre_ra_rad);
  const double dec_deg = vis.phase_centre_dec_rad * kRadToDeg;
  const SkyDirection pointing = vis.pointing_or_phase_centre();
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
  // AIPS: the phase centre is the RA/DEC axes' CRVAL, OBSRA/OBSDEC the antennas' pointing
  // (what a primary-beam correction centres on); they differ for re-phased visibilities.
  fits_write_key_dbl(f, "OBSRA", ra_in_degrees(pointing.ra_rad), -15, "pointing RA, deg",
                     &status);
  fits_write_key_dbl(f, "OBSDEC", pointing.dec_rad * kRadToDeg, -15, "pointing Dec, deg",
                     &status);
  fits_write_key_str(f, "DATE-OBS", uvfits_date_text(plan.day_mjd).c_str(), nullptr, &status);
  fits_write_key_str(f, "ORIGIN", "rapt", nullptr, &status);
  out.check(status, "cannot write the UVFITS header");
}

// GCOUNT now that every group is written; CFITSIO then re-reads the HDU's size, so the tables
// that follow start after the last group.
void set_group_count(FitsOutputFile& out, size_t groups) {
  int status = 0;
  fits_update_key_lng(out.get(), "GCOUNT", static_cast<LONGLONG>(groups), nullptr, &status);
  fits_set_hdustruc(out.get(), &status);
  out.check(status, "cannot complete the UVFITS header");
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

// Writes the rows of `vis` as groups first_group + 1, first_group + 2, ... (1-based on disk).
void write_groups(FitsOutputFile& out, const VisibilitySet& vis, const ParamPlan& plan,
                  size_t first_group) {
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
    const long group = long(first_group + r + 1);
    fits_write_grppar_flt(out.get(), group, 1, long(params.size()), params.data(), &status);
    fits_write_img_flt(out.get(), group, 1, long(data.size()), data.data(), &status);
  }
  out.check(status, "cannot write the visibilities");
}

// The FREQ and STOKES axis increments, once the metadata is known to fit one UVFITS file.
struct AxisSteps {
  double freq_hz;
  int stokes;
};

AxisSteps checked_axis_steps(const std::string& path, const VisibilitySet& metadata) {
  check_metadata(path, metadata);
  return {channel_step_hz(path, metadata), stokes_step(path, metadata)};
}

class UvfitsWriter final : public VisibilityWriter {
 public:
  // Everything about the metadata is checked before the temporary file is created.
  UvfitsWriter(const std::string& path, const VisibilitySet& metadata, bool overwrite)
      : path_(path),
        input_stokes_(metadata.stokes),
        order_(stokes_axis_order(metadata.stokes)),
        metadata_(with_products_in(visibility_metadata(metadata), order_)),
        steps_(checked_axis_steps(path, metadata_)),
        out_(path, overwrite) {
    // Times given with the metadata fix the DATE day now; otherwise the first rows do.
    if (!metadata.time_mjd.empty()) start_groups(first_day_mjd(metadata.time_mjd));
  }

  void append(const VisibilitySet& given) override {
    check_usable();
    if (given.stokes != input_stokes_) {  // refused, naming the products as they were given
      VisibilitySet as_given = metadata_;
      as_given.stokes = input_stokes_;
      check_append_metadata(path_, as_given, given);
    }
    // The products in the STOKES axis's order (a copy only where that differs from theirs).
    std::optional<VisibilitySet> reordered;
    if (!is_identity(order_)) reordered = with_products_in(given, order_);
    const VisibilitySet& rows = reordered ? *reordered : given;
    check_append_metadata(path_, metadata_, rows);
    check_rows(path_, rows);
    if (rows.nrows() == 0) return;
    failed_ = true;  // until the groups are all written
    if (!plan_) start_groups(first_day_mjd(rows.time_mjd));
    write_groups(out_, rows, *plan_, rows_);
    rows_ += rows.nrows();
    failed_ = false;
  }

  void commit() override {
    check_usable();
    failed_ = true;  // a failed commit cannot be retried: the temporary is gone
    if (!plan_) start_groups(kDayWithoutRows_mjd);
    set_group_count(out_, rows_);
    write_uvfits_an_table(out_, metadata_, plan_->day_mjd);
    write_uvfits_fq_table(out_, metadata_);
    out_.commit();
    failed_ = false;
    committed_ = true;
  }

  size_t rows_written() const override { return rows_; }

 private:
  // The primary header, once the day that DATE counts from is known. Rows of later (or
  // earlier) days are dated from the same 0h: the two float32 DATE parts keep any time within
  // years of it to well under a microsecond, only DATE-OBS and the AN table's RDATE name the
  // day of the first rows.
  void start_groups(double day_mjd) {
    plan_ = plan_params(metadata_, day_mjd);
    write_primary_header(out_, metadata_, *plan_, steps_.freq_hz, steps_.stokes);
  }

  void check_usable() const {
    if (committed_) throw usage_error(path_, "the UVFITS file is already complete");
    if (failed_) throw file_error(path_, "an earlier write to the UVFITS file failed");
  }

  std::string path_;
  std::vector<int> input_stokes_;  // the products as the caller gives them
  std::vector<size_t> order_;      // ... and as the file holds them (stokes_axis_order)
  VisibilitySet metadata_;         // in the file's order
  AxisSteps steps_;
  FitsOutputFile out_;
  std::optional<ParamPlan> plan_;  // set once the primary header is written
  size_t rows_ = 0;
  bool failed_ = false;
  bool committed_ = false;
};

}  // namespace

std::unique_ptr<VisibilityWriter> open_uvfits_writer(const std::string& path,
                                                     const VisibilitySet& metadata,
                                                     bool overwrite) {
  return std::make_unique<UvfitsWriter>(path, metadata, overwrite);
}

void write_uvfits(const std::string& path, const VisibilitySet& vis, bool overwrite) {
  const std::unique_ptr<VisibilityWriter> writer = open_uvfits_writer(path, vis, overwrite);
  writer->append(vis);
  writer->commit();
}

}  // namespace rapt
