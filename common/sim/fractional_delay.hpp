// Fractional-sample delay of a band-limited, critically sampled signal: an interpolating FIR
// (a windowed sinc) that gives the signal at a position between two samples.
//
// The value at position m + g (m an integer, 0 <= g < 1) is
//   sum_{i = 1 - T/2}^{T/2} h_i(g) x[m + i],  h_i(g) = sinc(i - g) w(i - g) / norm,
// with w a 4-term Blackman-Harris window spanning T samples (T even, the tap count) and `norm`
// chosen so that sum h_i^2 = 1: white noise keeps its power whatever g. g = 0 gives h = delta
// (no interpolation error at whole-sample positions). T = 2 is linear interpolation, also
// power-normalised. The response falls towards the band edges (|f| -> fs/2) for g near 1/2:
// a 16-tap filter keeps the correlated amplitude of white noise within about 2% of the ideal
// delay's, which is the first-order delay model the array simulator states.
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
