// prepfold's one-page diagnostic plot of a .pfd, as PNG through PLplot's cairo driver: the
// summed profile twice, phase vs time and phase vs frequency greyscales, reduced chi^2 vs DM,
// period and Pdot, the period-Pdot chi^2 plane, and a block of text (candidate, telescope,
// epoch, T, N, bins, reduced chi^2, P, Pdot, DM). The curves come from compute_pfd_trials
// (fold/pfd_trials.hpp). In a build without PLplot, plot_pfd_png throws UsageError
// "built without PLplot".
#pragma once
#include <string>

#include "io/pfd.hpp"

namespace rapt {

// True when this build can write PNG plots.
bool pfd_plot_available();

// Throws DataError naming `path` if it exists and !overwrite or the plot cannot be written, or
// naming the candidate if the pfd holds nothing to plot.
void plot_pfd_png(const std::string& path, const Pfd& pfd, bool overwrite);

}  // namespace rapt
