#include "accel/fresnel.hpp"

#include <cmath>
#include <complex>

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kSeriesLimit = 1.8;  // below: power series; above: continued fraction

// Taylor series of C and S about 0. Below kSeriesLimit the largest term is ~30, so fewer than
// two digits are lost to cancellation.
FresnelValues fresnel_series(double x) {
  const double a = 0.5 * kPi * x * x;  // pi x^2 / 2
  // term_n = (-1)^n a^n / n! * x; C takes even n / (2n+1), S odd n / (2n+1).
  double term = x;
  FresnelValues out;
  for (int n = 0; n < 200; ++n) {
    const double contribution = term / (2 * n + 1);
    if (n % 2 == 0) {
      out.c += (n % 4 == 0) ? contribution : -contribution;
    } else {
      out.s += (n % 4 == 1) ? contribution : -contribution;
    }
    term *= a / (n + 1);
    if (std::fabs(term) < 1e-18 * (std::fabs(out.c) + std::fabs(out.s))) break;
  }
  return out;
}

// C + iS = (1+i)/2 * (1 - erfc(w)) with w = sqrt(pi)/2 (1-i) x, and erfc by its continued
// fraction erfc(w) = exp(-w^2)/sqrt(pi) / (w + (1/2)/(w + 1/(w + (3/2)/(w + ...)))), evaluated
// with the modified Lentz method. Converges quickly for |w| > 2 (x > 1.6).
FresnelValues fresnel_continued_fraction(double x) {
  using cd = std::complex<double>;
  const cd w = 0.5 * std::sqrt(kPi) * cd(1.0, -1.0) * x;
  constexpr double kTiny = 1e-300;
  cd f = w;  // b0 = w
  cd c = f;
  cd d = 0.0;
  for (int n = 1; n < 100000; ++n) {
    const double a = 0.5 * n;
    d = w + a * d;
    if (std::abs(d) < kTiny) d = kTiny;
    c = w + a / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const cd delta = c * d;
    f *= delta;
    if (std::abs(delta - 1.0) < 1e-16) break;
  }
  // exp(-w^2) = exp(i pi x^2 / 2); x^2 is reduced modulo 4 exactly (x^2 = hi + lo) so the
  // phase stays accurate for large x.
  const double hi = x * x;
  const double lo = std::fma(x, x, -hi);
  const double phase = 0.5 * kPi * (std::fmod(hi, 4.0) + lo);
  const cd erfc_w = cd(std::cos(phase), std::sin(phase)) / (std::sqrt(kPi) * f);
  const cd cs = cd(0.5, 0.5) * (1.0 - erfc_w);
  return {cs.real(), cs.imag()};
}

}  // namespace

FresnelValues fresnel_integrals(double x) {
  const double ax = std::fabs(x);
  FresnelValues v = (ax < kSeriesLimit) ? fresnel_series(ax) : fresnel_continued_fraction(ax);
  if (x < 0.0) {
    v.c = -v.c;
    v.s = -v.s;
  }
  return v;
}

}  // namespace rapt
