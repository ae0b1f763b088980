#include "accel/accel_sigma.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "cli/errors.hpp"

namespace rapt {
namespace {

constexpr double kLogSqrtTwoPi = 0.91893853320467274178;  // ln sqrt(2 pi)
constexpr double kEpsilon = 1e-16;
constexpr int kMaxIterations = 100000;

// ln Q(a, x) from the power series of P(a, x); for x < a + 1.
double log_gamma_q_series(double a, double x) {
  double term = 1.0, sum = 1.0;
  for (int n = 1; n < kMaxIterations; ++n) {
    term *= x / (a + n);
    sum += term;
    if (term < sum * kEpsilon) break;
  }
  const double p = std::exp(-x + a * std::log(x) - log_gamma(a + 1.0)) * sum;
  return std::log1p(-std::min(p, 1.0));
}

// ln Q(a, x) from its continued fraction (modified Lentz); for x >= a + 1.
double log_gamma_q_fraction(double a, double x) {
  constexpr double kTiny = 1e-300;
  double b = x + 1.0 - a;
  double c = 1.0 / kTiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i < kMaxIterations; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < kEpsilon) break;
  }
  return -x + a * std::log(x) - log_gamma(a) + std::log(h);
}

// ln Gamma(a, z) (not regularised) from the asymptotic series A&S 6.5.32, summed until a term
// drops below 1e-15 (PRESTO's stopping rule). For integer a the series ends by itself and is
// exact; otherwise it is cut where its terms start to grow again.
double log_asymptotic_incomplete_gamma(double a, double z) {
  double sum = 1.0, term = 1.0, previous = std::numeric_limits<double>::infinity();
  for (int i = 1; i < 10000; ++i) {
    term *= (a - i) / z;
    if (std::fabs(term) <= 1e-15 || std::fabs(term) > previous) break;
    sum += term;
    previous = std::fabs(term);
  }
  return (a - 1.0) * std::log(z) - z + std::log(sum);
}

// ln Gamma(z) from the first four terms of Stirling's series (A&S 6.1.41), as PRESTO uses it
// beside the asymptotic incomplete gamma; its small error (3e-4 at z = 1) is part of PRESTO's
// numbers.
double log_asymptotic_gamma(double z) {
  const double y = 1.0 / (z * z);
  const double series =
      (((-5.9523809523809529e-4 * y + 7.9365079365079365e-4) * y - 2.7777777777777778e-3) * y +
       8.3333333333333333e-2) /
      z;
  return (z - 0.5) * std::log(z) - z + kLogSqrtTwoPi + series;
}

// ln Q(x) of the standard normal, accurate far into the tail.
double log_normal_upper_tail(double x) {
  if (x < 30.0) return std::log(0.5 * std::erfc(x / std::sqrt(2.0)));
  const double y = 1.0 / (x * x);
  const double series = 1.0 + y * (-1.0 + y * (3.0 + y * (-15.0 + y * (105.0 - 945.0 * y))));
  return -0.5 * x * x - std::log(x) - kLogSqrtTwoPi + std::log(series);
}

// A&S 26.2.23: x with Q(x) = p for 0 < p <= 0.5, from ln p; |error| < 4.5e-4.
double abramowitz_stegun_26_2_23(double log_p) {
  const double t = std::sqrt(-2.0 * log_p);
  const double num = 2.515517 + t * (0.802853 + t * 0.010328);
  const double denom = 1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308));
  return t - num / denom;
}

}  // namespace

double log_gamma(double a) {
  if (!(a > 0.0)) throw std::invalid_argument("log_gamma needs a > 0");
  double product = 1.0;
  while (a < 10.0) {
    product *= a;
    a += 1.0;
  }
  const double y = 1.0 / (a * a);
  const double series =
      (1.0 / 12.0 +
       y * (-1.0 / 360.0 + y * (1.0 / 1260.0 + y * (-1.0 / 1680.0 + y * (1.0 / 1188.0))))) /
      a;
  return (a - 0.5) * std::log(a) - a + kLogSqrtTwoPi + series - std::log(product);
}

double log_regularized_gamma_q(double a, double x) {
  if (!(a > 0.0) || x < 0.0) throw std::invalid_argument("log_regularized_gamma_q: bad a or x");
  if (x == 0.0) return 0.0;
  return x < a + 1.0 ? log_gamma_q_series(a, x) : log_gamma_q_fraction(a, x);
}

double chi2_log_upper_tail(double chi2, double dof) {
  if (chi2 <= 0.0) return 0.0;
  if (chi2 > 1200.0 || (dof > 30.0 && chi2 > 100.0))
    return log_asymptotic_incomplete_gamma(0.5 * dof, 0.5 * chi2) - log_asymptotic_gamma(0.5 * dof);
  return log_regularized_gamma_q(0.5 * dof, 0.5 * chi2);
}

double normal_upper_tail(double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); }

double inverse_normal_upper_tail_log(double log_q) {
  if (!(log_q < 0.0)) throw std::invalid_argument("inverse_normal_upper_tail_log needs log_q < 0");
  if (log_q > std::log(0.5)) {
    // Q(x) = q > 1/2  <=>  Q(-x) = 1 - q.
    return -inverse_normal_upper_tail_log(std::log(-std::expm1(log_q)));
  }
  double x = abramowitz_stegun_26_2_23(log_q);
  for (int i = 0; i < 6; ++i) {
    // Newton on f(x) = ln Q(x) - ln q, with f'(x) = -phi(x) / Q(x).
    const double log_tail = log_normal_upper_tail(x);
    const double slope = -std::exp(-0.5 * x * x - kLogSqrtTwoPi - log_tail);
    const double step = (log_tail - log_q) / slope;
    x -= step;
    if (std::fabs(step) < 1e-15 * std::max(1.0, std::fabs(x))) break;
  }
  return x;
}

double gaussian_sigma_from_log_p(double log_p) {
  double sigma = 0.0;
  if (log_p < -600.0) {
    sigma = abramowitz_stegun_26_2_23(log_p);
  } else if (log_p < 0.0) {
    sigma = inverse_normal_upper_tail_log(log_p);
  }
  return std::max(sigma, 0.0);
}

double candidate_sigma(double power, int numharm, double numindep) {
  if (power <= 0.0) return 0.0;
  const double log_p = chi2_log_upper_tail(2.0 * power, 2.0 * numharm) + std::log(numindep);
  return gaussian_sigma_from_log_p(log_p);
}

double power_for_sigma(double sigma, int numharm, double numindep) {
  if (numharm < 1) throw std::invalid_argument("power_for_sigma needs numharm >= 1");
  const double target = log_normal_upper_tail(sigma) - std::log(numindep);
  if (target >= 0.0) return 0.0;
  const double a = numharm;
  // ln Q(a, y) falls from 0 at y = 0 without bound: bracket, then safeguarded Newton.
  double lo = 0.0, hi = std::max(1.0, a);
  while (log_regularized_gamma_q(a, hi) > target) hi *= 2.0;
  double y = hi;
  for (int i = 0; i < 200; ++i) {
    const double value = log_regularized_gamma_q(a, y) - target;
    if (value > 0.0) lo = y; else hi = y;
    const double slope =
        -std::exp((a - 1.0) * std::log(y) - y - log_gamma(a) - (value + target));
    double next = y - value / slope;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::fabs(next - y) < 1e-14 * y) return next;
    y = next;
  }
  return y;
}

double accel_independent_trials(double rlo, double rhi, int numz, int numw, int numharm) {
  const double dz = 2.0, dw = 20.0;
  double trials;
  if (numz == 1 && numw == 0)
    trials = (rhi - rlo) / numharm;
  else if (numz > 1 && numw == 0)
    trials = (rhi - rlo) * (numz + 1) * (dz / 6.95) / numharm;
  else
    trials = (rhi - rlo) * (numz + 1) * (dz / 6.95) * (numw + 1) * (dw / 44.2) / numharm;
  return static_cast<double>(static_cast<long long>(trials));
}

int accel_rounded_zmax(int zmax) { return zmax % 2 ? (zmax / 2 + 1) * 2 : zmax; }
int accel_rounded_wmax(int wmax) { return wmax % 20 ? (wmax / 20 + 1) * 20 : wmax; }
int accel_num_z(int zmax) { return (accel_rounded_zmax(zmax) / 2) * 2 + 1; }
int accel_num_w(int wmax) {
  const int rounded = accel_rounded_wmax(wmax);
  return rounded == 0 ? 0 : (rounded / 20) * 2 + 1;
}

AccelSearchRange accel_search_range(double flo_hz, double fhi_hz, double T_s, int64_t numbins,
                                    int64_t lobin) {
  AccelSearchRange range;
  range.rlo = std::max(std::floor(flo_hz * T_s), static_cast<double>(lobin));
  if (range.rlo > numbins - 1)
    throw UsageError("lowest frequency to search (" + std::to_string(flo_hz) +
                     " Hz) is above the highest frequency in the data");
  range.rhi = std::min(std::ceil(fhi_hz * T_s), static_cast<double>(numbins - 1));
  if (range.rhi < range.rlo)
    throw UsageError("highest frequency to search (" + std::to_string(fhi_hz) +
                     " Hz) is below the lowest (" + std::to_string(flo_hz) + " Hz)");
  return range;
}

}  // namespace rapt
