// inspect's report for the results of a periodicity search: accelsearch's ACCEL candidate table
// (accelgpu, harmsum) and prepfold's .pfd (fold), read by the io/ readers PRESTO's twins use.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "geometry/interferometer_geometry.hpp"  // kSpeedOfLight_m_s
#include "inspect/inspect_sections.hpp"
#include "inspect/report_text.hpp"
#include "io/accel_files.hpp"
#include "io/pfd.hpp"

namespace rapt {

namespace {

constexpr size_t kCandidatesShown = 10;

std::string describe_candidate_table(const AccelCandidates& accel) {
  std::vector<const AccelCandidate*> order;
  for (const AccelCandidate& c : accel.candidates) order.push_back(&c);
  const auto more_significant = [](const AccelCandidate* a, const AccelCandidate* b) {
    return a->sigma > b->sigma;
  };
  std::stable_sort(order.begin(), order.end(), more_significant);
  const double t = accel.obs_length_s;
  std::string out = "Strongest candidates:\n";
  out += "     cand  sigma     harm  period_ms         freq_Hz          z          accel_m/s^2\n";
  for (size_t i = 0; i < std::min(order.size(), kCandidatesShown); ++i) {
    const AccelCandidate& c = *order[i];
    const size_t number = size_t(&c - accel.candidates.data()) + 1;
    // f = r / T, fdot = z / T^2 and a = c fdot / f, as the table's own columns are derived;
    // "-" where T is not known (no .inf appended) or r is 0.
    const double f_hz = t > 0 ? c.r / t : NAN;
    const double accel_ms2 = t > 0 && c.r != 0 ? kSpeedOfLight_m_s * c.z / (c.r * t) : NAN;
    const auto figure = [](const char* format, double value) {
      return std::isfinite(value) ? report_number(format, value) : std::string("-");
    };
    char line[200];
    std::snprintf(line, sizeof line, "  %7zu  %-9.2f %4d  %-16s  %-15s  %-10.4g %s\n", number,
                  c.sigma, c.numharm, figure("%.9g", 1e3 / f_hz).c_str(),
                  figure("%.9g", f_hz).c_str(), c.z, figure("%.4g", accel_ms2).c_str());
    out += line;
  }
  return out;
}

}  // namespace

std::string describe_accel_file(const std::string& path) {
  const AccelCandidates accel = read_accel_text(path);
  std::string out = path + " (PRESTO ACCEL candidates)\n";
  out += report_line("Candidates", std::to_string(accel.candidates.size()));
  out += report_line("Observation length (s)",
                     accel.obs_length_s > 0 ? report_number("%.6f", accel.obs_length_s)
                                            : "unknown (no .inf appended)");
  out += report_line("Jerk search", accel.jerk ? "yes (w columns)" : "no");
  if (!accel.candidates.empty()) out += describe_candidate_table(accel);
  return out;
}

std::string describe_pfd_file(const std::string& path) {
  const Pfd pfd = read_pfd(path);
  std::string out = path + " (PRESTO .pfd)\n";
  out += report_line("Candidate", pfd.candnm);
  out += report_line("Input file", pfd.filenm);
  out += report_line("Telescope", pfd.telescope);
  out += report_line("RA, Dec (J2000)", pfd.rastr + "  " + pfd.decstr);
  out += report_line("Epoch topo (MJD)", report_number("%.12f", pfd.tepoch_mjd));
  out += report_line("Epoch bary (MJD)", report_number("%.12f", pfd.bepoch_mjd));
  out += report_line("Sample time (s)", report_number("%.9g", pfd.dt_s));
  out += report_line("Folded span", report_number("%.4f", pfd.start_frac) + " .. " +
                                        report_number("%.4f", pfd.end_frac) + " of the data");
  out += report_line("Sub-integrations", std::to_string(pfd.npart));
  out += report_line("Subbands", std::to_string(pfd.nsub));
  out += report_line("Profile bins", std::to_string(pfd.proflen));
  out += report_line("Channels", std::to_string(pfd.numchan));
  out += report_line("Lowest channel (MHz)", report_number("%.6f", pfd.lofreq_mhz));
  out += report_line("Channel width (MHz)", report_number("%.6f", pfd.chan_wid_mhz));
  out += report_line("Best DM (pc cm^-3)", report_number("%.6g", pfd.bestdm));
  // Stored as P, P' (topo, bary; zero where not known) and f, f' (the fold itself).
  out += report_line("Topocentric P (ms), P'",
                     report_number("%.12g", pfd.topo.p1 * 1e3) + "  " +
                         report_number("%.6g", pfd.topo.p2));
  out += report_line("Barycentric P (ms), P'",
                     report_number("%.12g", pfd.bary.p1 * 1e3) + "  " +
                         report_number("%.6g", pfd.bary.p2));
  out += report_line("Folding f (Hz), f'", report_number("%.12g", pfd.fold.p1) + "  " +
                                               report_number("%.6g", pfd.fold.p2));
  out += report_line("Search grid (DM, P, P')", std::to_string(pfd.dms.size()) + " x " +
                                                    std::to_string(pfd.periods.size()) + " x " +
                                                    std::to_string(pfd.pdots.size()));
  return out;
}

}  // namespace rapt
