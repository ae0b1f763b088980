// inspect's report for a FITS sky image (the first RA/Dec plane).
#include <cmath>
#include <string>
#include <vector>

#include "inspect/inspect_sections.hpp"
#include "inspect/report_text.hpp"
#include "io/fits_image.hpp"

namespace rapt {

namespace {

constexpr double kRadToDeg = 57.295779513082320876;

std::string text_or_unknown(const std::string& text) { return text.empty() ? "unknown" : text; }

std::string beam_text(const FitsImage& image) {
  if (!image.beam_major_deg || !image.beam_minor_deg) return "none (not restored)";
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "%.4g x %.4g arcsec, PA %.4g deg",
                *image.beam_major_deg * 3600.0, *image.beam_minor_deg * 3600.0,
                image.beam_pa_deg ? *image.beam_pa_deg : 0.0);
  return buffer;
}

std::string describe_image_header(const std::string& path, const FitsImage& image) {
  std::string out = path + " (FITS image)\n";
  out += report_line("Telescope", text_or_unknown(image.telescope));
  out += report_line("Object", text_or_unknown(image.object));
  out += report_line("Origin", text_or_unknown(image.origin));
  out += report_line("Date (UTC)", text_or_unknown(image.date_obs));
  out += report_line("Size (pixels)", std::to_string(image.nx) + " x " + std::to_string(image.ny));
  out += report_line("Cell (arcsec)", report_number("%.6g", image.cell_rad * kRadToDeg * 3600.0));
  out += report_line("Field of view (deg)",
                     report_number("%.4g", image.nx * image.cell_rad * kRadToDeg) + " x " +
                         report_number("%.4g", image.ny * image.cell_rad * kRadToDeg));
  out += report_line("Centre (J2000)", sky_position(image.phase_centre_ra_rad * kRadToDeg,
                                                    image.phase_centre_dec_rad * kRadToDeg));
  out += report_line("Frequency (MHz)", report_number("%.6f", image.freq_hz / 1e6));
  out += report_line("Bandwidth (MHz)", report_number("%.6f", image.bandwidth_hz / 1e6));
  out += report_line("Stokes", stokes_name(image.stokes));
  out += report_line("Unit (BUNIT)", text_or_unknown(image.bunit));
  out += report_line("Beam", beam_text(image));
  return out;
}

// Min, max, rms and the peak's pixel; NaN (blanked) pixels are counted and left out.
std::string describe_image_statistics(const FitsImage& image) {
  RunningStats stats;
  size_t blanked = 0, peak = 0;
  for (size_t i = 0; i < image.pixels.size(); ++i) {
    const float value = image.pixels[i];
    if (!std::isfinite(value)) { ++blanked; continue; }
    if (stats.count == 0 || value > image.pixels[peak]) peak = i;
    stats.add(value);
  }
  std::string out = "Statistics of " + std::to_string(image.pixels.size()) + " pixels:\n";
  out += report_line("Pixels", stats_summary(stats));
  out += report_line("Blanked (NaN) pixels", std::to_string(blanked));
  if (stats.count > 0) {
    const int x = int(peak % size_t(image.nx)), y = int(peak / size_t(image.nx));
    out += report_line("Peak", report_number("%.6g", image.pixels[peak]) + " at pixel (" +
                                   std::to_string(x) + ", " + std::to_string(y) +
                                   ") from 0; FITS (" + std::to_string(x + 1) + ", " +
                                   std::to_string(y + 1) + ")");
  }
  return out;
}

}  // namespace

std::string describe_fits_image_file(const std::string& path, const InspectSettings& settings,
                                     std::vector<std::string>* warnings) {
  const FitsImage image = read_fits_image(path, warnings);
  std::string out = describe_image_header(path, image);
  if (!settings.header_only) out += describe_image_statistics(image);
  return out;
}

}  // namespace rapt
