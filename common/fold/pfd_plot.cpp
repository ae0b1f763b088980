#include "fold/pfd_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "fold/pfd_trials.hpp"
#include "plot/png_page.hpp"

#ifdef RAPT_WITH_PLPLOT
#include <plplot.h>
#endif

namespace rapt {

#ifdef RAPT_WITH_PLPLOT
namespace {

// PLplot reads '#' as the start of an escape sequence; "##" is a literal '#'.
std::string plot_text(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '#' ? std::string("##") : std::string(1, c);
  return out;
}

std::string format(const std::string& fmt, double value) {
  char text[96];
  std::snprintf(text, sizeof text, fmt.c_str(), value);
  return text;
}

void min_max(const std::vector<double>& v, double& lo, double& hi) {
  lo = *std::min_element(v.begin(), v.end());
  hi = *std::max_element(v.begin(), v.end());
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
  }
}

// A frame with labelled axes over [x0, x1] x [y0, y1] in the viewport given.
void frame(double vx0, double vx1, double vy0, double vy1, double x0, double x1, double y0,
           double y1, const char* xlabel, const char* ylabel) {
  plvpor(vx0, vx1, vy0, vy1);
  plwind(x0, x1, y0, y1);
  plcol0(1);
  plbox("bcnst", 0.0, 0, "bcnstv", 0.0, 0);
  pllab(xlabel, ylabel, "");
}

// rows x cols values (row-major) as a greyscale image over the current window, each row
// scaled to its own range (as prepfold scales each sub-integration), shown `repeat` times
// side by side.
void greyscale(const std::vector<double>& values, int rows, int cols, int repeat, double x0,
               double x1, double y0, double y1) {
  std::vector<double> scaled(values.size());
  for (int r = 0; r < rows; ++r) {
    const auto first = values.begin() + size_t(r) * size_t(cols);
    const double lo = *std::min_element(first, first + cols);
    const double hi = *std::max_element(first, first + cols);
    for (int c = 0; c < cols; ++c)
      scaled[size_t(r) * size_t(cols) + size_t(c)] =
          hi > lo ? (values[size_t(r) * size_t(cols) + size_t(c)] - lo) / (hi - lo) : 0.0;
  }
  const int nx = cols * repeat;
  std::vector<std::vector<double>> columns(static_cast<size_t>(nx), std::vector<double>(static_cast<size_t>(rows)));
  std::vector<const double*> pointers(static_cast<size_t>(nx));
  for (int x = 0; x < nx; ++x) {
    for (int r = 0; r < rows; ++r)
      columns[size_t(x)][size_t(r)] = scaled[size_t(r) * size_t(cols) + size_t(x % cols)];
    pointers[size_t(x)] = columns[size_t(x)].data();
  }
  plimage(pointers.data(), nx, rows, x0, x1, y0, y1, 0.0, 1.0, x0, x1, y0, y1);
}

// A plane of values (row-major: rows along y) as a greyscale scaled to its whole range.
void plane(const std::vector<double>& values, int rows, int cols, double x0, double x1, double y0,
           double y1) {
  double lo = 0.0, hi = 0.0;
  min_max(values, lo, hi);
  std::vector<std::vector<double>> columns(static_cast<size_t>(cols), std::vector<double>(static_cast<size_t>(rows)));
  std::vector<const double*> pointers(static_cast<size_t>(cols));
  for (int c = 0; c < cols; ++c) {
    for (int r = 0; r < rows; ++r)
      columns[size_t(c)][size_t(r)] = values[size_t(r) * size_t(cols) + size_t(c)];
    pointers[size_t(c)] = columns[size_t(c)].data();
  }
  plimage(pointers.data(), cols, rows, x0, x1, y0, y1, lo, hi, x0, x1, y0, y1);
}

void plot_profile(const PfdTrials& t) {
  const int n = int(t.best_profile.size());
  std::vector<double> x(size_t(2 * n + 1)), y(size_t(2 * n + 1));
  for (int i = 0; i <= 2 * n; ++i) {
    x[size_t(i)] = double(i) / n;
    y[size_t(i)] = t.best_profile[size_t(i % n)];
  }
  double lo = 0.0, hi = 0.0;
  min_max(t.best_profile, lo, hi);
  const double pad = 0.08 * (hi - lo);
  plvpor(0.07, 0.29, 0.72, 0.90);
  plwind(0.0, 2.0, lo - pad, hi + pad);
  plcol0(1);
  plbox("bcst", 0.0, 0, "bc", 0.0, 0);
  plmtex("t", 0.5, 0.5, 0.5, "2 pulses of the best profile");
  plcol0(9);
  plbin(2 * n, x.data(), y.data(), PL_BIN_NOEXPAND);
}

void plot_time_phase(const Pfd& pfd, const PfdTrials& t) {
  frame(0.07, 0.29, 0.07, 0.66, 0.0, 2.0, 0.0, std::max(t.total_s, 1e-9), "Phase", "Time (s)");
  greyscale(t.time_profiles, pfd.npart, pfd.proflen, 2, 0.0, 2.0, 0.0, std::max(t.total_s, 1e-9));
  plcol0(1);
  plbox("bcst", 0.0, 0, "bcst", 0.0, 0);
}

// Phase vs frequency when there are subbands; otherwise reduced chi^2 of the growing sum vs
// time (prepfold's companion panel), since one subband shows nothing.
void plot_frequency_or_time_chi2(const Pfd& pfd, const PfdTrials& t) {
  if (pfd.nsub > 1) {
    const double lo = pfd.lofreq_mhz - 0.5 * pfd.chan_wid_mhz;
    const double hi = lo + pfd.numchan * pfd.chan_wid_mhz;
    frame(0.37, 0.59, 0.07, 0.66, 0.0, 2.0, std::min(lo, hi), std::max(lo, hi), "Phase",
          "Frequency (MHz)");
    greyscale(t.subband_profiles, pfd.nsub, pfd.proflen, 2, 0.0, 2.0, std::min(lo, hi),
              std::max(lo, hi));
    plcol0(1);
    plbox("bcst", 0.0, 0, "bcst", 0.0, 0);
    return;
  }
  std::vector<double> times(t.time_chi2.size());
  for (size_t i = 0; i < times.size(); ++i) times[i] = double(i) * t.part_s;
  double lo = 0.0, hi = 0.0;
  min_max(t.time_chi2, lo, hi);
  frame(0.37, 0.59, 0.07, 0.66, 0.0, hi * 1.1, 0.0, std::max(t.total_s, 1e-9),
        "Reduced #gx#u2#d", "Time (s)");
  plcol0(9);
  plline(int(times.size()), t.time_chi2.data(), times.data());
}

void plot_curve(double vy0, double vy1, const std::vector<double>& x,
                const std::vector<double>& chi2, const std::string& xlabel) {
  double x0 = 0.0, x1 = 0.0, lo = 0.0, hi = 0.0;
  min_max(x, x0, x1);
  min_max(chi2, lo, hi);
  frame(0.70, 0.97, vy0, vy1, x0, x1, 0.0, hi * 1.1, xlabel.c_str(), "Reduced #gx#u2#d");
  plcol0(9);
  plline(int(x.size()), x.data(), chi2.data());
}

std::vector<double> offsets(const std::vector<double>& values, double origin, double scale) {
  std::vector<double> out;
  for (double v : values) out.push_back((v - origin) * scale);
  return out;
}

void plot_search_panels(const Pfd& pfd, const PfdTrials& t) {
  if (t.best_dm >= 0) {
    plot_curve(0.80, 0.93, pfd.dms, t.dm_chi2, "DM (pc cm#u-3#d)");
  } else {
    plvpor(0.70, 0.97, 0.80, 0.93);
    plwind(0.0, 1.0, 0.0, 1.0);
    plcol0(1);
    plptex(0.5, 0.5, 1.0, 0.0, 0.5, "No DM search (one subband)");
  }
  const double p0 = pfd.periods[size_t(t.best_period)];
  const double pd0 = pfd.pdots[size_t(t.best_pdot)];
  // Period offsets in us, or ms where they reach 1000 us (PLplot would add its own "(x10^3)"
  // where the unit is written).
  double span = 0.0;
  for (double p : pfd.periods) span = std::max(span, std::abs(p - p0));
  const bool in_ms = span >= 1e-3;
  const std::vector<double> px = offsets(pfd.periods, p0, in_ms ? 1e3 : 1e6);
  const std::vector<double> pdx = offsets(pfd.pdots, pd0, 1.0);
  const std::string unit = in_ms ? "ms" : "#gms";
  plot_curve(0.60, 0.73, px, t.period_chi2,
             format("Period - %.10g s (" + unit + ")", p0));
  plot_curve(0.40, 0.53, pdx, t.pdot_chi2, format("Pdot - %.4g (s/s)", pd0));
  double x0 = 0.0, x1 = 0.0, y0 = 0.0, y1 = 0.0;
  min_max(px, x0, x1);
  min_max(pdx, y0, y1);
  frame(0.70, 0.97, 0.07, 0.32, x0, x1, y0, y1, ("Period offset (" + unit + ")").c_str(),
        "Pdot offset (s/s)");
  plane(t.ppdot_chi2, int(pfd.pdots.size()), int(pfd.periods.size()), x0, x1, y0, y1);
  plcol0(1);
  plbox("bcst", 0.0, 0, "bcst", 0.0, 0);
}

void plot_text_block(const Pfd& pfd, const PfdTrials& t) {
  const bool bary = pfd.fold.pow == 1.0f;
  const std::string frame_name = bary ? "bary" : "topo";
  const std::vector<std::string> lines = {
      "Candidate: " + plot_text(pfd.candnm),
      "Telescope: " + plot_text(pfd.telescope),
      format("Epoch (" + frame_name + ") = %.9f MJD", bary ? pfd.bepoch_mjd : pfd.tepoch_mjd),
      format("Sample time = %.6g s", pfd.dt_s),
      format("Data folded (N) = %.0f", t.numdata),
      format("T = %.3f s", t.total_s),
      format("Profile bins = %.0f", double(pfd.proflen)),
      format("Reduced #gx#u2#d = %.3f", t.best_stats.redchi),
      format("P (" + frame_name + ") = %.12g ms", t.best_p_s * 1e3),
      format("Pdot (" + frame_name + ") = %.6g s/s", t.best_pdot_ss),
      format("DM = %.3f pc cm#u-3#d", pfd.bestdm),
      "RA = " + plot_text(pfd.rastr),
      "Dec = " + plot_text(pfd.decstr),
  };
  // Small enough that a line's superscript (chi^2, cm^-3) clears the line above.
  plvpor(0.37, 0.68, 0.68, 0.985);
  plschr(0.0, 0.58);
  plwind(0.0, 1.0, 0.0, 1.0);
  plcol0(1);
  for (size_t i = 0; i < lines.size(); ++i)
    plptex(0.0, 1.0 - (double(i) + 0.5) / double(lines.size()), 1.0, 0.0, 0.0, lines[i].c_str());
}

// Greyscale from white (low) to black (high), like prepfold's.
void set_grey_map() {
  const PLFLT position[2] = {0.0, 1.0}, level[2] = {1.0, 0.0};
  plscmap1n(128);
  plscmap1l(1, 2, position, level, level, level, nullptr);
}

void draw_page(const Pfd& pfd, const PfdTrials& t) {
  pladv(0);
  plschr(0.0, 0.7);
  set_grey_map();
  plot_profile(t);
  plot_time_phase(pfd, t);
  plot_frequency_or_time_chi2(pfd, t);
  plot_search_panels(pfd, t);
  plot_text_block(pfd, t);
  plvpor(0.07, 0.97, 0.92, 0.97);
  plcol0(1);
  plmtex("t", 0.5, 0.0, 0.0, plot_text(pfd.filenm).c_str());
}

}  // namespace

bool pfd_plot_available() { return true; }

void plot_pfd_png(const std::string& path, const Pfd& pfd, bool overwrite) {
  if (!overwrite && path_exists(path)) throw file_error(path, "exists (use --force to replace it)");
  const PfdTrials trials = compute_pfd_trials(pfd);
  write_png_page(path, 1400, 1000, overwrite, [&] { draw_page(pfd, trials); });
}

#else

bool pfd_plot_available() { return false; }

void plot_pfd_png(const std::string&, const Pfd&, bool) {
  throw UsageError("--plot: built without PLplot (install libplplot-dev plplot-driver-cairo "
                   "and rebuild)");
}

#endif

}  // namespace rapt
