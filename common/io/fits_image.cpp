#include "io/fits_image.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>

#include "cli/errors.hpp"
#include "io/uvfits_cfitsio.hpp"

namespace rapt {

namespace {

constexpr double kRadToDeg = 180.0 / M_PI;

void check_image(const std::string& path, const FitsImage& image) {
  if (image.nx < 1 || image.ny < 1 ||
      image.pixels.size() != static_cast<size_t>(image.nx) * static_cast<size_t>(image.ny))
    throw UsageError(path + ": image is " + std::to_string(image.nx) + " x " +
                     std::to_string(image.ny) + " but holds " +
                     std::to_string(image.pixels.size()) + " pixels");
  if (!(image.cell_rad > 0) || !std::isfinite(image.cell_rad))
    throw UsageError(path + ": image cell size must be positive");
}

void write_axis(fitsfile* f, int n, const char* ctype, double crpix, double crval, double cdelt,
                const char* cunit, int* status) {
  const std::string num = std::to_string(n);
  fits_write_key_str(f, ("CTYPE" + num).c_str(), ctype, nullptr, status);
  fits_write_key_dbl(f, ("CRPIX" + num).c_str(), crpix, -15, nullptr, status);
  fits_write_key_dbl(f, ("CRVAL" + num).c_str(), crval, -15, nullptr, status);
  fits_write_key_dbl(f, ("CDELT" + num).c_str(), cdelt, -15, nullptr, status);
  fits_write_key_str(f, ("CUNIT" + num).c_str(), cunit, nullptr, status);
}

void write_image_keys(fitsfile* f, const FitsImage& image, int* status) {
  const double one = 1.0, zero = 0.0, equinox = 2000.0;
  fits_write_key(f, TDOUBLE, "BSCALE", const_cast<double*>(&one), nullptr, status);
  fits_write_key(f, TDOUBLE, "BZERO", const_cast<double*>(&zero), nullptr, status);
  fits_write_key_str(f, "BUNIT", image.bunit.c_str(), nullptr, status);
  if (image.beam_major_deg && image.beam_minor_deg && image.beam_pa_deg) {
    fits_write_key_dbl(f, "BMAJ", *image.beam_major_deg, -15, "deg", status);
    fits_write_key_dbl(f, "BMIN", *image.beam_minor_deg, -15, "deg", status);
    fits_write_key_dbl(f, "BPA", *image.beam_pa_deg, -15, "deg", status);
  }
  fits_write_key(f, TDOUBLE, "EQUINOX", const_cast<double*>(&equinox), nullptr, status);
  fits_write_key_str(f, "RADESYS", "FK5", nullptr, status);
  fits_write_key_str(f, "BTYPE", "Intensity", nullptr, status);
  if (!image.origin.empty()) fits_write_key_str(f, "ORIGIN", image.origin.c_str(), nullptr, status);
  if (!image.object.empty()) fits_write_key_str(f, "OBJECT", image.object.c_str(), nullptr, status);
  if (!image.telescope.empty())
    fits_write_key_str(f, "TELESCOP", image.telescope.c_str(), nullptr, status);
  const double cell_deg = image.cell_rad * kRadToDeg;
  double ra_deg = std::fmod(image.phase_centre_ra_rad * kRadToDeg, 360.0);
  if (ra_deg < 0) ra_deg += 360.0;
  write_axis(f, 1, "RA---SIN", image.nx / 2 + 1, ra_deg, -cell_deg, "deg", status);
  write_axis(f, 2, "DEC--SIN", image.ny / 2 + 1, image.phase_centre_dec_rad * kRadToDeg, cell_deg,
             "deg", status);
  write_axis(f, 3, "FREQ", 1, image.freq_hz, image.bandwidth_hz, "Hz", status);
  write_axis(f, 4, "STOKES", 1, image.stokes, 1, "", status);
  fits_write_key_str(f, "SPECSYS", "TOPOCENT", nullptr, status);
  if (!image.date_obs.empty())
    fits_write_key_str(f, "DATE-OBS", image.date_obs.c_str(), nullptr, status);
}

std::string key_or(fitsfile* f, const char* key, const std::string& fallback) {
  return fits_string_key(f, key).value_or(fallback);
}

void read_sky_axes(fitsfile* f, const std::string& name, FitsImage& image,
                   std::vector<std::string>* warnings) {
  const auto warn = [&](const std::string& text) {
    if (warnings) warnings->push_back(name + ": " + text);
  };
  const std::string ctype1 = fits_normalised_name(key_or(f, "CTYPE1", ""));
  const std::string ctype2 = fits_normalised_name(key_or(f, "CTYPE2", ""));
  if (ctype1 != "RA---SIN" || ctype2 != "DEC--SIN")
    warn("sky axes are '" + ctype1 + "', '" + ctype2 + "'; read as RA---SIN, DEC--SIN");
  const double cdelt1 = fits_double_key(f, "CDELT1").value_or(0);
  const double cdelt2 = fits_double_key(f, "CDELT2").value_or(0);
  image.cell_rad = std::fabs(cdelt2) / kRadToDeg;
  if (cdelt1 != -cdelt2) warn("CDELT1 is not -CDELT2; cell taken from CDELT2");
  image.phase_centre_ra_rad = fits_double_key(f, "CRVAL1").value_or(0) / kRadToDeg;
  image.phase_centre_dec_rad = fits_double_key(f, "CRVAL2").value_or(0) / kRadToDeg;
  if (fits_double_key(f, "CRPIX1").value_or(0) != image.nx / 2 + 1 ||
      fits_double_key(f, "CRPIX2").value_or(0) != image.ny / 2 + 1)
    warn("reference pixel is not (N/2 + 1, N/2 + 1); CRVAL taken as the centre pixel's");
}

void read_header(fitsfile* f, const std::string& name, FitsImage& image,
                 std::vector<std::string>* warnings) {
  read_sky_axes(f, name, image, warnings);
  image.freq_hz = fits_double_key(f, "CRVAL3").value_or(0);
  image.bandwidth_hz = fits_double_key(f, "CDELT3").value_or(0);
  const double stokes = fits_double_key(f, "CRVAL4").value_or(1);
  image.stokes = std::fabs(stokes) < 100 ? static_cast<int>(std::lround(stokes)) : 1;
  image.bunit = key_or(f, "BUNIT", "");
  image.beam_major_deg = fits_double_key(f, "BMAJ");
  image.beam_minor_deg = fits_double_key(f, "BMIN");
  image.beam_pa_deg = fits_double_key(f, "BPA");
  image.date_obs = key_or(f, "DATE-OBS", "");
  image.object = key_or(f, "OBJECT", "");
  image.telescope = key_or(f, "TELESCOP", "");
  image.origin = key_or(f, "ORIGIN", "");
}

FitsImage read_image_fits(fitsfile* f, const std::string& name, size_t file_bytes,
                          std::vector<std::string>* warnings) {
  int status = 0, naxis = 0;
  LONGLONG naxes[9] = {0};
  fits_get_img_dim(f, &naxis, &status);
  if (status != 0 || naxis < 2 || naxis > 9)
    throw file_error(name, "primary HDU is not a 2-D (or deeper) image");
  fits_get_img_sizell(f, naxis, naxes, &status);
  // Random groups (UVFITS) have NAXIS1 = 0 and GROUPS = T.
  int groups = 0, groups_status = 0;
  fits_read_key(f, TLOGICAL, "GROUPS", &groups, nullptr, &groups_status);
  if (naxes[0] == 0 && groups_status == 0 && groups)
    throw file_error(name, "holds random groups (UVFITS visibilities), not an image");
  long long planes = 1;
  for (int k = 2; k < naxis; ++k) planes *= std::max<LONGLONG>(naxes[k], 1);
  if (naxes[0] < 1 || naxes[1] < 1 || naxes[0] > (1 << 20) || naxes[1] > (1 << 20) ||
      naxes[0] * naxes[1] > static_cast<long long>(file_bytes))
    throw file_error(name, "image size " + std::to_string(naxes[0]) + " x " +
                               std::to_string(naxes[1]) + " does not fit in the file");
  FitsImage image;
  image.nx = static_cast<int>(naxes[0]);
  image.ny = static_cast<int>(naxes[1]);
  read_header(f, name, image, warnings);
  if (planes > 1 && warnings)
    warnings->push_back(name + ": " + std::to_string(planes) + " planes; reading the first");
  image.pixels.resize(static_cast<size_t>(image.nx) * image.ny);
  int anynul = 0;
  fits_read_img_flt(f, 0, 1, static_cast<LONGLONG>(image.pixels.size()), 0.0f,
                    image.pixels.data(), &anynul, &status);
  if (status != 0) throw_fits_error(name, "cannot read the image pixels (truncated?)", status);
  return image;
}

}  // namespace

std::unique_ptr<FitsOutputFile> write_fits_image_pending(const std::string& path,
                                                         const FitsImage& image, bool overwrite) {
  check_image(path, image);
  auto out = std::make_unique<FitsOutputFile>(path, overwrite);
  int status = 0;
  long naxes[4] = {image.nx, image.ny, 1, 1};
  fits_create_img(out->get(), FLOAT_IMG, 4, naxes, &status);
  write_image_keys(out->get(), image, &status);
  out->check(status, "cannot write the image header");
  fits_write_img_flt(out->get(), 0, 1, static_cast<LONGLONG>(image.pixels.size()),
                     const_cast<float*>(image.pixels.data()), &status);
  out->check(status, "cannot write the image pixels");
  out->close();
  return out;
}

void write_fits_image(const std::string& path, const FitsImage& image, bool overwrite) {
  write_fits_image_pending(path, image, overwrite)->commit();
}

FitsImage read_fits_image(const std::string& path, std::vector<std::string>* warnings) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw file_error(path, "cannot open: " + errno_text());
  FitsHandle fits = open_fits_readonly(path);
  return read_image_fits(fits.get(), path, static_cast<size_t>(st.st_size), warnings);
}

FitsImage parse_fits_image(const void* data, size_t size, const std::string& name,
                           std::vector<std::string>* warnings) {
  // The reader's size checks use the true size; CFITSIO sees whole records.
  const std::vector<char> padded = fits_padded_copy(data, size);
  FitsHandle fits = open_fits_memory(padded.data(), padded.size(), name);
  return read_image_fits(fits.get(), name, size, warnings);
}

}  // namespace rapt
