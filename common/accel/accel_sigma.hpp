// Significance of Fourier-domain search candidates, as PRESTO's accelsearch computes it
// (src/characteristics.c, src/accel_utils.c). Everything in double precision.
//
// Normalised noise powers are Exp(1), so a sum P of h powers gives chi^2 = 2P with 2h degrees of
// freedom. accelsearch turns its probability into a Gaussian-equivalent sigma with a first-order
// trials correction: ln p = ln Q_chi2(2P; 2h) + ln N_indep, sigma = Q_normal^-1(e^(ln p)).
#pragma once
#include <cstdint>

namespace rapt {

// ln Gamma(a) for a > 0 (Stirling series after upward recurrence; about 1e-15 relative).
double log_gamma(double a);

// ln Q(a, x), the regularised upper incomplete gamma function, for a > 0, x >= 0: series below
// x = a + 1, continued fraction above, both in log space so that nothing underflows.
double log_regularized_gamma_q(double a, double x);

// ln of the chi-squared upper tail probability Q(chi2 | dof), PRESTO's chi2_logp(): exact
// (log_regularized_gamma_q) except where PRESTO switches to the asymptotic expansions
// A&S 6.5.32 (incomplete gamma) and 6.1.41 (four-term Stirling lnGamma): chi2 > 1200, or
// dof > 30 with chi2 > 100. (Older PRESTO releases switched at chi2/dof > 15; the golden
// accelsearch outputs follow the rule above to 1e-4 sigma, which the older one misses at
// 1 harmonic.) chi2 <= 0 gives 0; PRESTO returns -infinity there, but its callers test first.
double chi2_log_upper_tail(double chi2, double dof);

// Upper tail of the standard normal, Q(x) = P(X > x).
double normal_upper_tail(double x);
// x with Q(x) = exp(log_q), for log_q < 0 (Newton steps in log space from A&S 26.2.23).
double inverse_normal_upper_tail_log(double log_q);

// PRESTO's equivalent_gaussian_sigma(): the sigma whose normal upper tail is exp(log_p), using
// the rational approximation A&S 26.2.23 directly when log_p < -600; clamped to >= 0
// (log_p >= ln 0.5 gives 0).
double gaussian_sigma_from_log_p(double log_p);

// PRESTO's candidate_sigma(): Gaussian-equivalent sigma of `power` (sum of `numharm`
// normalised powers) after `numindep` independent trials; 0 for power <= 0.
double candidate_sigma(double power, int numharm, double numindep);

// PRESTO's power_for_sigma(): the summed power of `numharm` harmonics whose chi-squared upper
// tail is Q_normal(sigma) / numindep (exact inverse, no asymptotic branch, as PRESTO's cdfchi).
double power_for_sigma(double sigma, int numharm, double numindep);

// accelsearch's number of independent trials for the stage summing `numharm` harmonics
// (obs->numindep), truncated to an integer as PRESTO stores it (long long):
//   numz == 1, numw == 0:  (rhi - rlo) / numharm
//   numz > 1,  numw == 0:  (rhi - rlo) (numz + 1) (2 / 6.95) / numharm
//   numw > 0:              (rhi - rlo) (numz + 1) (2 / 6.95) (numw + 1) (20 / 44.2) / numharm
// numz = accel_num_z(zmax), numw = accel_num_w(wmax) (0 without a jerk search).
double accel_independent_trials(double rlo, double rhi, int numz, int numw, int numharm);

// accelsearch rounds zmax up to a multiple of 2 and wmax up to a multiple of 20, then searches
// numz = zmax + 1 z values and numw = wmax / 10 + 1 w values (numw = 0 when wmax is 0).
int accel_rounded_zmax(int zmax);
int accel_rounded_wmax(int wmax);
int accel_num_z(int zmax);
int accel_num_w(int wmax);

// The Fourier range accelsearch searches (of the highest harmonic), as create_accelobs() sets
// it with its always-present -flo (default 1 Hz) and -fhi (default 10000 Hz):
//   rlo = max(floor(flo T), lobin),  rhi = min(ceil(fhi T), numbins - 1).
struct AccelSearchRange {
  double rlo = 0.0;
  double rhi = 0.0;
};
AccelSearchRange accel_search_range(double flo_hz, double fhi_hz, double T_s, int64_t numbins,
                                    int64_t lobin = 0);

}  // namespace rapt
