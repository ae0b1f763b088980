#include "snr/profile_snr.hpp"

#include <cmath>

#include "cli/errors.hpp"

namespace rapt {

ProfileSnr profile_snr(const std::vector<double>& profile, const std::string& name) {
  const int nbins = int(profile.size());
  if (nbins < 4) throw file_error(name, "profile has fewer than 4 bins");
  double total = 0.0, total_sq = 0.0;
  for (double v : profile) total += v, total_sq += v * v;
  ProfileSnr best;
  bool found = false;
  for (int width = 1; width <= nbins / 2; ++width) {
    const int off_bins = nbins - width;
    for (int start = 0; start < nbins; ++start) {
      double on = 0.0, on_sq = 0.0;
      for (int k = 0; k < width; ++k) {
        const double v = profile[size_t((start + k) % nbins)];
        on += v, on_sq += v * v;
      }
      const double off_mean = (total - on) / off_bins;
      const double off_var = ((total_sq - on_sq) - off_bins * off_mean * off_mean) / (off_bins - 1);
      if (!(off_var > 0.0)) continue;
      const double snr = (on - width * off_mean) / (std::sqrt(off_var) * std::sqrt(double(width)));
      if (!found || snr > best.snr) best = {snr, width, start}, found = true;
    }
  }
  if (!found) throw file_error(name, "profile is flat; no S/N");
  return best;
}

}  // namespace rapt
