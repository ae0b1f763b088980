// UVFITS reading: the random-groups primary HDU (axes, random parameters by PTYPE, groups) and,
// through uvfits_tables_reader.cpp, the AIPS AN and FQ tables.
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "cli/errors.hpp"
#include "io/uvfits.hpp"
#include "io/uvfits_cfitsio.hpp"
#include "io/uvfits_tables.hpp"

namespace rapt {

namespace {

constexpr double kSpeedOfLight_m_per_s = 299792458.0;
constexpr double kMjdToJd = 2400000.5;
constexpr long long kMaxAxisLength = 1 << 24;

void warn(std::vector<std::string>* warnings, const std::string& name, const std::string& text) {
  if (warnings) warnings->push_back(name + ": " + text);
}

// Offsets and lengths of the axes in one group's data, C order [...][freq][stokes][complex].
struct AxisLayout {
  long long ncomplex = 0, npol = 1, nchan = 0, nif = 1;
  long long stride_complex = 1, stride_stokes = 0, stride_freq = 0, stride_if = 0;
  long long values_per_group = 1;
  std::vector<int> stokes{1};
  double freq_ref_hz = 0, freq_delta_hz = 0, freq_ref_pixel = 1;
  std::optional<double> ra_deg, dec_deg;
};

struct ParamSlot {
  int index;  // 0-based position in the group's parameters
  double scale;
  double zero;
};

struct ParamLayout {
  long long pcount = 0;
  std::vector<ParamSlot> uu, vv, ww, date, baseline, antenna1, antenna2, subarray, inttim;
};

double slot_sum(const std::vector<ParamSlot>& slots, const double* raw) {
  double sum = 0;
  for (const ParamSlot& s : slots) sum += raw[s.index] * s.scale + s.zero;
  return sum;
}

// An integer-valued parameter, refusing what no integer type can hold.
long long whole_number(double value, const std::string& name, const char* what, long long g) {
  if (!(std::fabs(value) < 9e15))
    throw file_error(name, "group " + std::to_string(g) + ": " + what + " " +
                               std::to_string(value) + " is not a valid number");
  return std::llround(value);
}

std::vector<int> stokes_codes(double crval, double cdelt, double crpix, long long n,
                              const std::string& name) {
  std::vector<int> codes;
  for (long long k = 0; k < n; ++k) {
    const double code = crval + (k + 1 - crpix) * cdelt;
    const long long rounded = std::fabs(code) < 100 ? std::llround(code) : 0;
    if (rounded == 0 || rounded < -8 || rounded > 4)
      throw file_error(name, "STOKES axis value " + std::to_string(code) +
                                 " is not a Stokes or correlation code (1..4, -1..-8)");
    codes.push_back(static_cast<int>(rounded));
  }
  return codes;
}

void read_one_axis(fitsfile* fits, const std::string& name, int n, long long length,
                   long long stride, AxisLayout& axes) {
  const std::string num = std::to_string(n);
  const std::string ctype =
      fits_normalised_name(fits_string_key(fits, ("CTYPE" + num).c_str()).value_or(""));
  const double crval = fits_double_key(fits, ("CRVAL" + num).c_str()).value_or(0);
  const double cdelt = fits_double_key(fits, ("CDELT" + num).c_str()).value_or(1);
  const double crpix = fits_double_key(fits, ("CRPIX" + num).c_str()).value_or(1);
  if (ctype == "COMPLEX") {
    if (length != 2 && length != 3)
      throw file_error(name, "COMPLEX axis has length " + std::to_string(length) +
                                 "; expected 3 (re, im, weight) or 2");
    axes.ncomplex = length;
    axes.stride_complex = stride;
  } else if (ctype == "STOKES") {
    axes.npol = length;
    axes.stride_stokes = stride;
    axes.stokes = stokes_codes(crval, cdelt, crpix, length, name);
  } else if (ctype.rfind("FREQ", 0) == 0) {
    axes.nchan = length;
    axes.stride_freq = stride;
    axes.freq_ref_hz = crval;
    axes.freq_delta_hz = cdelt;
    axes.freq_ref_pixel = crpix;
  } else if (ctype == "IF") {
    axes.nif = length;
    axes.stride_if = stride;
  } else if (ctype.rfind("RA", 0) == 0 && length == 1) {
    axes.ra_deg = crval;
  } else if (ctype.rfind("DEC", 0) == 0 && length == 1) {
    axes.dec_deg = crval;
  } else if (length != 1) {
    throw file_error(name, "axis " + num + " ('" + ctype + "') has length " +
                               std::to_string(length) +
                               "; only COMPLEX, STOKES, FREQ and IF may be longer than 1");
  }
}

AxisLayout read_axes(fitsfile* fits, const std::string& name) {
  const long long naxis = fits_int_key(fits, "NAXIS").value_or(0);
  if (naxis < 3 || naxis > 999) throw file_error(name, "NAXIS " + std::to_string(naxis) +
                                                          ": too few axes for UVFITS");
  AxisLayout axes;
  for (int n = 2; n <= naxis; ++n) {
    const long long length =
        fits_int_key(fits, ("NAXIS" + std::to_string(n)).c_str()).value_or(-1);
    if (length < 1 || length > kMaxAxisLength || axes.values_per_group > (1LL << 30) / length)
      throw file_error(name, "NAXIS" + std::to_string(n) + " = " + std::to_string(length) +
                                 " is missing or out of range");
    read_one_axis(fits, name, n, length, axes.values_per_group, axes);
    axes.values_per_group *= length;
  }
  if (axes.ncomplex == 0) throw file_error(name, "UVFITS has no COMPLEX axis");
  if (axes.nchan == 0) throw file_error(name, "UVFITS has no FREQ axis");
  return axes;
}

std::vector<ParamSlot>* slot_list(ParamLayout& params, const std::string& ptype,
                                  const std::string& name) {
  const auto is = [&](const char* base) {
    const std::string b(base);
    return ptype == b || ptype.rfind(b + "-", 0) == 0;
  };
  if (is("UU") || is("VV") || is("WW")) {
    if (ptype.find("NCP") != std::string::npos)
      throw file_error(name, "random parameter " + ptype + ": NCP-projected uvw is not supported");
    return is("UU") ? &params.uu : is("VV") ? &params.vv : &params.ww;
  }
  if (ptype == "DATE") return &params.date;
  if (ptype == "BASELINE") return &params.baseline;
  if (ptype == "ANTENNA1") return &params.antenna1;
  if (ptype == "ANTENNA2") return &params.antenna2;
  if (ptype == "SUBARRAY") return &params.subarray;
  if (ptype == "INTTIM") return &params.inttim;
  return nullptr;  // LST, SOURCE, FREQSEL, ... are not needed
}

ParamLayout read_params(fitsfile* fits, const std::string& name) {
  ParamLayout params;
  params.pcount = fits_int_key(fits, "PCOUNT").value_or(0);
  if (params.pcount < 1 || params.pcount > 999)
    throw file_error(name, "PCOUNT " + std::to_string(params.pcount) +
                               ": UVFITS needs random parameters");
  for (int i = 1; i <= params.pcount; ++i) {
    const std::string num = std::to_string(i);
    const std::string ptype =
        fits_normalised_name(fits_string_key(fits, ("PTYPE" + num).c_str()).value_or(""));
    double scale = fits_double_key(fits, ("PSCAL" + num).c_str()).value_or(1.0);
    if (scale == 0 || !std::isfinite(scale)) scale = 1.0;
    double zero = fits_double_key(fits, ("PZERO" + num).c_str()).value_or(0.0);
    if (!std::isfinite(zero)) zero = 0.0;
    if (std::vector<ParamSlot>* list = slot_list(params, ptype, name))
      list->push_back({i - 1, scale, zero});
  }
  if (params.uu.empty() || params.vv.empty() || params.ww.empty())
    throw file_error(name, "UVFITS lacks a UU, VV or WW random parameter");
  if (params.date.empty()) throw file_error(name, "UVFITS lacks the DATE random parameter");
  const bool explicit_antennas = !params.antenna1.empty() && !params.antenna2.empty();
  if (!explicit_antennas && params.baseline.empty())
    throw file_error(name, "UVFITS has neither BASELINE nor ANTENNA1/ANTENNA2 parameters");
  return params;
}

long long check_group_bytes(fitsfile* fits, const std::string& name, size_t file_bytes,
                            const AxisLayout& axes, const ParamLayout& params) {
  const long long gcount = fits_int_key(fits, "GCOUNT").value_or(1);
  const long long bitpix = fits_int_key(fits, "BITPIX").value_or(0);
  LONGLONG head_start = 0, data_start = 0, data_end = 0;
  int status = 0;
  fits_get_hduaddrll(fits, &head_start, &data_start, &data_end, &status);
  if (status != 0) throw_fits_error(name, "primary HDU", status);
  const long double group_bytes =
      static_cast<long double>(params.pcount + axes.values_per_group) * (std::llabs(bitpix) / 8);
  const long double needed = data_start + group_bytes * gcount;
  if (gcount < 0 || needed > static_cast<long double>(file_bytes))
    throw file_error(name, "truncated: GCOUNT " + std::to_string(gcount) + " groups need " +
                               std::to_string(static_cast<long long>(needed)) +
                               " bytes, the file has " + std::to_string(file_bytes));
  return gcount;
}

void check_random_groups(fitsfile* fits, const std::string& name) {
  int groups = 0;
  int status = 0;
  fits_read_key(fits, TLOGICAL, "GROUPS", &groups, nullptr, &status);
  fits_clear_errmsg();
  if (status != 0 || !groups || fits_int_key(fits, "NAXIS1").value_or(-1) != 0)
    throw file_error(name, "not UVFITS: the primary HDU is not random groups (GROUPS T, NAXIS1 0)");
}

void fill_channels(const AxisLayout& axes, const std::vector<double>& if_offsets_hz,
                   VisibilitySet& vis) {
  for (long long i = 0; i < axes.nif; ++i)
    for (long long k = 0; k < axes.nchan; ++k)
      vis.channel_freq_hz.push_back(axes.freq_ref_hz +
                                    (k + 1 - axes.freq_ref_pixel) * axes.freq_delta_hz +
                                    if_offsets_hz[i]);
  vis.channel_width_hz = axes.freq_delta_hz;
  vis.stokes = axes.stokes;
}

void fill_header(fitsfile* fits, const AxisLayout& axes, VisibilitySet& vis) {
  constexpr double kDegToRad = M_PI / 180.0;
  vis.telescope = fits_string_key(fits, "TELESCOP").value_or("");
  vis.instrument = fits_string_key(fits, "INSTRUME").value_or("");
  vis.object = fits_string_key(fits, "OBJECT").value_or("");
  const std::optional<double> obsra_deg = fits_double_key(fits, "OBSRA");
  const std::optional<double> obsdec_deg = fits_double_key(fits, "OBSDEC");
  const double ra_deg = axes.ra_deg ? *axes.ra_deg : obsra_deg.value_or(0);
  const double dec_deg = axes.dec_deg ? *axes.dec_deg : obsdec_deg.value_or(0);
  vis.phase_centre_ra_rad = ra_deg * kDegToRad;
  vis.phase_centre_dec_rad = dec_deg * kDegToRad;
  // OBSRA/OBSDEC are the pointing where the RA/DEC axes give the phase centre; where they
  // stood in for missing axes they are the phase centre, and the pointing is left unset.
  if (axes.ra_deg && axes.dec_deg && obsra_deg && obsdec_deg && std::isfinite(*obsra_deg) &&
      std::fabs(*obsdec_deg) <= 90)
    vis.pointing = SkyDirection{*obsra_deg * kDegToRad, *obsdec_deg * kDegToRad};
}

struct GroupContext {
  std::string name;
  AxisLayout axes;
  ParamLayout params;
  std::unordered_map<long long, int> antenna_index;  // NOSTA -> 0-based index
  double date_zero_mjd = 0;                           // sum of DATE PZEROs, as MJD
};

int antenna_index(const GroupContext& ctx, long long number, long long g) {
  const auto it = ctx.antenna_index.find(number);
  if (it == ctx.antenna_index.end())
    throw file_error(ctx.name, "group " + std::to_string(g) + ": antenna number " +
                                   std::to_string(number) + " is not in the AIPS AN table");
  return it->second;
}

void decode_params(const GroupContext& ctx, const double* raw, long long g, VisibilitySet& vis) {
  const ParamLayout& p = ctx.params;
  vis.uvw_m.push_back({slot_sum(p.uu, raw) * kSpeedOfLight_m_per_s,
                       slot_sum(p.vv, raw) * kSpeedOfLight_m_per_s,
                       slot_sum(p.ww, raw) * kSpeedOfLight_m_per_s});
  double days = ctx.date_zero_mjd;
  for (const ParamSlot& s : p.date) days += raw[s.index] * s.scale;
  vis.time_mjd.push_back(days);
  vis.integration_s.push_back(p.inttim.empty() ? 0.0f
                                               : static_cast<float>(slot_sum(p.inttim, raw)));
  long long subarray = p.subarray.empty() ? 1 : whole_number(slot_sum(p.subarray, raw),
                                                             ctx.name, "SUBARRAY", g);
  long long a1 = 0, a2 = 0;
  if (!p.antenna1.empty() && !p.antenna2.empty()) {
    a1 = whole_number(slot_sum(p.antenna1, raw), ctx.name, "ANTENNA1", g);
    a2 = whole_number(slot_sum(p.antenna2, raw), ctx.name, "ANTENNA2", g);
  } else {
    const double bl = slot_sum(p.baseline, raw);
    whole_number(bl, ctx.name, "BASELINE", g);
    std::tie(a1, a2) = decode_uvfits_baseline(bl);
    if (bl < 65536 && p.subarray.empty()) subarray = std::llround((bl - std::floor(bl)) * 100) + 1;
  }
  if (subarray > 1)
    throw file_error(ctx.name, "group " + std::to_string(g) + ": subarray " +
                                   std::to_string(subarray) + "; only one subarray is supported");
  vis.antenna1.push_back(antenna_index(ctx, a1, g));
  vis.antenna2.push_back(antenna_index(ctx, a2, g));
}

void decode_data(const AxisLayout& axes, const float* data, VisibilitySet& vis) {
  for (long long i = 0; i < axes.nif; ++i)
    for (long long k = 0; k < axes.nchan; ++k)
      for (long long p = 0; p < axes.npol; ++p) {
        const long long base = i * axes.stride_if + k * axes.stride_freq + p * axes.stride_stokes;
        vis.vis.emplace_back(data[base], data[base + axes.stride_complex]);
        const float w = axes.ncomplex == 3 ? data[base + 2 * axes.stride_complex] : 1.0f;
        vis.weight.push_back(std::fabs(w));
        vis.flag.push_back(!(w > 0));  // NaN weights count as flagged too
      }
}

void read_groups(fitsfile* fits, const GroupContext& ctx, long long gcount, VisibilitySet& vis) {
  std::vector<double> raw(ctx.params.pcount);
  std::vector<float> data(ctx.axes.values_per_group);
  const size_t per_row = ctx.axes.nif * ctx.axes.nchan * ctx.axes.npol;
  vis.vis.reserve(per_row * gcount);
  vis.weight.reserve(per_row * gcount);
  vis.flag.reserve(per_row * gcount);
  for (long long g = 1; g <= gcount; ++g) {
    int status = 0, anynul = 0;
    fits_read_grppar_dbl(fits, g, 1, ctx.params.pcount, raw.data(), &status);
    fits_read_img_flt(fits, g, 1, ctx.axes.values_per_group, 0.0f, data.data(), &anynul, &status);
    if (status != 0)
      throw_fits_error(ctx.name, "cannot read group " + std::to_string(g) + " of " +
                                     std::to_string(gcount) + " (truncated?)", status);
    decode_params(ctx, raw.data(), g, vis);
    decode_data(ctx.axes, data.data(), vis);
  }
}

// Files without INTTIM: the smallest step between distinct times stands in for it.
void infer_integration(const std::string& name, VisibilitySet& vis,
                       std::vector<std::string>* warnings) {
  std::vector<double> times = vis.time_mjd;
  std::sort(times.begin(), times.end());
  double step_days = 0;
  for (size_t i = 1; i < times.size(); ++i) {
    const double d = times[i] - times[i - 1];
    if (d > 1e-9 && (step_days == 0 || d < step_days)) step_days = d;
  }
  const float inttim_s = static_cast<float>(step_days * 86400.0);
  std::fill(vis.integration_s.begin(), vis.integration_s.end(), inttim_s);
  warn(warnings, name, "no INTTIM random parameter; integration time taken as the time step, " +
                           std::to_string(inttim_s) + " s");
}

VisibilitySet read_uvfits_fits(fitsfile* fits, const std::string& name, size_t file_bytes,
                               std::vector<std::string>* warnings) {
  check_random_groups(fits, name);
  GroupContext ctx{name, read_axes(fits, name), read_params(fits, name), {}, 0};
  const long long gcount = check_group_bytes(fits, name, file_bytes, ctx.axes, ctx.params);
  VisibilitySet vis;
  fill_header(fits, ctx.axes, vis);
  for (const ParamSlot& s : ctx.params.date) ctx.date_zero_mjd += s.zero;
  ctx.date_zero_mjd -= kMjdToJd;

  UvfitsAntennaTable an = read_uvfits_an_table(fits, name, file_bytes, warnings);
  for (size_t i = 0; i < an.numbers.size(); ++i) ctx.antenna_index[an.numbers[i]] = int(i);
  vis.array = std::move(an.layout);
  if (vis.array.telescope.empty()) vis.array.telescope = vis.telescope;
  fill_channels(ctx.axes, read_uvfits_if_offsets(fits, name, int(ctx.axes.nif), warnings), vis);

  int status = 0;
  if (fits_movabs_hdu(fits, 1, nullptr, &status) != 0)
    throw_fits_error(name, "cannot return to the primary HDU", status);
  read_groups(fits, ctx, gcount, vis);
  if (ctx.params.inttim.empty()) infer_integration(name, vis, warnings);
  return vis;
}

size_t file_size(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw file_error(path, "cannot open: " + errno_text());
  return static_cast<size_t>(st.st_size);
}

}  // namespace

std::pair<long long, long long> decode_uvfits_baseline(double baseline) {
  const long long bl = static_cast<long long>(std::floor(baseline));
  if (bl >= 4259840LL)
    return {(bl - 4259840LL) / 2147483648LL, (bl - 4259840LL) % 2147483648LL};
  if (bl >= 65536) return {(bl - 65536) >> 11, (bl - 65536) & 2047};
  return {bl / 256, bl % 256};
}

double encode_uvfits_baseline(int antenna1_number, int antenna2_number) {
  if (antenna1_number < 256 && antenna2_number < 256)
    return 256.0 * antenna1_number + antenna2_number;
  return 2048.0 * antenna1_number + antenna2_number + 65536.0;
}

VisibilitySet parse_uvfits(const void* data, size_t size, const std::string& name,
                           std::vector<std::string>* warnings) {
  // The reader's size checks use the true size; CFITSIO sees whole records.
  const std::vector<char> padded = fits_padded_copy(data, size);
  FitsHandle fits = open_fits_memory(padded.data(), padded.size(), name);
  return read_uvfits_fits(fits.get(), name, size, warnings);
}

VisibilitySet read_uvfits(const std::string& path, std::vector<std::string>* warnings) {
  const size_t bytes = file_size(path);
  FitsHandle fits = open_fits_readonly(path);
  return read_uvfits_fits(fits.get(), path, bytes, warnings);
}

ArrayLayout read_uvfits_antennas(const std::string& path, std::vector<std::string>* warnings) {
  const size_t bytes = file_size(path);
  FitsHandle fits = open_fits_readonly(path);
  return read_uvfits_an_table(fits.get(), path, bytes, warnings).layout;
}

}  // namespace rapt
