#include "fold/fold_statistics.hpp"

#include "accel/accel_sigma.hpp"

#include <cmath>
#include <complex>
#include <algorithm>
#include <limits>

namespace rapt {

double profile_chi2(const double* profile, int nbins, double avg, double var) {
  double chi2 = 0.0;
  for (int b = 0; b < nbins; ++b) chi2 += (profile[b] - avg) * (profile[b] - avg);
  return chi2 / var;
}

double dof_correction(double samples_per_bin) {
  const double power = 1.806, factor = 0.96;  // PRESTO's Monte Carlo fit
  return samples_per_bin * factor * std::pow(1.0 + std::pow(samples_per_bin, power), -1.0 / power);
}

namespace {

// ln of the upper incomplete gamma function Gamma(a, z) for z >> a: the asymptotic series
// (Abramowitz & Stegun 6.5.32), which stays finite where Q underflows.
double log_asymptotic_upper_gamma(double a, double z) {
  double sum = 1.0, term = 1.0, previous = std::numeric_limits<double>::infinity();
  for (int i = 1; i < 1000; ++i) {
    term *= (a - i) / z;
    if (std::fabs(term) < 1e-15 || std::fabs(term) > previous) break;  // done, or diverging
    sum += term;
    previous = std::fabs(term);
  }
  return (a - 1.0) * std::log(z) - z + std::log(sum);
}

}  // namespace

double chi2_log_probability(double chi2, double dof) {
  if (!(dof > 0.0) || !(chi2 > 0.0)) return 0.0;
  const double a = 0.5 * dof, x = 0.5 * chi2;
  // Where PRESTO switches to the asymptotic form (characteristics.c, chi2_logp).
  if (chi2 / dof > 15.0 || (dof > 150 && chi2 / dof > 6.0))
    return log_asymptotic_upper_gamma(a, x) - std::lgamma(a);
  return log_regularized_gamma_q(a, x);
}

SpinErrors fold_errors(const std::vector<double>& profile, double dt_s, double n_samples,
                       double data_var, double p_s, double pdot, double pddot) {
  const int nbins = int(profile.size());
  const double t_obs = n_samples * dt_s;
  const double r = t_obs / p_s;
  const double z = -pdot * r * r;
  const double w = pddot == 0.0 ? 0.0 : 2.0 * z * z / r - pddot * r * r * t_obs;
  const double norm = 1.0 / (n_samples * data_var);  // powers as if the whole series were FFTed

  // Each significant harmonic k gives an estimate of the fundamental's r, z, w errors; they are
  // combined as a mean weighted by the power's own measurement error, sqrt(2 P).
  double rn = 0, rd = 0, zn = 0, zd = 0, wn = 0, wd = 0;
  bool any = false;
  for (int k = 1; k < nbins / 2; ++k) {
    std::complex<double> sum = 0.0;
    for (int b = 0; b < nbins; ++b)
      sum += double(float(profile[b])) * std::polar(1.0, -2.0 * M_PI * double(k) * b / nbins);
    const double power = std::norm(sum) * norm;
    if (!(power > 2.7)) continue;  // PRESTO's significance threshold
    any = true;
    const double power_err = std::sqrt(2.0 * power);
    const double fact = 1.0 / (std::sqrt(power) * k);
    const auto accumulate = [&](double coefficient, double& num, double& den) {
      const double err = coefficient * fact;
      const double var = (err / power_err) * (err / power_err);
      num += err / var;
      den += 1.0 / var;
    };
    accumulate(0.38984840062, rn, rd);
    accumulate(3.01975272627, zn, zd);
    accumulate(19.5702343923, wn, wd);
  }
  const double rerr = any ? rn / rd : 0.5;
  const double zerr = any ? zn / zd : 7.8;
  const double werr = any ? wn / wd : 50.2;

  const double r2 = r * r, r4 = r2 * r2, z2 = z * z, sr2 = rerr * rerr, sz2 = zerr * zerr;
  const double cross = r * w - 3.0 * z2;
  SpinErrors errors;
  errors.p_s = t_obs * rerr / r2;
  errors.pdot = std::sqrt(4.0 * z2 * sr2 / (r4 * r2) + sz2 / r4);
  errors.pddot = std::sqrt((werr * werr * r4 + 16.0 * z2 * sz2 * r2 + 4.0 * cross * cross * sr2) /
                           (r4 * r4 * t_obs * t_obs));
  return errors;
}

}  // namespace rapt
