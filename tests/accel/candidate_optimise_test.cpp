#include "accel/candidate_optimise.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "test_data.hpp"

namespace rapt {
namespace {

std::vector<std::complex<float>> read_fft(const std::string& path) {
  const std::string bytes = testing::read_whole_file(path);
  std::vector<std::complex<float>> spectrum(bytes.size() / sizeof(std::complex<float>));
  std::memcpy(spectrum.data(), bytes.data(), spectrum.size() * sizeof(std::complex<float>));
  return spectrum;
}

// accelsearch -zmax 50 -numharm 8 on test_DM56.00.fft: the pulsar (P 87.077 ms, z 4) is
// candidate 2 of the text file, with all 8 harmonics strong.
class PrestoGoldenCandidates : public ::testing::Test {
 protected:
  void SetUp() override {
    fft_ = testing::shared_data_file("presto-golden/test_DM56.00.fft");
    const std::string text = testing::shared_data_file("presto-golden/test_DM56.00_ACCEL_50");
    const std::string cand = testing::shared_data_file("presto-golden/test_DM56.00_ACCEL_50.cand");
    if (fft_.empty() || text.empty() || cand.empty()) GTEST_SKIP() << "presto-golden missing";
    spectrum_ = read_fft(fft_);
    accel_ = read_accel_text(text);
    records_ = read_cand_file(cand);
    apply_cand_records(accel_, records_, cand);
  }

  AccelCandidate optimise(int index, const OptimiseOptions& options = {}) const {
    const AccelCandidate& want = accel_.candidates[index];
    const GridCandidate grid{want.r, want.z, want.numharm, want.summed_power, want.sigma};
    return optimise_candidate(spectrum_.data(), static_cast<int64_t>(spectrum_.size()), grid,
                              options);
  }

  std::string fft_;
  std::vector<std::complex<float>> spectrum_;
  AccelCandidates accel_;
  std::vector<FourierProps> records_;
};

TEST_F(PrestoGoldenCandidates, PulsarHarmonicsMatchTheHarmonicsTable) {
  const AccelCandidate got = optimise(1);
  const AccelCandidate& want = accel_.candidates[1];
  ASSERT_EQ(got.harmonics.size(), 8u);
  for (int n = 0; n < 8; ++n) {
    const FourierProps& a = got.harmonics[n].props;
    const FourierProps& b = want.harmonics[n].props;
    SCOPED_TRACE("harmonic " + std::to_string(n + 1));
    // The table rounds r to 0.001 and z to 0.01 (0.001 for harmonic 3); the simplex stops when
    // the power spread is 1e-10, which leaves ~1e-5 bins in r and ~1e-4 in z.
    EXPECT_NEAR(a.r, b.r, 0.0006 + 2e-5 * (n + 1));
    EXPECT_NEAR(a.z, b.z, 0.005 + 2e-4 * (n + 1));
    EXPECT_NEAR(a.pow, b.pow, 0.5 + 1e-4 * b.pow);       // printed as an integer
    EXPECT_NEAR(a.rawpow / b.rawpow, 1.0, 0.006);         // printed with %.3g
    EXPECT_NEAR(a.phs, b.phs, 0.0015);                    // printed to 0.001 rad
    EXPECT_NEAR(a.cen, b.cen, 0.0002);                    // printed to 0.0001
    // PRESTO sums the interpolation and keeps the five powers of the second difference in
    // float: its purity scatters by a few 1e-3. Ours is computed in double.
    EXPECT_NEAR(a.pur, b.pur, 0.006);
  }
}

TEST_F(PrestoGoldenCandidates, PulsarFundamentalMatchesTheCandRecord) {
  const AccelCandidate got = optimise(1);
  const FourierProps mine = cand_record(got);
  const FourierProps& want = records_[1];
  EXPECT_EQ(mine.r, want.r);
  EXPECT_EQ(mine.z, want.z);
  EXPECT_NEAR(mine.pow / want.pow, 1.0, 1e-4);
  EXPECT_NEAR(mine.powerr / want.powerr, 1.0, 1e-4);
  EXPECT_NEAR(mine.sig / want.sig, 1.0, 1e-4);
  EXPECT_NEAR(mine.rawpow / want.rawpow, 1.0, 1e-4);
  EXPECT_NEAR(mine.phs, want.phs, 2e-4);
  EXPECT_NEAR(mine.cen, want.cen, 5e-5);
  EXPECT_NEAR(mine.pur, want.pur, 0.006);
  EXPECT_NEAR(mine.locpow / want.locpow, 1.0, 1e-5);
}

TEST_F(PrestoGoldenCandidates, PulsarCoherentPowerMatchesTheFundamentalsTable) {
  const AccelCandidate got = optimise(1);
  EXPECT_NEAR(got.coherent_power / accel_.candidates[1].coherent_power, 1.0, 1e-4);
}

TEST_F(PrestoGoldenCandidates, GridValuesAreKeptForTheFundamentalsTable) {
  const AccelCandidate got = optimise(1);
  const AccelCandidate& want = accel_.candidates[1];
  EXPECT_EQ(got.r, want.r);
  EXPECT_EQ(got.z, want.z);
  EXPECT_EQ(got.numharm, want.numharm);
  EXPECT_EQ(got.summed_power, want.summed_power);
  EXPECT_EQ(got.sigma, want.sigma);
}

TEST_F(PrestoGoldenCandidates, HarmonicSigmasComeFromTheGivenFunction) {
  OptimiseOptions options;
  options.single_trial_sigma = [](double power, int numharm) { return power * 10 + numharm; };
  const AccelCandidate got = optimise(1, options);
  for (const AccelHarmonic& h : got.harmonics) EXPECT_EQ(h.sigma, h.props.pow * 10 + 1);
}

// Weaker candidates: every harmonic within a tenth of PRESTO's own error bar (the printed
// rounding is at most 0.05 of it).
TEST_F(PrestoGoldenCandidates, WeakerCandidatesAgreeWithinATenthOfTheirErrors) {
  for (int index : {2, 3, 4}) {
    const AccelCandidate got = optimise(index);
    const AccelCandidate& want = accel_.candidates[index];
    ASSERT_EQ(got.harmonics.size(), want.harmonics.size());
    EXPECT_NEAR(got.coherent_power / want.coherent_power, 1.0, 5e-4);
    for (size_t n = 0; n < want.harmonics.size(); ++n) {
      const FourierProps& a = got.harmonics[n].props;
      const FourierProps& b = want.harmonics[n].props;
      SCOPED_TRACE("candidate " + std::to_string(index + 1) + " harmonic " +
                   std::to_string(n + 1));
      EXPECT_NEAR(a.r, b.r, 0.1 * b.rerr + 1e-3);
      EXPECT_NEAR(a.z, b.z, 0.1 * b.zerr + 1e-2);
      EXPECT_NEAR(a.pow, b.pow, 0.1 * b.powerr + 1e-2);
      EXPECT_NEAR(a.phs, b.phs, 0.1 * b.phserr + 1e-2);
      EXPECT_NEAR(a.cen, b.cen, 0.1 * b.cenerr + 1e-3);
      EXPECT_NEAR(a.pur, b.pur, 0.1 * b.purerr + 1e-2);
    }
  }
}

TEST_F(PrestoGoldenCandidates, WithoutPolishingEachHarmonicIsMaximisedNearItsOwnPeak) {
  OptimiseOptions options;
  options.harmonic_polish = false;
  const AccelCandidate got = optimise(1, options);
  const AccelCandidate polished = optimise(1);
  for (int n = 0; n < 8; ++n) {
    const FourierProps& a = got.harmonics[n].props;
    const FourierProps& b = polished.harmonics[n].props;
    // Each harmonic's own peak lies within its error bar of the polished one...
    EXPECT_NEAR(a.r, b.r, 2.0 * b.rerr);
    EXPECT_NEAR(a.z, b.z, 2.0 * b.zerr);
    // ... and its own maximum of raw power is at least as high.
    EXPECT_GE(a.rawpow, b.rawpow * (1.0 - 1e-9));
  }
  // Each harmonic is reported where it peaks, not at n times the fundamental.
  EXPECT_GT(std::fabs(got.harmonics[7].props.r - 8.0 * got.harmonics[0].props.r), 1e-4);
}

}  // namespace
}  // namespace rapt
