// inspect's report for visibilities: UVFITS files and Measurement Sets, both read whole into a
// VisibilitySet (the readers have no header-only mode).
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/errors.hpp"
#include "inspect/inspect_sections.hpp"
#include "inspect/report_text.hpp"
#include "io/measurement_set.hpp"
#include "io/uvfits.hpp"

namespace rapt {

namespace {

constexpr double kRadToDeg = 57.295779513082320876;

std::string product_names(const VisibilitySet& vis) {
  std::string names;
  for (const int code : vis.stokes) names += (names.empty() ? "" : " ") + stokes_name(code);
  return names.empty() ? "none" : names;
}

std::string time_range(const VisibilitySet& vis) {
  if (vis.time_mjd.empty()) return "no rows";
  const auto [first, last] = std::minmax_element(vis.time_mjd.begin(), vis.time_mjd.end());
  return utc_date_time(*first) + " .. " + utc_date_time(*last) + " (MJD " +
         report_number("%.8f", *first) + " .. " + report_number("%.8f", *last) + ")";
}

// Longest and shortest |uvw| over the rows, metres (autocorrelations, |uvw| = 0, left out of
// the shortest).
std::pair<double, double> baseline_length_range_m(const VisibilitySet& vis) {
  double longest = 0, shortest = 0;
  for (const auto& uvw : vis.uvw_m) {
    const double length = std::sqrt(uvw[0] * uvw[0] + uvw[1] * uvw[1] + uvw[2] * uvw[2]);
    longest = std::max(longest, length);
    if (length > 0 && (shortest == 0 || length < shortest)) shortest = length;
  }
  return {shortest, longest};
}

// Largest |u|, |v| and |w| over the rows, metres.
std::string uvw_extent_m(const VisibilitySet& vis) {
  double largest[3] = {0, 0, 0};
  for (const auto& uvw : vis.uvw_m)
    for (int k = 0; k < 3; ++k) largest[k] = std::max(largest[k], std::fabs(uvw[size_t(k)]));
  return report_number("%.3f", largest[0]) + " " + report_number("%.3f", largest[1]) + " " +
         report_number("%.3f", largest[2]);
}

std::string antenna_count(const VisibilitySet& vis) {
  std::set<int> used(vis.antenna1.begin(), vis.antenna1.end());
  used.insert(vis.antenna2.begin(), vis.antenna2.end());
  return std::to_string(vis.array.size()) + " in the antenna table, " +
         std::to_string(used.size()) + " in the rows";
}

std::string describe_visibility_header(const std::string& path, const std::string& format,
                                       const VisibilitySet& vis) {
  std::set<std::pair<int, int>> baselines;
  for (size_t r = 0; r < vis.nrows(); ++r) baselines.insert({vis.antenna1[r], vis.antenna2[r]});
  const std::set<double> times(vis.time_mjd.begin(), vis.time_mjd.end());
  const auto [shortest_m, longest_m] = baseline_length_range_m(vis);
  std::string out = path + " (" + format + ")\n";
  out += report_line("Telescope", vis.telescope.empty() ? "unknown" : vis.telescope);
  out += report_line("Instrument", vis.instrument.empty() ? "unknown" : vis.instrument);
  out += report_line("Source", vis.object.empty() ? "unknown" : vis.object);
  out += report_line("Phase centre (J2000)", sky_position(vis.phase_centre_ra_rad * kRadToDeg,
                                                          vis.phase_centre_dec_rad * kRadToDeg));
  const SkyDirection pointing = vis.pointing_or_phase_centre();
  out += report_line("Pointing (J2000)",
                     sky_position(pointing.ra_rad * kRadToDeg, pointing.dec_rad * kRadToDeg));
  out += report_line("Rows", std::to_string(vis.nrows()));
  size_t autos = 0;
  for (const auto& [a1, a2] : baselines) autos += a1 == a2;
  out += report_line("Baselines", std::to_string(baselines.size()) +
                                      (autos ? " (" + std::to_string(autos) +
                                                   " of them autocorrelations)"
                                             : std::string()));
  out += report_line("Antennas", antenna_count(vis));
  out += report_line("Integrations", std::to_string(times.size()));
  out += report_line("Time range (UTC)", time_range(vis));
  if (!vis.integration_s.empty())
    out += report_line("Integration time (s)", report_number("%.6g", vis.integration_s[0]));
  out += report_line("Channels", std::to_string(vis.nchan()));
  if (vis.nchan() > 0) {
    out += report_line("First channel (MHz)", report_number("%.6f", vis.channel_freq_hz.front() / 1e6));
    out += report_line("Last channel (MHz)", report_number("%.6f", vis.channel_freq_hz.back() / 1e6));
  }
  out += report_line("Channel width (kHz)", report_number("%.6f", vis.channel_width_hz / 1e3));
  out += report_line("Polarisation products", product_names(vis));
  out += report_line("Longest baseline |uvw| (m)", report_number("%.3f", longest_m));
  out += report_line("Shortest baseline |uvw| (m)", report_number("%.3f", shortest_m));
  out += report_line("Largest |u| |v| |w| (m)", uvw_extent_m(vis));
  return out;
}

// Amplitudes of unflagged data and the fraction flagged, per product and over all.
std::string describe_visibility_statistics(const VisibilitySet& vis) {
  const size_t nprod = vis.nstokes();
  std::vector<RunningStats> amplitude(nprod);
  RunningStats every;  // flags ignored: files flagged throughout still show their data
  std::vector<size_t> flagged(nprod, 0), total(nprod, 0);
  size_t non_finite = 0;
  for (size_t i = 0; i < vis.vis.size(); ++i) {
    const size_t p = i % nprod;
    ++total[p];
    const bool is_flagged = i < vis.flag.size() && vis.flag[i];
    if (is_flagged) ++flagged[p];
    // Some writers store flagged data as NaN: counted apart, or every figure would be NaN.
    const float amplitude_i = std::abs(vis.vis[i]);
    if (!std::isfinite(amplitude_i)) {
      ++non_finite;
      continue;
    }
    every.add(amplitude_i);
    if (!is_flagged) amplitude[p].add(amplitude_i);
  }
  const auto row = [](const std::string& label, const RunningStats& s, size_t nflag, size_t n) {
    char buffer[200];
    std::snprintf(buffer, sizeof buffer, "|V| mean %-11.6g rms %-11.6g max %-11.6g flagged %.4f",
                  s.mean, rms_about_zero(s), s.count ? s.max : 0.0,
                  n ? double(nflag) / double(n) : 0.0);
    return report_line(label, buffer);
  };
  std::string out = "Statistics of " + std::to_string(vis.vis.size()) + " visibilities:\n";
  RunningStats all;
  size_t all_flagged = 0;
  for (size_t p = 0; p < nprod; ++p) {
    out += row(stokes_name(vis.stokes[p]), amplitude[p], flagged[p], total[p]);
    all.merge(amplitude[p]);
    all_flagged += flagged[p];
  }
  out += row("All products", all, all_flagged, vis.vis.size());
  if (all_flagged > 0) out += row("All, flags ignored", every, 0, vis.vis.size());
  if (non_finite > 0)
    out += report_line("Non-finite values", std::to_string(non_finite) +
                                                " (NaN or infinite; left out of the statistics)");
  return out;
}

}  // namespace

std::string describe_uvfits_file(const std::string& path, const InspectSettings& settings,
                                 std::vector<std::string>* warnings) {
  const VisibilitySet vis = read_uvfits(path, warnings);
  std::string out = describe_visibility_header(path, "UVFITS", vis);
  if (!settings.header_only) out += describe_visibility_statistics(vis);
  return out;
}

std::string describe_measurement_set(const std::string& path, const InspectSettings& settings,
                                     std::vector<std::string>* warnings) {
  VisibilitySet vis;
  try {
    vis = read_measurement_set(path, {}, warnings);
  } catch (const UsageError& e) {
    // A build without casacore: for inspect that is one file it cannot read, not bad usage.
    throw DataError(e.what());
  }
  std::string out = describe_visibility_header(path, "Measurement Set", vis);
  if (!settings.header_only) out += describe_visibility_statistics(vis);
  return out;
}

}  // namespace rapt
