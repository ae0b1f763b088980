// rz_interpolate() (rz_interp.hpp) split into a per-point setup and a per-bin term, written once
// for host and device: the host sums the terms in a loop, a device block shares them out.
#pragma once
#include <math.h>
#include <stdint.h>

#include "accel/fourier_response_core.hpp"
#include "accel/host_device.hpp"

namespace rapt::fdotmath {

enum class RzSumKind { Zero, SingleBin, NoDrift, Drift };

// Everything about one interpolation point that does not change from bin to bin.
struct RzSum {
  RzSumKind kind;
  int64_t first;  // bins first..last (inclusive) are summed; SingleBin: the bin returned
  int64_t last;
  int64_t centre;  // floor(r)
  double frac;     // r - floor(r)
  double z;
  DriftResponse drift;
  // NoDrift: exp(-i pi frac) sin(pi frac) / pi, the numerator every coefficient shares (bin k's
  // coefficient exp(-i pi d) sin(pi d) / (pi d), d = frac + centre - k, differs only by 1/d:
  // the signs (-1)^(centre-k) of exp(-i pi d) and sin(pi d) cancel).
  // Drift: exp(2 pi i frac) = exp(2 pi i d) for every bin.
  Complex shared;
};

RAPT_HOST_DEVICE inline RzSum rz_sum_setup(int64_t numbins, double r, double z, int halfwidth) {
  constexpr double kIntegerTolerance = 1e-5;
  RzSum s{};
  s.kind = RzSumKind::Zero;
  if (r > static_cast<double>(numbins) - 1.0 || r < 0.0) return s;
  const double whole = floor(r);
  s.frac = r - whole;
  s.centre = static_cast<int64_t>(whole);
  s.z = z;
  if (fabs(z) < kSmallZ) {
    if (s.frac < kIntegerTolerance || 1.0 - s.frac < kIntegerTolerance) {
      s.kind = RzSumKind::SingleBin;
      s.first = s.last = s.frac < kIntegerTolerance ? s.centre : s.centre + 1;
      return s;
    }
    s.kind = RzSumKind::NoDrift;
    const double x = kPi * s.frac;
    s.shared = (sin(x) / kPi) * Complex{cos(x), -sin(x)};
  } else {
    s.kind = RzSumKind::Drift;
    s.drift = drift_response(fabs(z));
    s.shared = cis(2.0 * kPi * s.frac);
  }
  s.first = s.centre - halfwidth > 0 ? s.centre - halfwidth : 0;
  s.last = s.centre + halfwidth - 1 < numbins - 1 ? s.centre + halfwidth - 1 : numbins - 1;
  return s;
}

// Coefficient of bin k (first <= k <= last) for a NoDrift or Drift sum.
RAPT_HOST_DEVICE inline Complex rz_sum_coefficient(const RzSum& s, int64_t k) {
  const double d = s.frac + static_cast<double>(s.centre - k);
  if (s.kind == RzSumKind::NoDrift) {
    if (fabs(kPi * d) < 1e-8) return interpolation_coefficient(d);
    return (1.0 / d) * s.shared;
  }
  return response_coefficient(d, s.z, s.drift, s.shared);
}

// Bin k's contribution; `spectrum` holds numbins interleaved (re, im) float pairs.
RAPT_HOST_DEVICE inline Complex rz_sum_term(const RzSum& s, const float* spectrum, int64_t k) {
  const Complex f{spectrum[2 * k], spectrum[2 * k + 1]};
  return f * rz_sum_coefficient(s, k);
}

}  // namespace rapt::fdotmath
