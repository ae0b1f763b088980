// The single-pulse plot, like single_pulse_search.py's: events as circles in DM vs time, sized
// by S/N, above a histogram of S/N and S/N vs DM. Written as PNG through PLplot's cairo driver;
// in a build without PLplot, plot_singlepulse_png throws UsageError "built without PLplot".
#pragma once
#include <string>
#include <vector>

#include "io/singlepulse.hpp"

namespace rapt {

struct SinglePulsePlotRange {
  double lo_dm = 0.0, hi_dm = 0.0;   // the DMs searched
  double duration_s = 0.0;           // of the series
  double threshold = 5.0;            // the lowest S/N shown
};

// "dir/obs_DM56.00" or "dir/obs_DM56.00.singlepulse" -> "obs": the name a plot's title gives a
// whole set of DM trials (a name without "_DM" loses only its directory and .singlepulse).
std::string observation_name(const std::string& path);

// True when this build can write PNG plots.
bool singlepulse_plot_available();

// Throws DataError naming `path` if it exists and !overwrite or the plot cannot be written.
void plot_singlepulse_png(const std::string& path, const std::vector<SinglePulseEvent>& events,
                          const SinglePulsePlotRange& range, const std::string& title,
                          bool overwrite);

}  // namespace rapt
