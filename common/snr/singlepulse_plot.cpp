#include "snr/singlepulse_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "plot/png_page.hpp"

#ifdef RAPT_WITH_PLPLOT
#include <plplot.h>
#endif

namespace rapt {

#ifdef RAPT_WITH_PLPLOT
namespace {

// Circle radius (symbol scale) for an S/N: PRESTO grows markers with S/N above the threshold.
double marker_scale(double snr, double threshold) {
  return 0.3 + std::min(2.0, 0.12 * std::max(0.0, snr - threshold + 1.0));
}

void plot_histogram(const std::vector<SinglePulseEvent>& events, const SinglePulsePlotRange& r,
                    double max_snr) {
  plvpor(0.09, 0.45, 0.62, 0.92);
  std::vector<double> snr;
  for (const auto& e : events) snr.push_back(e.sigma);
  const int nbins = 40;
  std::vector<double> counts(nbins, 0.0), edges(nbins);
  const double width = (max_snr - r.threshold) / nbins;
  for (int i = 0; i < nbins; ++i) edges[size_t(i)] = r.threshold + i * width;
  for (double s : snr) {
    const int bin = std::min(nbins - 1, std::max(0, int((s - r.threshold) / width)));
    counts[size_t(bin)] += 1.0;
  }
  const double top = std::max(1.0, *std::max_element(counts.begin(), counts.end()));
  plwind(r.threshold, max_snr, 0.0, top * 1.1);
  plcol0(1);
  plbox("bcnst", 0.0, 0, "bcnstv", 0.0, 0);
  pllab("Signal-to-noise", "Number of pulses", "");
  plcol0(9);
  plbin(nbins, edges.data(), counts.data(), PL_BIN_NOEXPAND);
}

void plot_snr_vs_dm(const std::vector<SinglePulseEvent>& events, const SinglePulsePlotRange& r,
                    double max_snr) {
  plvpor(0.58, 0.95, 0.62, 0.92);
  plwind(r.lo_dm, std::max(r.hi_dm, r.lo_dm + 1.0), r.threshold, max_snr);
  plcol0(1);
  plbox("bcnst", 0.0, 0, "bcnstv", 0.0, 0);
  pllab("DM (pc cm#u-3#d)", "Signal-to-noise", "");
  plcol0(9);
  plssym(0.0, 0.6);
  for (const auto& e : events) {
    const double x = e.dm, y = e.sigma;
    plpoin(1, &x, &y, 17);
  }
}

void plot_dm_vs_time(const std::vector<SinglePulseEvent>& events, const SinglePulsePlotRange& r) {
  plvpor(0.09, 0.95, 0.08, 0.50);
  plwind(0.0, std::max(r.duration_s, 1e-3), r.lo_dm, std::max(r.hi_dm, r.lo_dm + 1.0));
  plcol0(1);
  plbox("bcnst", 0.0, 0, "bcnstv", 0.0, 0);
  pllab("Time (s)", "DM (pc cm#u-3#d)", "");
  plcol0(1);
  for (const auto& e : events) {
    const double x = e.time_s, y = e.dm;
    plssym(0.0, marker_scale(e.sigma, r.threshold));
    plpoin(1, &x, &y, 4);  // open circle
  }
}

void draw_page(const std::vector<SinglePulseEvent>& events, const SinglePulsePlotRange& range,
               const std::string& title) {
  pladv(0);
  plschr(0.0, 0.8);
  double max_snr = range.threshold + 1.0;
  for (const auto& e : events) max_snr = std::max(max_snr, e.sigma * 1.05);
  plot_histogram(events, range, max_snr);
  plot_snr_vs_dm(events, range, max_snr);
  plot_dm_vs_time(events, range);
  plvpor(0.09, 0.95, 0.62, 0.92);
  plcol0(1);
  plmtex("t", 1.5, 0.5, 0.5, title.c_str());
}

}  // namespace

bool singlepulse_plot_available() { return true; }

void plot_singlepulse_png(const std::string& path, const std::vector<SinglePulseEvent>& events,
                          const SinglePulsePlotRange& range, const std::string& title,
                          bool overwrite) {
  write_png_page(path, 1200, 900, overwrite, [&] { draw_page(events, range, title); });
}

#else

bool singlepulse_plot_available() { return false; }

void plot_singlepulse_png(const std::string&, const std::vector<SinglePulseEvent>&,
                          const SinglePulsePlotRange&, const std::string&, bool) {
  throw UsageError("--plot: built without PLplot (install libplplot-dev plplot-driver-cairo "
                   "and rebuild)");
}

#endif

std::string observation_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string suffix = ".singlepulse";
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    name.resize(name.size() - suffix.size());
  const size_t dm = name.rfind("_DM");
  return dm == std::string::npos || dm == 0 ? name : name.substr(0, dm);
}

}  // namespace rapt
