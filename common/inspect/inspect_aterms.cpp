// inspect's report for an A-term cube (imaging/aterm_cube.hpp): its shape, screen, band and
// time slots, and how far its matrices stand from the identity.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include "imaging/aterm_cube.hpp"
#include "inspect/inspect_sections.hpp"
#include "inspect/report_text.hpp"

namespace rapt {

namespace {

constexpr double kRadToDeg = 57.295779513082320876;

std::string matrix_kind(int matrix) {
  switch (matrix) {
    case 2: return "2 (one complex gain per station)";
    case 4: return "4 (diagonal: XX and YY gains)";
    default: return "8 (full 2 x 2 Jones matrices)";
  }
}

std::string describe_aterm_header(const std::string& path, const ATermCube& cube) {
  std::string out = path + " (A-term cube)\n";
  out += report_line("Matrix", matrix_kind(cube.matrix));
  out += report_line("Antennas", std::to_string(cube.nr_antennas));
  out += report_line("Screen (pixels)", std::to_string(cube.nx) + " x " + std::to_string(cube.ny));
  out += report_line("Cell (arcmin)",
                     report_number("%.6g", std::fabs(cube.ra_cdelt_rad) * kRadToDeg * 60.0) + " x " +
                         report_number("%.6g", std::fabs(cube.dec_cdelt_rad) * kRadToDeg * 60.0));
  out += report_line("Centre (J2000)",
                     sky_position(cube.ra_crval_rad * kRadToDeg, cube.dec_crval_rad * kRadToDeg));
  std::string freqs = report_number("%.6f", cube.freq_hz.front() / 1e6);
  if (cube.nr_freqs > 1) freqs += " - " + report_number("%.6f", cube.freq_hz.back() / 1e6);
  out += report_line("Frequency planes", std::to_string(cube.nr_freqs) + ", " + freqs + " MHz");
  if (cube.nr_times == 1) {
    out += report_line("Time slots", "1 (every visibility)");
  } else {
    out += report_line("Time slots",
                       std::to_string(cube.nr_times) + " of " +
                           report_number("%.6g", cube.time_step_days * 86400.0) + " s");
    out += report_line("First slot centre (UTC)", utc_date_time(cube.time_mjd.front()));
    out += report_line("Last slot centre (UTC)", utc_date_time(cube.time_mjd.back()));
  }
  return out;
}

// Amplitudes of the diagonal and off-diagonal elements over the whole cube.
std::string describe_aterm_values(const ATermCube& cube) {
  double diag_min = INFINITY, diag_max = 0, leak_max = 0;
  for (size_t m = 0; m + 3 < cube.jones.size(); m += 4) {
    for (size_t e : {size_t(0), size_t(3)}) {
      const double a = std::abs(cube.jones[m + e]);
      diag_min = std::min(diag_min, a);
      diag_max = std::max(diag_max, a);
    }
    leak_max = std::max({leak_max, double(std::abs(cube.jones[m + 1])),
                         double(std::abs(cube.jones[m + 2]))});
  }
  std::string out;
  out += report_line("|XX|, |YY|", report_number("%.6g", diag_min) + " to " +
                                        report_number("%.6g", diag_max));
  out += report_line("|XY|, |YX| up to", report_number("%.6g", leak_max));
  return out;
}

}  // namespace

std::string describe_aterm_cube_file(const std::string& path, const InspectSettings& settings) {
  const ATermCube cube = read_aterm_cube(path);
  std::string out = describe_aterm_header(path, cube);
  if (!settings.header_only) out += describe_aterm_values(cube);
  return out;
}

}  // namespace rapt
