// Fractional-sample delay of a band-limited, critically sampled signal: an interpolating FIR
// (a windowed sinc) that gives the signal at a position between two samples.
//
// The value at position m + g (m an integer, 0 <= g < 1) is
//   sum_{i = 1 - T/2}^{T/2} h_i(g) x[m + i],  h_i(g) = sinc(i - g) w(i - g) / norm,
// with w a Kaiser window (beta 3) spanning T samples (T even, the tap count) and `norm` chosen
// so that sum h_i^2 = 1: white noise keeps its power whatever g. g = 0 gives h = delta (no
// interpolation error at whole-sample positions). T = 2 is linear interpolation, also
// power-normalised. The response falls towards the band edges (|f| -> fs/2) for g near 1/2,
// and the normalisation lifts the rest of the band to keep the power: with 16 taps, white
// noise delayed by g correlates with the undelayed copy at 1.00 to 1.035 times the ideal
// sinc(g), and a tone below 0.35 of the sample rate keeps its phase to 0.01 rad (32 taps:
// 1.02 times, and 0.01 rad up to 0.45).
#pragma once
#include <vector>

namespace rapt {

class FractionalDelayFilter {
 public:
  explicit FractionalDelayFilter(int taps);  // taps: even, 2 .. 64
  int taps() const { return taps_; }
  // Offset of the first tap from m: taps run over x[m + first_offset()] .. x[m + T/2].
  int first_offset() const { return 1 - taps_ / 2; }
  // Fills `h` (taps() values) for the fraction g in [0, 1).
  void taps_for(double g, float* h) const;

 private:
  int taps_;
};

}  // namespace rapt
