// The statistics prepfold prints: chi^2 probabilities, sigmas, the drizzle correction.
#include <gtest/gtest.h>

#include <cmath>

#include "accel/accel_sigma.hpp"
#include "fold/fold_statistics.hpp"

TEST(FoldStatistics, ChiSquareProbabilityOfTwoDegreesIsExponential) {
  for (double chi2 : {0.5, 3.0, 20.0, 80.0})
    EXPECT_NEAR(rapt::chi2_log_probability(chi2, 2), -chi2 / 2.0, 1e-9) << chi2;
}

TEST(FoldStatistics, ChiSquareProbabilityMatchesKnownValues) {
  // Q(chi2 = 10 | 5 dof) = 0.0752352; Q(chi2 = 100 | 64 dof) = 0.0026863.
  EXPECT_NEAR(std::exp(rapt::chi2_log_probability(10.0, 5)), 0.0752352461, 1e-9);
  EXPECT_NEAR(std::exp(rapt::chi2_log_probability(100.0, 64)), 0.0026862829, 1e-8);
}

TEST(FoldStatistics, GaussianSigmaInvertsTheNormalTail) {
  EXPECT_NEAR(rapt::gaussian_sigma_from_log_p(std::log(0.0013498980316301)), 3.0, 1e-6);
  EXPECT_NEAR(rapt::gaussian_sigma_from_log_p(std::log(2.866515718791939e-7)), 5.0, 1e-6);
  EXPECT_EQ(rapt::gaussian_sigma_from_log_p(std::log(0.7)), 0.0);
}

// The sigmas PRESTO printed in the golden .bestprof files for their reduced chi^2 and period.
TEST(FoldStatistics, ReproducesPrestoSigmasOfTheGoldenFolds) {
  const struct {
    double redchi, period_s;
    double sigma;
  } cases[] = {{562.227, 0.0872996320175617, 180.8}, {410.280, 0.0873, 154.1}};
  for (const auto& c : cases) {
    const double dof_eff = 63.0 * rapt::dof_correction(c.period_s / 64 / 0.000256);
    const double log_p = rapt::chi2_log_probability(c.redchi * dof_eff, dof_eff);
    EXPECT_NEAR(rapt::gaussian_sigma_from_log_p(log_p), c.sigma, 0.05) << c.redchi;
  }
}

TEST(FoldStatistics, DriftCorrectionApproachesOneForWideBins) {
  EXPECT_NEAR(rapt::dof_correction(100.0), 0.96, 0.01);
  EXPECT_LT(rapt::dof_correction(1.0), 0.7);
}

TEST(FoldStatistics, ErrorsShrinkWithSignalAndFallBackForNoise) {
  std::vector<double> strong(64, 1000.0), flat(64, 1000.0);
  for (int b = 30; b < 34; ++b) strong[b] += 400.0;
  const rapt::SpinErrors s = rapt::fold_errors(strong, 1e-3, 1e5, 1.0, 0.064, 0.0, 0.0);
  const rapt::SpinErrors n = rapt::fold_errors(flat, 1e-3, 1e5, 1.0, 0.064, 0.0, 0.0);
  // No significant harmonic: PRESTO's fallback r error of 0.5 bins, P error T * 0.5 / r^2.
  const double t = 100.0, r = t / 0.064;
  EXPECT_NEAR(n.p_s, t * 0.5 / (r * r), 1e-15);
  EXPECT_LT(s.p_s, n.p_s);
  EXPECT_GT(s.p_s, 0.0);
}
