// The statistics prepfold reports for a folded profile, computed the way PRESTO computes them
// (prepfold_plot.c, fold.c, characteristics.c), so our numbers can be compared with its own:
//   * reduced chi^2 against a flat profile, with prepfold's correction for the correlation
//     between bins that drizzling causes (dof_correction);
//   * its probability under noise and the equivalent Gaussian sigma;
//   * 1-sigma errors on P, P', P'' from the profile's significant harmonics (Middleditch).
#pragma once
#include <vector>

namespace rapt {

// sum((x - avg)^2) / var over the profile.
double profile_chi2(const double* profile, int nbins, double avg, double var);

// Effective fraction of the nbins - 1 degrees of freedom left after drizzling, for bins
// `samples_per_bin` samples wide (PRESTO's DOF_corr, a Monte Carlo fit).
double dof_correction(double samples_per_bin);

// ln Q(chi2 | dof): natural log of the chance that noise alone gives chi^2 >= chi2. dof need
// not be whole: prepfold passes the effective degrees of freedom, (nbins - 1) dof_correction.
double chi2_log_probability(double chi2, double dof);

// The sigma of a probability is accel_sigma.hpp's gaussian_sigma_from_log_p.

struct SpinErrors {
  double p_s = 0.0;    // 1-sigma error on P
  double pdot = 0.0;   // on P'
  double pddot = 0.0;  // on P''
};

// Errors for a profile folded from `n_samples` samples of variance `data_var`, sampled every
// `dt_s`, at period p_s with derivatives pdot, pddot (PRESTO's fold_errors).
SpinErrors fold_errors(const std::vector<double>& profile, double dt_s, double n_samples,
                       double data_var, double p_s, double pdot, double pddot);

}  // namespace rapt
