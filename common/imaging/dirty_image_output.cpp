#include "imaging/dirty_image_output.hpp"

#include <erfa.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/atomic_output.hpp"
#include "io/uvfits_cfitsio.hpp"

namespace rapt {

std::string iso_date_from_mjd(double mjd) {
  int y = 0, m = 0, d = 0, hmsf[4] = {};
  if (!std::isfinite(mjd) || eraD2dtf("UTC", 3, 2400000.5, mjd, &y, &m, &d, hmsf) < 0) return "";
  char text[40];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03d", y, m, d, hmsf[0],
                hmsf[1], hmsf[2], hmsf[3]);
  return text;
}

FitsImage sky_image(const std::complex<float>* plane, int size, double cell_rad,
                    const VisibilitySet& vs, const std::vector<double>& freq_hz, int stokes) {
  std::vector<float> pixels(size_t(size) * size);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = plane[i].real();
  return sky_image(pixels, size, cell_rad, vs, freq_hz, stokes);
}

FitsImage sky_image(const std::vector<float>& pixels, int size, double cell_rad,
                    const VisibilitySet& vs, const std::vector<double>& freq_hz, int stokes) {
  FitsImage image;
  image.nx = image.ny = size;
  image.pixels = pixels;
  image.cell_rad = cell_rad;
  image.phase_centre_ra_rad = vs.phase_centre_ra_rad;
  image.phase_centre_dec_rad = vs.phase_centre_dec_rad;
  const auto [low, high] = std::minmax_element(freq_hz.begin(), freq_hz.end());
  image.freq_hz = (*low + *high) / 2;
  // The band the channels cover: their span plus one channel width.
  image.bandwidth_hz = (*high - *low) + std::abs(vs.channel_width_hz);
  image.stokes = stokes;
  image.bunit = "JY/BEAM";
  if (!vs.time_mjd.empty())
    image.date_obs = iso_date_from_mjd(*std::min_element(vs.time_mjd.begin(), vs.time_mjd.end()));
  image.object = vs.object;
  image.telescope = vs.telescope;
  image.origin = "rapt idg-grid";
  return image;
}

void check_outputs(const std::vector<std::string>& paths, bool overwrite) {
  for (const std::string& path : paths) check_replaceable_output(path, overwrite);
}

void write_images(const std::vector<PendingImage>& images, bool overwrite) {
  // Every image to its temporary first, then all renamed: a failure or an interruption while
  // they are written (the long part) leaves none of them.
  std::vector<std::unique_ptr<FitsOutputFile>> files;
  for (const PendingImage& pending : images)
    files.push_back(write_fits_image_pending(pending.path, pending.image, overwrite));
  size_t renamed = 0;
  try {
    for (; renamed < files.size(); ++renamed) files[renamed]->commit();
  } catch (...) {
    for (size_t i = 0; i < renamed; ++i) std::remove(images[i].path.c_str());
    throw;
  }
}

}  // namespace rapt
