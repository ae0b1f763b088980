#include "snr/snr_settings.hpp"

#include <cmath>
#include <string>

#include "cli/errors.hpp"

namespace rapt {

void validate_snr_settings(const SnrSettings& settings) {
  if (!std::isfinite(settings.threshold)) throw UsageError("the threshold must be a finite number");
  if (settings.detrend_len < 8)
    throw UsageError("the detrend length must be at least 8 samples, not " +
                     std::to_string(settings.detrend_len));
  if (settings.widths.empty()) throw UsageError("no boxcar widths");
  for (size_t i = 0; i < settings.widths.size(); ++i) {
    if (settings.widths[i] < 1) throw UsageError("boxcar widths must be at least 1 sample");
    if (i > 0 && settings.widths[i] <= settings.widths[i - 1])
      throw UsageError("boxcar widths must be ascending");
  }
}

std::vector<int> boxcar_widths_up_to(int64_t max_width_samples) {
  static constexpr int kPrestoWidths[] = {1,  2,  3,   4,   6,   9,   14, 20,
                                          30, 45, 70, 100, 150, 220, 300};
  std::vector<int> widths;
  for (int w : kPrestoWidths)
    if (w <= max_width_samples || w == 1) widths.push_back(w);
  if (max_width_samples <= 300) return widths;
  // Past PRESTO's list: 450, 680, 1000, ... (x1.5, rounded to two significant digits).
  double next = 300.0;
  while (true) {
    next *= 1.5;
    const double scale = std::pow(10.0, std::floor(std::log10(next)) - 1.0);
    const int64_t w = int64_t(std::round(next / scale) * scale);
    if (w > max_width_samples || w > (int64_t(1) << 30)) break;
    widths.push_back(int(w));
  }
  return widths;
}

}  // namespace rapt
