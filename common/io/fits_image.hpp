// A sky image as a FITS file, with the header WSClean writes: NAXIS 4 (RA---SIN, DEC--SIN, FREQ,
// STOKES), reference pixel N/2 + 1 on both sky axes holding the phase centre, CDELT1 = -cell
// (RA increases to the left), CDELT2 = +cell, EQUINOX 2000, RADESYS FK5.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rapt {

class FitsOutputFile;  // io/uvfits_cfitsio.hpp

struct FitsImage {
  int nx = 0;                     // pixels along RA (FITS axis 1)
  int ny = 0;                     // pixels along Dec (FITS axis 2)
  std::vector<float> pixels;      // C order [y][x]; x = 0 is the east (left) edge
  double cell_rad = 0;            // pixel size on the sky (> 0)
  double phase_centre_ra_rad = 0;   // J2000, at C index (nx/2, ny/2)
  double phase_centre_dec_rad = 0;
  double freq_hz = 0;             // centre frequency
  double bandwidth_hz = 0;
  int stokes = 1;                 // FITS Stokes code (1 = I, -5 = XX, ...)
  std::string bunit = "JY/BEAM";
  std::optional<double> beam_major_deg, beam_minor_deg, beam_pa_deg;  // restored images only
  std::string date_obs;           // "YYYY-MM-DDThh:mm:ss.sss" (UTC) or empty
  std::string object, telescope, origin;
};

// DataError when the file cannot be written or exists and !overwrite; UsageError when the
// image is inconsistent (size, cell <= 0). Written under a temporary name, renamed on success.
void write_fits_image(const std::string& path, const FitsImage& image, bool overwrite);
// The same, but left under its temporary name, closed: the returned file's commit() renames it
// into place (so that a set of images appears together), its destruction removes it.
std::unique_ptr<FitsOutputFile> write_fits_image_pending(const std::string& path,
                                                         const FitsImage& image, bool overwrite);

// Reads the first RA/Dec plane. Lenient: missing keys take defaults; departures from the
// layout above (other reference pixel, non-SIN projection, several planes) are reported in
// `warnings` ("path: ..."). DataError when there is no 2-D image in the primary HDU.
FitsImage read_fits_image(const std::string& path, std::vector<std::string>* warnings = nullptr);
// From a file image in memory, for files known to be well formed (see parse_uvfits).
FitsImage parse_fits_image(const void* data, size_t size, const std::string& name,
                           std::vector<std::string>* warnings = nullptr);

}  // namespace rapt
