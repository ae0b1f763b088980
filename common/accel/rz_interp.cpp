#include "accel/rz_interp.hpp"

#include <algorithm>
#include <cmath>

#include "accel/fourier_response.hpp"

namespace rapt {
namespace {

constexpr double kSmallZ = 1e-4;
constexpr double kIntegerTolerance = 1e-5;

}  // namespace

std::complex<double> rz_interpolate(const std::complex<float>* spectrum, int64_t numbins, double r,
                                    double z, int halfwidth) {
  if (r > static_cast<double>(numbins) - 1.0 || r < 0.0) return 0.0;
  const double whole = std::floor(r);
  const double frac = r - whole;
  const int64_t centre = static_cast<int64_t>(whole);
  if (std::fabs(z) < kSmallZ) {
    if (frac < kIntegerTolerance) return std::complex<double>(spectrum[centre]);
    if (1.0 - frac < kIntegerTolerance) return std::complex<double>(spectrum[centre + 1]);
  }
  const int64_t first = std::max<int64_t>(centre - halfwidth, 0);
  const int64_t last = std::min<int64_t>(centre + halfwidth - 1, numbins - 1);
  std::complex<double> sum = 0.0;
  for (int64_t k = first; k <= last; ++k) {
    sum += std::complex<double>(spectrum[k]) *
           fdot_response_coefficient(frac + static_cast<double>(centre - k), z);
  }
  return sum;
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
