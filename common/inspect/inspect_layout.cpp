// inspect's report for a plain-text array layout file: its antennas and how far apart they are.
#include <cmath>
#include <string>

#include "geometry/array_layout.hpp"
#include "geometry/wgs84.hpp"
#include "inspect/inspect_sections.hpp"
#include "inspect/report_text.hpp"

namespace rapt {

namespace {

constexpr double kRadToDeg = 57.295779513082320876;

double distance_m(const ItrfPosition& a, const ItrfPosition& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

std::string baseline_range(const ArrayLayout& layout) {
  double shortest = 0, longest = 0;
  for (int i = 0; i < layout.size(); ++i)
    for (int j = i + 1; j < layout.size(); ++j) {
      const double d = distance_m(layout.antennas[size_t(i)].itrf_m, layout.antennas[size_t(j)].itrf_m);
      longest = std::max(longest, d);
      shortest = shortest == 0 ? d : std::min(shortest, d);
    }
  return report_number("%.3f", shortest) + " .. " + report_number("%.3f", longest);
}

std::string antenna_table(const ArrayLayout& layout, const GeodeticPosition& reference) {
  std::string out = "  name          east_m        north_m       up_m        diameter_m\n";
  for (const Antenna& antenna : layout.antennas) {
    const EnuOffset enu = itrf_to_enu(reference, antenna.itrf_m);
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "  %-12s  %-12.3f  %-12.3f  %-10.3f  %.4g\n",
                  antenna.name.c_str(), enu[0], enu[1], enu[2], antenna.dish_diameter_m);
    out += buffer;
  }
  return out;
}

}  // namespace

std::string describe_layout_file(const std::string& path) {
  return describe_layout(path, read_layout_file(path));
}

std::string describe_layout(const std::string& path, const ArrayLayout& layout) {
  const GeodeticPosition reference = itrf_to_geodetic(layout.reference_itrf_m);
  const ItrfPosition& xyz = layout.reference_itrf_m;
  std::string out = path + " (array layout)\n";
  out += report_line("Telescope", layout.telescope.empty() ? "unknown" : layout.telescope);
  out += report_line("Antennas", std::to_string(layout.size()));
  out += report_line("Reference ITRF (m)", report_number("%.3f", xyz[0]) + " " +
                                               report_number("%.3f", xyz[1]) + " " +
                                               report_number("%.3f", xyz[2]));
  out += report_line("Reference lat, lon (deg)",
                     report_number("%.6f", reference.latitude_rad * kRadToDeg) + " " +
                         report_number("%.6f", reference.longitude_rad * kRadToDeg));
  out += report_line("Reference height (m)", report_number("%.3f", reference.height_m));
  out += report_line("Baselines (m)", baseline_range(layout));
  return out + antenna_table(layout, reference);
}

}  // namespace rapt
