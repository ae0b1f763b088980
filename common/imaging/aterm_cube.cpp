#include "imaging/aterm_cube.hpp"

#include <fitsio.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cli/errors.hpp"
#include "io/uvfits_cfitsio.hpp"

namespace rapt {

namespace {

constexpr double kDegToRad = M_PI / 180.0;
constexpr double kSecondsPerDay = 86400.0;
constexpr double kArcsecRad = kDegToRad / 3600.0;
constexpr int kAxes = 6;  // RA, DEC, MATRIX, ANTENNA, FREQ, TIME
const char* const kAxisNames[kAxes] = {"RA", "DEC", "MATRIX", "ANTENNA", "FREQ", "TIME"};

std::string key_name(const char* stem, int axis) { return stem + std::to_string(axis + 1); }

// An axis keyword's value; absent: nullopt. Present but not a finite number ('inf', text, a
// NaN) is refused rather than taken as absent, which would put a cube silently at 0h.
std::optional<double> axis_key(fitsfile* f, const std::string& path, const char* stem, int axis) {
  const std::string key = key_name(stem, axis);
  char raw[FLEN_VALUE] = {0};
  int status = 0;
  if (fits_read_keyword(f, key.c_str(), raw, nullptr, &status) != 0) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  const std::optional<double> value = fits_double_key(f, key.c_str());
  if (!value || !std::isfinite(*value)) {
    std::string text;  // the value as written, without its quotes and padding
    for (const char* c = raw; *c; ++c)
      if (*c != '\'') text += *c;
    text.erase(0, text.find_first_not_of(' '));
    text.erase(text.find_last_not_of(' ') + 1);
    throw file_error(path, key + " = " + text + " is not a finite number");
  }
  return value;
}

std::string number(double value, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// A CTYPE that is present must name the axis expected at its place; RA, DEC, FREQ and TIME may
// carry a projection or frame suffix ("RA---SIN", "FREQ-OBS").
void check_axis_type(fitsfile* f, const std::string& path, int axis) {
  const std::optional<std::string> ctype = fits_string_key(f, key_name("CTYPE", axis).c_str());
  if (!ctype) return;
  const std::string name = fits_normalised_name(*ctype);
  const std::string expected = kAxisNames[axis];
  const bool exact = axis == 2 || axis == 3;
  const bool ok = exact ? name == expected : name.compare(0, expected.size(), expected) == 0;
  if (!ok)
    throw file_error(path, "axis " + std::to_string(axis + 1) + " is '" + name +
                               "'; an A-term cube has " +
                               "RA, DEC, MATRIX, ANTENNA, FREQ, TIME in that order");
}

// CRPIX (1-based) of an axis of n pixels: its centre when the key is absent.
double axis_crpix(fitsfile* f, const std::string& path, int axis, long long n) {
  return axis_key(f, path, "CRPIX", axis).value_or((static_cast<double>(n) + 1) / 2);
}

// CDELT of a sky axis in radians; required when the axis has more than one pixel.
double sky_cdelt_rad(fitsfile* f, const std::string& path, int axis, long long n) {
  const std::optional<double> cdelt = axis_key(f, path, "CDELT", axis);
  if (n > 1 && (!cdelt || *cdelt == 0 || !std::isfinite(*cdelt)))
    throw file_error(path, key_name("CDELT", axis) + " (" + kAxisNames[axis] +
                               " pixel size, degrees) is missing or zero");
  return cdelt.value_or(0) * kDegToRad;
}

// Centres of the n planes of FREQ or TIME, in the axis's own unit.
std::vector<double> plane_centres(fitsfile* f, const std::string& path, int axis, long long n,
                                  double* step) {
  const std::optional<double> crval = axis_key(f, path, "CRVAL", axis);
  const std::optional<double> cdelt = axis_key(f, path, "CDELT", axis);
  if (n > 1 &&
      (!crval || !cdelt || *cdelt == 0 || !std::isfinite(*cdelt) || !std::isfinite(*crval)))
    throw file_error(path, std::string(kAxisNames[axis]) + " axis has " + std::to_string(n) +
                               " planes but " + key_name("CRVAL", axis) + " or " +
                               key_name("CDELT", axis) + " is missing or " +
                               key_name("CDELT", axis) + " is zero");
  const double crpix = axis_crpix(f, path, axis, n);
  *step = n > 1 ? *cdelt : 0;
  std::vector<double> centres(static_cast<size_t>(n));
  for (long long k = 0; k < n; ++k)
    centres[static_cast<size_t>(k)] =
        crval.value_or(0) + (static_cast<double>(k) + 1 - crpix) * *step;
  return centres;
}

// The Jones matrix xx, xy, yx, yy from the `matrix` values of one pixel, `stride` apart.
void expand(const float* values, size_t stride, int matrix, std::complex<float>* out) {
  const auto value = [&](int k) {
    return std::complex<float>(values[2 * k * stride], values[(2 * k + 1) * stride]);
  };
  if (matrix == 2) {
    out[0] = out[3] = value(0);
    out[1] = out[2] = 0;
  } else if (matrix == 4) {
    out[0] = value(0);
    out[1] = out[2] = 0;
    out[3] = value(1);
  } else {
    for (int k = 0; k < 4; ++k) out[k] = value(k);
  }
}

// Pixel coordinate (0-based) of direction cosine `x` along an axis of n pixels, clamped to the
// edge pixels. One within a micro-pixel of a pixel centre is snapped onto it, so a cube whose
// pixels coincide with the subgrid's is sampled without rounding in the weights.
double pixel_of(double x, double crpix, double cdelt_rad, int n) {
  if (n == 1) return 0;
  double p = x / cdelt_rad + crpix - 1;
  if (std::fabs(p - std::round(p)) < 1e-6) p = std::round(p);
  return std::clamp(p, 0.0, static_cast<double>(n - 1));
}

struct Lerp {
  int lo = 0, hi = 0;
  double w = 0;  // weight of hi
};

Lerp lerp_of(double p, int n) {
  Lerp s;
  s.lo = static_cast<int>(std::floor(p));
  s.hi = std::min(s.lo + 1, n - 1);
  s.w = p - s.lo;
  return s;
}

}  // namespace

ATermCube read_aterm_cube(const std::string& path) {
  FitsHandle handle = open_fits_readonly(path);
  fitsfile* f = handle.get();
  int status = 0, naxis = 0;
  fits_get_img_dim(f, &naxis, &status);
  if (status != 0) throw_fits_error(path, "cannot read the primary HDU", status);
  if (naxis < 4 || naxis > 9)
    throw file_error(
        path, "primary HDU has " + std::to_string(naxis) +
                  " axes; an A-term cube has 4 to 6 (RA, DEC, MATRIX, ANTENNA[, FREQ[, TIME]])");
  LONGLONG naxes[9] = {0};
  fits_get_img_sizell(f, naxis, naxes, &status);
  if (status != 0) throw_fits_error(path, "cannot read the axis sizes", status);
  for (int k = 0; k < naxis; ++k) {
    if (naxes[k] < 1)
      throw file_error(path, "axis " + std::to_string(k + 1) + " (" +
                                 (k < kAxes ? kAxisNames[k] : "extra") + ") has no pixels");
    if (k >= kAxes && naxes[k] != 1)
      throw file_error(path, "axis " + std::to_string(k + 1) + " has " + std::to_string(naxes[k]) +
                                 " pixels; an A-term cube has no axes after TIME");
  }
  for (int k = kAxes < naxis ? kAxes : naxis; k < kAxes; ++k) naxes[k] = 1;
  for (int k = 0; k < std::min(naxis, kAxes); ++k) check_axis_type(f, path, k);

  const int matrix = static_cast<int>(naxes[2]);
  if (matrix != 2 && matrix != 4 && matrix != 8)
    throw file_error(path,
                     "MATRIX axis has " + std::to_string(naxes[2]) +
                         " values; supported: 2 (scalar), 4 (diagonal), 8 (full Jones matrix)");

  // A header can claim any size; what the file can hold bounds the allocation below.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw file_error(path, "cannot open: " + errno_text());
  int bitpix = 0;
  fits_get_img_equivtype(f, &bitpix, &status);
  if (status != 0) throw_fits_error(path, "cannot read BITPIX", status);
  double values = 1;
  for (int k = 0; k < kAxes; ++k) values *= static_cast<double>(naxes[k]);
  if (values * std::abs(bitpix) / 8 > static_cast<double>(st.st_size) || naxes[0] > (1 << 20) ||
      naxes[1] > (1 << 20))
    throw file_error(path,
                     "cube of " + number(values, "%.0f") + " values does not fit in the file");

  ATermCube cube;
  cube.path = path;
  cube.nx = static_cast<int>(naxes[0]);
  cube.ny = static_cast<int>(naxes[1]);
  cube.matrix = matrix;
  cube.nr_antennas = static_cast<int>(naxes[3]);
  cube.nr_freqs = static_cast<int>(naxes[4]);
  cube.nr_times = static_cast<int>(naxes[5]);
  cube.ra_crpix = axis_crpix(f, path, 0, naxes[0]);
  cube.dec_crpix = axis_crpix(f, path, 1, naxes[1]);
  cube.ra_cdelt_rad = sky_cdelt_rad(f, path, 0, naxes[0]);
  cube.dec_cdelt_rad = sky_cdelt_rad(f, path, 1, naxes[1]);
  cube.ra_crval_rad = axis_key(f, path, "CRVAL", 0).value_or(0) * kDegToRad;
  cube.dec_crval_rad = axis_key(f, path, "CRVAL", 1).value_or(0) * kDegToRad;
  if (!std::isfinite(cube.ra_crpix) || !std::isfinite(cube.dec_crpix) ||
      !std::isfinite(cube.ra_crval_rad) || !std::isfinite(cube.dec_crval_rad))
    throw file_error(path, "CRPIX1/2 or CRVAL1/2 is not a finite number");
  double freq_step = 0, time_step = 0;
  cube.freq_hz = plane_centres(f, path, 4, naxes[4], &freq_step);
  const std::vector<double> time_s = plane_centres(f, path, 5, naxes[5], &time_step);
  for (double t : time_s) cube.time_mjd.push_back(t / kSecondsPerDay);
  cube.time_step_days = std::fabs(time_step) / kSecondsPerDay;

  // One (time, freq) block at a time: [antenna][matrix][y][x] in the file, [antenna][y][x][4]
  // in the cube.
  const size_t pixels = static_cast<size_t>(cube.nx) * static_cast<size_t>(cube.ny);
  const size_t block = pixels * static_cast<size_t>(matrix) * static_cast<size_t>(cube.nr_antennas);
  const size_t blocks = static_cast<size_t>(cube.nr_freqs) * static_cast<size_t>(cube.nr_times);
  cube.jones.resize(blocks * pixels * static_cast<size_t>(cube.nr_antennas) * 4);
  std::vector<float> buffer(block);
  for (size_t b = 0; b < blocks; ++b) {
    float null_value = 0;  // 0: CFITSIO leaves NaNs in place for the check below
    int anynul = 0;
    fits_read_img(f, TFLOAT, static_cast<LONGLONG>(b * block) + 1, static_cast<LONGLONG>(block),
                  &null_value, buffer.data(), &anynul, &status);
    if (status != 0) throw_fits_error(path, "cannot read the A-term values (truncated?)", status);
    for (size_t k = 0; k < block; ++k) {
      if (std::isfinite(buffer[k])) continue;
      const size_t x = k % cube.nx, y = k / cube.nx % cube.ny, m = k / pixels % matrix,
                   a = k / pixels / matrix;
      throw file_error(path, std::string("A-term value is ") +
                                 (std::isnan(buffer[k]) ? "NaN" : "infinite") + " at RA pixel " +
                                 std::to_string(x) + ", DEC pixel " + std::to_string(y) +
                                 ", MATRIX " + std::to_string(m) + ", ANTENNA " +
                                 std::to_string(a) + ", FREQ " + std::to_string(b % cube.nr_freqs) +
                                 ", TIME " + std::to_string(b / cube.nr_freqs) + " (0-based)");
    }
    std::complex<float>* out =
        cube.jones.data() + b * pixels * static_cast<size_t>(cube.nr_antennas) * 4;
    for (int a = 0; a < cube.nr_antennas; ++a) {
      const float* in = buffer.data() + static_cast<size_t>(a) * matrix * pixels;
      for (size_t p = 0; p < pixels; ++p)
        expand(in + p, pixels, matrix, out + (static_cast<size_t>(a) * pixels + p) * 4);
    }
  }
  return cube;
}

std::vector<int> aterm_slots(const ATermCube& cube, const std::vector<double>& time_mjd) {
  std::vector<int> slots(time_mjd.size(), 0);
  if (cube.nr_times <= 1) return slots;
  const double first = cube.time_mjd.front();
  const double step = cube.time_mjd[1] - first;  // signed: TIME may run backwards
  const double n = cube.nr_times;
  for (size_t k = 0; k < time_mjd.size(); ++k) {
    const double x = (time_mjd[k] - first) / step;
    // A micro-step of slack keeps a time on the range's edge (rounded in MJD days) inside.
    if (!(x >= -0.5 - 1e-6 && x <= n - 0.5 + 1e-6)) {
      const double lo = std::min(first, cube.time_mjd.back()) - cube.time_step_days / 2;
      const double hi = std::max(first, cube.time_mjd.back()) + cube.time_step_days / 2;
      throw file_error(cube.path, "visibilities at MJD " + number(time_mjd[k], "%.6f") +
                                      " lie outside the A-terms' time range " + number(lo, "%.6f") +
                                      " - " + number(hi, "%.6f"));
    }
    slots[k] = std::clamp(static_cast<int>(std::lround(x)), 0, cube.nr_times - 1);
  }
  return slots;
}

void check_aterm_centre(const ATermCube& cube, double phase_centre_ra_rad,
                        double phase_centre_dec_rad) {
  // Haversine: well conditioned for the small separations that matter here.
  const double s_dec = std::sin((cube.dec_crval_rad - phase_centre_dec_rad) / 2);
  const double s_ra = std::sin((cube.ra_crval_rad - phase_centre_ra_rad) / 2);
  const double h =
      s_dec * s_dec + std::cos(cube.dec_crval_rad) * std::cos(phase_centre_dec_rad) * s_ra * s_ra;
  const double separation = 2 * std::asin(std::sqrt(std::clamp(h, 0.0, 1.0)));
  double allowed = 0;
  if (cube.nx > 1) allowed = std::max(allowed, std::fabs(cube.ra_cdelt_rad));
  if (cube.ny > 1) allowed = std::max(allowed, std::fabs(cube.dec_cdelt_rad));
  if (allowed == 0) allowed = kArcsecRad;
  if (separation <= allowed * (1 + 1e-9)) return;
  const auto position = [](double ra, double dec) {
    double ra_deg = std::fmod(ra / kDegToRad, 360.0);
    if (ra_deg < 0) ra_deg += 360;
    return "(RA " + number(ra_deg, "%.6f") + ", Dec " + number(dec / kDegToRad, "%.6f") + " deg)";
  };
  throw file_error(cube.path, "A-term centre " + position(cube.ra_crval_rad, cube.dec_crval_rad) +
                                  " is " + number(separation / kDegToRad, "%.6g") +
                                  " deg from the phase centre " +
                                  position(phase_centre_ra_rad, phase_centre_dec_rad) +
                                  "; at most " + number(allowed / kDegToRad, "%.6g") + " deg (" +
                                  (cube.nx > 1 || cube.ny > 1 ? "one cube pixel" : "1 arcsecond") +
                                  ") is allowed");
}

int nearest_aterm_freq(const ATermCube& cube, double freq_hz) {
  int best = 0;
  for (int k = 1; k < cube.nr_freqs; ++k)
    if (std::fabs(cube.freq_hz[k] - freq_hz) < std::fabs(cube.freq_hz[best] - freq_hz)) best = k;
  return best;
}

IdgATerms sample_aterms(const ATermCube& cube, const IdgSettings& settings, double freq_hz,
                        int nr_stations) {
  if (settings.subgrid_size < 1) throw UsageError("A-term sampling: subgrid size must be positive");
  if (nr_stations < 1) throw UsageError("A-term sampling: no stations");
  if (nr_stations > cube.nr_antennas)
    throw file_error(cube.path, "has A-terms for " + std::to_string(cube.nr_antennas) +
                                    " antennas; the visibilities have " +
                                    std::to_string(nr_stations));
  const int nb = settings.subgrid_size;
  const double s = settings.image_size;
  std::vector<Lerp> along_x(static_cast<size_t>(nb)), along_y(static_cast<size_t>(nb));
  for (int i = 0; i < nb; ++i) {
    const double l = -static_cast<double>(i - nb / 2) * s / nb;
    const double m = static_cast<double>(i - nb / 2) * s / nb;
    along_x[static_cast<size_t>(i)] =
        lerp_of(pixel_of(l, cube.ra_crpix, cube.ra_cdelt_rad, cube.nx), cube.nx);
    along_y[static_cast<size_t>(i)] =
        lerp_of(pixel_of(m, cube.dec_crpix, cube.dec_cdelt_rad, cube.ny), cube.ny);
  }

  IdgATerms aterms;
  aterms.nr_slots = cube.nr_times;
  aterms.nr_stations = nr_stations;
  aterms.subgrid_size = nb;
  aterms.jones.resize(static_cast<size_t>(cube.nr_times) * nr_stations *
                      aterms.matrices_per_station() * 4);
  const int freq = nearest_aterm_freq(cube, freq_hz);
  for (int t = 0; t < cube.nr_times; ++t)
    for (int a = 0; a < nr_stations; ++a) {
      std::complex<float>* out = aterms.at(t, a);
      for (int j = 0; j < nb; ++j) {
        const Lerp& y = along_y[static_cast<size_t>(j)];
        for (int i = 0; i < nb; ++i) {
          const Lerp& x = along_x[static_cast<size_t>(i)];
          const std::complex<float>* c00 = cube.at(t, freq, a, y.lo, x.lo);
          const std::complex<float>* c01 = cube.at(t, freq, a, y.lo, x.hi);
          const std::complex<float>* c10 = cube.at(t, freq, a, y.hi, x.lo);
          const std::complex<float>* c11 = cube.at(t, freq, a, y.hi, x.hi);
          for (int e = 0; e < 4; ++e) {
            const std::complex<double> low =
                (1 - x.w) * std::complex<double>(c00[e]) + x.w * std::complex<double>(c01[e]);
            const std::complex<double> high =
                (1 - x.w) * std::complex<double>(c10[e]) + x.w * std::complex<double>(c11[e]);
            out[(static_cast<size_t>(j) * nb + i) * 4 + e] =
                std::complex<float>((1 - y.w) * low + y.w * high);
          }
        }
      }
    }
  return aterms;
}

}  // namespace rapt
