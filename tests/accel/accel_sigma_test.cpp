#include "accel/accel_sigma.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "test_data.hpp"

namespace {

// ln Q(a, x) for integer a from the finite sum Q = e^-x sum_{k<a} x^k / k!, in long double,
// summed in log space: independent of the library's series, fraction and asymptotic branches.
double exact_log_q_integer(int a, double x) {
  long double log_term = 0.0L, log_sum = 0.0L;  // k = 0 term is 1
  for (int k = 1; k < a; ++k) {
    log_term += std::log(static_cast<long double>(x)) - std::log(static_cast<long double>(k));
    const long double hi = std::max(log_sum, log_term), lo = std::min(log_sum, log_term);
    log_sum = hi + std::log1p(std::exp(lo - hi));
  }
  return static_cast<double>(-x + log_sum);
}

// The setup of the FDAS digest's reference table: N = 2^23, dt = 64 us, rlo 536, rhi N/2 - 1.
constexpr double kTableRlo = 536.0;
constexpr double kTableRhi = 4194303.0;

struct TableRow {
  int zmax;
  int numharm;
  double numindep;     // as printed (4-5 significant digits)
  double powcut;       // power_for_sigma(2)
  double power_8sigma; // power_for_sigma(8)
  double sigma_h40;    // candidate_sigma(h + 40)
};

const std::vector<TableRow> kDigestTable = {
    {0, 1, 4.1938e6, 19.03, 50.26, 6.77},      {0, 16, 2.6211e5, 46.25, 86.72, 4.09},
    {100, 1, 1.2310e8, 22.41, 53.64, 6.26},    {100, 16, 7.6936e6, 51.08, 90.77, 3.22},
    {200, 1, 2.4378e8, 23.09, 54.33, 6.15},    {200, 2, 1.219e8, 25.69, 57.70, 5.82},
    {200, 4, 6.094e7, 30.25, 63.66, 5.26},     {200, 8, 3.047e7, 38.18, 73.94, 4.38},
    {200, 16, 1.5236e7, 52.03, 91.59, 3.02},
};

TEST(AccelSigma, ReproducesTheDigestReferenceTable) {
  for (const TableRow& row : kDigestTable) {
    SCOPED_TRACE("zmax " + std::to_string(row.zmax) + " h " + std::to_string(row.numharm));
    const double n = rapt::accel_independent_trials(kTableRlo, kTableRhi,
                                                    rapt::accel_num_z(row.zmax), 0, row.numharm);
    EXPECT_NEAR(n / row.numindep, 1.0, 5e-4);
    // Printed to 2 decimals: 1e-3 relative, or half the last printed digit.
    const auto near_power = [](double got, double want) {
      EXPECT_NEAR(got, want, std::max(1e-3 * want, 0.005 + 1e-9)) << want;
    };
    near_power(rapt::power_for_sigma(2.0, row.numharm, n), row.powcut);
    near_power(rapt::power_for_sigma(8.0, row.numharm, n), row.power_8sigma);
    EXPECT_NEAR(rapt::candidate_sigma(row.numharm + 40.0, row.numharm, n), row.sigma_h40, 0.01);
  }
}

TEST(AccelSigma, AsymptoticBranchAgreesWithTheExactSumAtPower1000With16Harmonics) {
  // chi2/dof = 2000/32 > 15: PRESTO's A&S 6.5.32 / 6.1.41 branch.
  const double exact = exact_log_q_integer(16, 1000.0);
  EXPECT_NEAR(rapt::chi2_log_upper_tail(2000.0, 32.0), exact, 1e-9 * std::fabs(exact));
  EXPECT_NEAR(rapt::log_regularized_gamma_q(16.0, 1000.0), exact, 1e-9 * std::fabs(exact));
  const double n = 7.6936e6;
  const double want = rapt::gaussian_sigma_from_log_p(exact + std::log(n));
  EXPECT_NEAR(rapt::candidate_sigma(1000.0, 16, n), want, 1e-6);
  EXPECT_GT(want, 40.0);  // a real test of the far tail, not of a clamp
}

TEST(AccelSigma, SwitchesToTheAsymptoticFormAboveChi2Of1200OrOf100WithOver30Dof) {
  // With one harmonic ln Q = -chi2/2 exactly; the asymptotic form carries the four-term
  // Stirling error of ln Gamma(1), +3.07e-4, so it shows which branch ran.
  const double stirling_error_at_1 = 3.0746e-4;
  EXPECT_NEAR(rapt::chi2_log_upper_tail(1199.0, 2.0), -599.5, 1e-9);
  EXPECT_NEAR(rapt::chi2_log_upper_tail(1201.0, 2.0), -600.5 + stirling_error_at_1, 1e-7);
  EXPECT_NEAR(rapt::chi2_log_upper_tail(200.0, 2.0), -100.0, 1e-9);  // chi2/dof 100: exact
  // dof 32: asymptotic above chi2 = 100, but then exact up to rounding (Stirling at 16 is good).
  EXPECT_NEAR(rapt::chi2_log_upper_tail(101.0, 32.0), exact_log_q_integer(16, 50.5), 1e-9);
  EXPECT_NEAR(rapt::chi2_log_upper_tail(99.0, 32.0), exact_log_q_integer(16, 49.5), 1e-9);
  EXPECT_EQ(rapt::chi2_log_upper_tail(0.0, 4.0), 0.0);
}

TEST(AccelSigma, IncompleteGammaMatchesTheFiniteSumOnBothSidesOfItsBranchPoint) {
  for (int a : {1, 2, 3, 8, 16, 32}) {
    for (double x : {0.01, 0.5, 1.0, a - 0.5, a + 0.5, a + 1.0, 2.0 * a + 3.0, 40.0, 300.0}) {
      if (x <= 0.0) continue;
      const double exact = exact_log_q_integer(a, x);
      EXPECT_NEAR(rapt::log_regularized_gamma_q(a, x), exact, 1e-12 + 1e-12 * std::fabs(exact))
          << "a " << a << " x " << x;
    }
  }
  EXPECT_EQ(rapt::log_regularized_gamma_q(4.0, 0.0), 0.0);
}

TEST(AccelSigma, LogGammaMatchesTheLibraryFunction) {
  for (double a : {0.1, 0.5, 1.0, 1.5, 2.0, 7.25, 10.0, 16.0, 33.3, 1000.0})
    EXPECT_NEAR(rapt::log_gamma(a), std::lgamma(a), 1e-13 * std::max(1.0, std::lgamma(a))) << a;
}

TEST(AccelSigma, InverseNormalTailRoundTripsFromCentreToFarTail) {
  for (double x : {-3.0, -0.5, 0.0, 0.3, 1.0, 2.0, 5.0, 8.0, 20.0, 33.0}) {
    const double log_q = std::log(rapt::normal_upper_tail(x));
    EXPECT_NEAR(rapt::inverse_normal_upper_tail_log(log_q), x, 1e-10 * std::max(1.0, x)) << x;
  }
  // 2 sigma: Q = 0.0227501319481792.
  EXPECT_NEAR(rapt::gaussian_sigma_from_log_p(std::log(0.0227501319481792)), 2.0, 1e-12);
}

TEST(AccelSigma, GaussianSigmaIsClampedAtZeroAndUsesTheRationalFormBelowLogPMinus600) {
  EXPECT_EQ(rapt::gaussian_sigma_from_log_p(0.0), 0.0);
  EXPECT_EQ(rapt::gaussian_sigma_from_log_p(3.0), 0.0);
  EXPECT_EQ(rapt::gaussian_sigma_from_log_p(std::log(0.7)), 0.0);
  // A&S 26.2.23 at ln p = -1000: t = sqrt(2000).
  const double t = std::sqrt(2000.0);
  const double want = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
                              (1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
  EXPECT_DOUBLE_EQ(rapt::gaussian_sigma_from_log_p(-1000.0), want);
  // Continuous enough across the switch for a 0.01 sigma table.
  EXPECT_NEAR(rapt::gaussian_sigma_from_log_p(-600.0 - 1e-9),
              rapt::gaussian_sigma_from_log_p(-600.0 + 1e-9), 1e-3);
}

TEST(AccelSigma, CandidateSigmaIsZeroForNoPowerOrPowerBelowTheTrialsLevel) {
  EXPECT_EQ(rapt::candidate_sigma(0.0, 4, 1e6), 0.0);
  EXPECT_EQ(rapt::candidate_sigma(-3.0, 1, 1.0), 0.0);
  EXPECT_EQ(rapt::candidate_sigma(2.0, 1, 1e6), 0.0);
  EXPECT_GT(rapt::candidate_sigma(40.0, 1, 1e6), 0.0);
}

TEST(AccelSigma, PowerForSigmaInvertsCandidateSigmaWhereBothAreExact) {
  for (int h : {1, 2, 4, 8, 16, 32}) {
    for (double n : {1.0, 1e3, 1e7}) {
      for (double sigma : {1.0, 3.0, 6.0}) {
        const double power = rapt::power_for_sigma(sigma, h, n);
        if (2.0 * power / (2.0 * h) > 6.0) continue;  // beyond here PRESTO's sigma is asymptotic
        EXPECT_NEAR(rapt::candidate_sigma(power, h, n), sigma, 1e-8)
            << "h " << h << " n " << n << " sigma " << sigma;
      }
    }
  }
}

TEST(AccelSigma, IndependentTrialsFollowAccelsearchForEachSearchKind) {
  // Truncated to integers as PRESTO stores them.
  EXPECT_EQ(rapt::accel_independent_trials(67, 131071, 1, 0, 2), 65502.0);
  EXPECT_EQ(rapt::accel_independent_trials(67, 131071, 51, 0, 8),
            std::floor(131004.0 * 52 * (2.0 / 6.95) / 8));
  EXPECT_EQ(rapt::accel_independent_trials(100, 10100, 11, 31, 1),
            std::floor(10000.0 * 12 * (2.0 / 6.95) * 32 * (20.0 / 44.2)));
  EXPECT_EQ(rapt::accel_num_z(0), 1);
  EXPECT_EQ(rapt::accel_num_z(50), 51);
  EXPECT_EQ(rapt::accel_num_z(49), 51);
  EXPECT_EQ(rapt::accel_rounded_zmax(49), 50);
  EXPECT_EQ(rapt::accel_num_w(0), 0);
  EXPECT_EQ(rapt::accel_num_w(300), 31);
  EXPECT_EQ(rapt::accel_rounded_wmax(290), 300);
  EXPECT_EQ(rapt::accel_num_w(290), 31);
}

TEST(AccelSigma, SearchRangeUsesFloorOfFloAndCeilOfFhiCappedAtTheLastBin) {
  const double T = 262144 * 0.000256;
  const rapt::AccelSearchRange range = rapt::accel_search_range(1.0, 10000.0, T, 131072);
  EXPECT_EQ(range.rlo, 67.0);
  EXPECT_EQ(range.rhi, 131071.0);
  const rapt::AccelSearchRange narrow = rapt::accel_search_range(2.5, 20.0, T, 131072, 500);
  EXPECT_EQ(narrow.rlo, 500.0);
  EXPECT_EQ(narrow.rhi, std::ceil(20.0 * T));
  EXPECT_THROW(rapt::accel_search_range(5000.0, 10000.0, T, 131072), rapt::UsageError);
  EXPECT_THROW(rapt::accel_search_range(10.0, 5.0, T, 131072), rapt::UsageError);
}

// The golden runs: accelsearch -zmax 50 -numharm 8 on 2^18 samples of 256 us (131072 bins).
double golden_numindep(int numharm) {
  const rapt::AccelSearchRange range =
      rapt::accel_search_range(1.0, 10000.0, 262144 * 0.000256, 131072);
  return rapt::accel_independent_trials(range.rlo, range.rhi, rapt::accel_num_z(50), 0, numharm);
}

TEST(AccelSigmaPrestoGolden, EveryRunningCandidateSigmaFollowsFromItsPower) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_ACCEL_50.txtcand");
  std::istringstream lines(rapt::testing::read_whole_file(path));
  std::string line;
  int checked = 0;
  while (std::getline(lines, line)) {
    double power = 0.0, sigma = 0.0;
    int numharm = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf %lf %d", &power, &sigma, &numharm), 3) << line;
    const double n = golden_numindep(numharm);
    // power printed with 2 decimals; sigma with 4, after PRESTO stored it as a float.
    const double lo = rapt::candidate_sigma(power - 0.005, numharm, n);
    const double hi = rapt::candidate_sigma(power + 0.005, numharm, n);
    const double slack = 6e-5 + 1.2e-7 * sigma;
    EXPECT_GE(sigma, lo - slack) << line;
    EXPECT_LE(sigma, hi + slack) << line;
    ++checked;
  }
  EXPECT_EQ(checked, 6802);
}

// Fundamentals rows of an ACCEL text file: sigma, summed power and numharm cells as printed
// (PRESTO cuts a cell to its width, so "123.9" may stand for 123.90 to 123.99).
struct PrintedCandidate {
  std::string sigma, power;
  int numharm = 0;
};

std::vector<PrintedCandidate> fundamentals(const std::string& text) {
  std::vector<PrintedCandidate> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) {
      if (!rows.empty()) break;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(line[0]))) continue;
    std::istringstream fields(line);
    std::string number, coherent;
    PrintedCandidate row;
    fields >> number >> row.sigma >> row.power >> coherent >> row.numharm;
    rows.push_back(row);
  }
  return rows;
}

// One unit in the last printed place.
double last_place(const std::string& cell) {
  const size_t dot = cell.find('.');
  if (dot == std::string::npos) return 1.0;
  return std::pow(10.0, -static_cast<double>(cell.size() - dot - 1));
}

void check_fundamental_sigmas(const std::string& path, size_t expected_rows) {
  const std::vector<PrintedCandidate> rows = fundamentals(rapt::testing::read_whole_file(path));
  ASSERT_EQ(rows.size(), expected_rows);
  for (const PrintedCandidate& row : rows) {
    // A power cell without a point lost digits before it ("110983" for 11098395.00).
    if (row.power.find('.') == std::string::npos) continue;
    const double power = std::stod(row.power), sigma = std::stod(row.sigma);
    const double n = golden_numindep(row.numharm);
    // %.2f rounds; the cell may then drop digits, so the true value lies in
    // [printed - 0.005, printed + last_place).
    const double lo = rapt::candidate_sigma(power - 0.005, row.numharm, n);
    const double hi = rapt::candidate_sigma(power + last_place(row.power), row.numharm, n);
    EXPECT_GE(sigma + last_place(row.sigma), lo - 1e-9) << row.sigma << " " << row.power;
    EXPECT_LE(sigma - 0.005, hi + 1e-9) << row.sigma << " " << row.power;
  }
}

TEST(AccelSigmaPrestoGolden, FundamentalSigmasOfTheDereddenedRunFollowFromSummedPower) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_red_ACCEL_50");
  check_fundamental_sigmas(path, 22);
  // The pulsar: summed power 7747.5 with 8 harmonics gives sigma 123.9 (asymptotic branch).
  const double sigma = rapt::candidate_sigma(7747.5, 8, golden_numindep(8));
  EXPECT_GE(sigma, 123.895);
  EXPECT_LT(sigma, 124.0);
}

TEST(AccelSigmaPrestoGolden, FundamentalSigmasOfTheRawRunFollowFromSummedPower) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_ACCEL_50");
  const std::vector<PrintedCandidate> rows =
      fundamentals(rapt::testing::read_whole_file(path));
  check_fundamental_sigmas(path, rows.size());
  EXPECT_GT(rows.size(), 20u);
}

}  // namespace
