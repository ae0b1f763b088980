// The S/N of a folded profile (prepfold's .bestprof): the best boxcar over phase (wrapping
// round), widths 1 to half the bins, against the mean and standard deviation of the bins
// outside the boxcar: S/N = (on-pulse sum - width x off mean) / (off std x sqrt(width)).
#pragma once
#include <string>
#include <vector>

namespace rapt {

struct ProfileSnr {
  double snr = 0.0;
  int width_bins = 0;
  int start_bin = 0;  // first bin of the boxcar
};

// Throws DataError for fewer than 4 bins or a flat profile (the name is the caller's).
ProfileSnr profile_snr(const std::vector<double>& profile, const std::string& name);

}  // namespace rapt
