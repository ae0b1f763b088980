#include "accel/rz_interp.hpp"

#include <algorithm>
#include <cmath>

#include "accel/fourier_response.hpp"
#include "accel/rz_interp_core.hpp"

namespace rapt {

std::complex<double> rz_interpolate(const std::complex<float>* spectrum, int64_t numbins, double r,
                                    double z, int halfwidth) {
  using namespace fdotmath;
  const RzSum s = rz_sum_setup(numbins, r, z, halfwidth);
  if (s.kind == RzSumKind::Zero) return 0.0;
  if (s.kind == RzSumKind::SingleBin) return std::complex<double>(spectrum[s.first]);
  // std::complex<float> is laid out as float[2] (re, im).
  const float* values = reinterpret_cast<const float*>(spectrum);
  Complex sum{0.0, 0.0};
  for (int64_t k = s.first; k <= s.last; ++k) sum = sum + rz_sum_term(s, values, k);
  return {sum.re, sum.im};
}

double local_power(const std::complex<float>* spectrum, int64_t numbins, double r, double z) {
  const int halfwidth = z_response_halfwidth(z, ResponseAccuracy::Low);
  const double top = static_cast<double>(numbins);
  const auto clamp = [top](double x) { return std::min(std::max(x, 0.0), top); };
  constexpr int kPerSide = kLocalPowerBins / 2;
  const double lo1 = r - kLocalPowerGapBins - kPerSide;
  const double lo2 = r + kLocalPowerGapBins;
  const double ranges[2][2] = {{clamp(lo1), clamp(lo1 + kPerSide)},
                               {clamp(lo2), clamp(lo2 + kPerSide)}};
  double sum = 0.0;
  for (const auto& range : ranges) {
    for (double freq = range[0]; freq < range[1]; freq += 1.0) {
      sum += std::norm(rz_interpolate(spectrum, numbins, freq, z, halfwidth));
    }
  }
  return sum / kLocalPowerBins;
}

}  // namespace rapt
