// The FITS images idg-grid writes: the real part of a gridded plane with the input's phase
// centre, the channel group's frequency and band, and WSClean's header layout
// (io/fits_image.hpp); all written at the end, so that a run that fails leaves no image.
#pragma once
#include <complex>
#include <string>
#include <vector>

#include "io/fits_image.hpp"
#include "io/visibility_set.hpp"

namespace rapt {

// `plane`: N x N complex pixels [y][x] in the geometry of idg/idg_settings.hpp (x = 0 east),
// which is FitsImage's. freq_hz: the channel group's channel centres.
FitsImage sky_image(const std::complex<float>* plane, int size, double cell_rad,
                    const VisibilitySet& vs, const std::vector<double>& freq_hz, int stokes);
// The same of real pixels (CLEAN's model, residual and restored images).
FitsImage sky_image(const std::vector<float>& pixels, int size, double cell_rad,
                    const VisibilitySet& vs, const std::vector<double>& freq_hz, int stokes);

struct PendingImage {
  std::string path;
  FitsImage image;
};

// Refuses (DataError) before any work when an output exists without `overwrite`, is not a
// regular file, or its directory cannot be written in.
void check_outputs(const std::vector<std::string>& paths, bool overwrite);

// Writes every image to its temporary, then renames them all; if one fails, none is left (those
// already renamed are removed again), so the run leaves all its images or none.
void write_images(const std::vector<PendingImage>& images, bool overwrite);

// "2014-07-15T14:31:50.123" for a UTC MJD.
std::string iso_date_from_mjd(double mjd);

}  // namespace rapt
