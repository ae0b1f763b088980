// The Fresnel integrals' building blocks, written once for host and device (fresnel.hpp wraps
// them for the host). A minimal complex type stands in for std::complex, which device code
// cannot use.
#pragma once
#include <math.h>

#include "accel/host_device.hpp"

namespace rapt::fdotmath {

constexpr double kPi = 3.14159265358979323846;
constexpr double kFresnelSeriesLimit = 1.8;  // below: power series; above: continued fraction

struct Complex {
  double re;
  double im;
};

RAPT_HOST_DEVICE inline Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
RAPT_HOST_DEVICE inline Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
RAPT_HOST_DEVICE inline Complex operator*(Complex a, Complex b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
RAPT_HOST_DEVICE inline Complex operator*(double s, Complex a) { return {s * a.re, s * a.im}; }
RAPT_HOST_DEVICE inline Complex conj(Complex a) { return {a.re, -a.im}; }
RAPT_HOST_DEVICE inline double norm(Complex a) { return a.re * a.re + a.im * a.im; }
// 1 / a; |a| stays far from under- and overflow here (|a| >= 1e-150 by the callers' clamps).
RAPT_HOST_DEVICE inline Complex reciprocal(Complex a) {
  const double inv = 1.0 / norm(a);
  return {a.re * inv, -a.im * inv};
}
RAPT_HOST_DEVICE inline Complex cis(double phase) { return {cos(phase), sin(phase)}; }

// C(x) + i S(x) for 0 <= x < kFresnelSeriesLimit by the Taylor series about 0. The largest
// term is ~30 there, so fewer than two digits are lost to cancellation.
RAPT_HOST_DEVICE inline Complex fresnel_series(double x) {
  const double a = 0.5 * kPi * x * x;  // pi x^2 / 2
  // term_n = (-1)^n a^n / n! * x; C takes even n / (2n+1), S odd n / (2n+1).
  double term = x;
  Complex out{0.0, 0.0};
  for (int n = 0; n < 200; ++n) {
    const double contribution = term / (2 * n + 1);
    if (n % 2 == 0) {
      out.re += (n % 4 == 0) ? contribution : -contribution;
    } else {
      out.im += (n % 4 == 1) ? contribution : -contribution;
    }
    term *= a / (n + 1);
    if (fabs(term) < 1e-18 * (fabs(out.re) + fabs(out.im))) break;
  }
  return out;
}

// For x >= kFresnelSeriesLimit, the auxiliary amplitude E(x) with
//   C(x) + i S(x) = (1+i)/2 - E(x) exp(i pi x^2 / 2),
// i.e. Im E = f(x) / (pi x) and Re E = g(x) / (pi x) in terms of the auxiliary functions f, g.
// From C + iS = (1+i)/2 (1 - erfc(w)), w = sqrt(pi)/2 (1-i) x, and erfc by its continued
// fraction erfc(w) = exp(-w^2)/sqrt(pi) / (w + (1/2)/(w + 1/(w + (3/2)/(w + ...)))) (modified
// Lentz); exp(-w^2) = exp(i pi x^2 / 2) is the phase left outside. Converges quickly for x > 1.6.
RAPT_HOST_DEVICE inline Complex fresnel_tail_amplitude(double x) {
  const double half_root_pi = 0.5 * sqrt(kPi);
  const Complex w{half_root_pi * x, -half_root_pi * x};
  constexpr double kTiny = 1e-150;
  Complex f = w;  // b0 = w
  Complex c = f;
  Complex d{0.0, 0.0};
  for (int n = 1; n < 100000; ++n) {
    const double a = 0.5 * n;
    d = w + a * d;
    if (norm(d) < kTiny * kTiny) d = {kTiny, 0.0};
    c = w + a * reciprocal(c);
    if (norm(c) < kTiny * kTiny) c = {kTiny, 0.0};
    d = reciprocal(d);
    const Complex delta = c * d;
    f = f * delta;
    if (norm(delta - Complex{1.0, 0.0}) < 1e-32) break;
  }
  // E = (1+i)/2 / (sqrt(pi) f)
  return Complex{0.5, 0.5} * reciprocal(sqrt(kPi) * f);
}

// pi x^2 / 2 with x^2 reduced modulo 4 exactly (x^2 = hi + lo), accurate for large x.
RAPT_HOST_DEVICE inline double fresnel_phase(double x) {
  const double hi = x * x;
  const double lo = fma(x, x, -hi);
  return 0.5 * kPi * (fmod(hi, 4.0) + lo);
}

}  // namespace rapt::fdotmath
