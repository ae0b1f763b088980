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

RAPT_HOST_DEVICE inline Complex operator+(Complex a, Complex b) {
  return {a.re + b.re, a.im + b.im};
}
RAPT_HOST_DEVICE inline Complex operator-(Complex a, Complex b) {
  return {a.re - b.re, a.im - b.im};
}
RAPT_HOST_DEVICE inline Complex operator*(Complex a, Complex b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
RAPT_HOST_DEVICE inline Complex operator*(double s, Complex a) { return {s * a.re, s * a.im}; }
RAPT_HOST_DEVICE inline Complex conj(Complex a) { return {a.re, -a.im}; }
RAPT_HOST_DEVICE inline double norm(Complex a) { return a.re * a.re + a.im * a.im; }
// 1 / a, for |a| far from under- and overflow.
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
// fraction erfc(w) = exp(-w^2)/sqrt(pi) / K, K = w + (1/2)/(w + 1/(w + (3/2)/(w + ...))), whose
// exp(-w^2) = exp(i pi x^2 / 2) is the phase left outside. K's convergents A_n / B_n come from the
// forward recurrence X_n = w X_{n-1} + (n/2) X_{n-2}, free of divisions; since
// A_n B_{n-1} - A_{n-1} B_n = +-(1/2)(2/2)...(n/2) = +-P_n, the relative step between convergents
// is P_n / (|B_n| |A_{n-1}|), and the loop stops when that falls below 1e-16 (the criterion of
// the modified Lentz method, which needs two divisions a step). Converges quickly for x > 1.6
// (80 steps at 1.8, 14 at 5, 5 beyond 40).
RAPT_HOST_DEVICE inline Complex fresnel_tail_amplitude(double x) {
  const double half_root_pi = 0.5 * sqrt(kPi);
  const Complex w{half_root_pi * x, -half_root_pi * x};
  constexpr double kGrowthLimit = 0x1p+200;  // |B|^2 beyond this: rescale, exactly
  constexpr double kRescale = 0x1p-100;
  Complex a_prev{1.0, 0.0};
  Complex a_now = w;
  Complex b_prev{0.0, 0.0};
  Complex b_now{1.0, 0.0};
  double steps = 1.0;  // P_n, the product of the partial numerators so far
  for (int n = 1; n < 100000; ++n) {
    const double partial = 0.5 * n;
    const Complex a_next = w * a_now + partial * a_prev;
    const Complex b_next = w * b_now + partial * b_prev;
    steps *= partial;
    a_prev = a_now;
    a_now = a_next;
    b_prev = b_now;
    b_now = b_next;
    const double b_size = norm(b_now);
    if (steps * steps < 1e-32 * b_size * norm(a_prev)) break;
    if (b_size > kGrowthLimit) {
      a_prev = kRescale * a_prev;
      a_now = kRescale * a_now;
      b_prev = kRescale * b_prev;
      b_now = kRescale * b_now;
      steps *= kRescale * kRescale;
    }
  }
  // E = (1+i)/2 / (sqrt(pi) K) = (1+i)/2 B / (sqrt(pi) A)
  return Complex{0.5, 0.5} * (b_now * reciprocal(sqrt(kPi) * a_now));
}

// pi x^2 / 2 with x^2 reduced modulo 4 exactly (x^2 = hi + lo), accurate for large x.
RAPT_HOST_DEVICE inline double fresnel_phase(double x) {
  const double hi = x * x;
  const double lo = fma(x, x, -hi);
  return 0.5 * kPi * (fmod(hi, 4.0) + lo);
}

}  // namespace rapt::fdotmath
