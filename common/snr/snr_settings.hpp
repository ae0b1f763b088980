// What a single-pulse search does to each series: how it removes the baseline, how it
// estimates the noise, which boxcar widths it tries and where it sets the threshold
// (shared reference formats.md section 5 describes PRESTO's single_pulse_search.py).
#pragma once
#include <cstdint>
#include <vector>

namespace rapt {

enum class Baseline { kMedian, kLinear };           // per detrend block
enum class NoiseEstimate { kMad, kClippedRms };     // 1.4826 x MAD, or PRESTO's clipped rms

struct SnrSettings {
  double threshold = 5.0;          // events need S/N strictly above this (PRESTO's -t)
  int64_t detrend_len = 1000;      // samples per detrend block (PRESTO: 1000 x -d)
  Baseline baseline = Baseline::kMedian;
  NoiseEstimate noise = NoiseEstimate::kMad;
  bool reject_bad_blocks = true;   // PRESTO's default; -b turns it off
  std::vector<int> widths{1, 2, 3, 4, 6, 9, 14, 20, 30};  // ascending, samples

  int max_width() const { return widths.empty() ? 1 : widths.back(); }
};

// Throws UsageError when a field is out of range (threshold not finite, detrend_len < 8,
// widths empty, not ascending, or below 1).
void validate_snr_settings(const SnrSettings& settings);

// Boxcar widths: 1, then PRESTO's 2, 3, 4, 6, 9, 14, 20, 30, 45, 70, 100, 150, 220, 300 and,
// past 300, steps of about 1.5x, up to and including `max_width_samples`.
std::vector<int> boxcar_widths_up_to(int64_t max_width_samples);

}  // namespace rapt
