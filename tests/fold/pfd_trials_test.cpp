// prepfold's search curves from a .pfd: profile rotation, reduced chi^2, and the DM, period and
// Pdot trials on synthetic folds whose pulse drifts by a known amount (the curve must peak at
// the trial that undoes the drift), and on PRESTO's own files (the best profile and its reduced
// chi^2 must be the ones prepfold wrote to .bestprof).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "cli/errors.hpp"
#include "fold/pfd_trials.hpp"
#include "io/bestprof.hpp"
#include "io/pfd.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

constexpr int kBins = 32;
constexpr int kParts = 16;
constexpr double kFoldHz = 4.0;
constexpr double kDt = 1e-3;
constexpr double kPartSamples = 1000.0;  // 1 s per part, 16 s in all

// A pfd with `nsub` subbands of 8 channels from 300 MHz up, folded at 4 Hz, whose pulse (a
// Gaussian of 0.8 bins) sits in (part, subband) at bin 10 + offset(part, subband), over unit
// Gaussian noise on a level of 50 per bin.
Pfd synthetic_pfd(int nsub, const std::function<double(int, int)>& offset, double amplitude,
                  unsigned seed) {
  Pfd pfd;
  pfd.nsub = nsub;
  pfd.npart = kParts;
  pfd.proflen = kBins;
  pfd.numchan = 8 * nsub;
  pfd.candnm = "synthetic";
  pfd.telescope = "nowhere";
  pfd.dt_s = kDt;
  pfd.lofreq_mhz = 300.0;
  pfd.chan_wid_mhz = 1.0;
  pfd.fold.p1 = kFoldHz;
  pfd.topo.p1 = 1.0 / kFoldHz;
  pfd.allocate_folds();
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  for (int k = 0; k < kParts; ++k)
    for (int s = 0; s < nsub; ++s) {
      const double centre = 10.0 + offset(k, s);
      for (int b = 0; b < kBins; ++b) {
        double d = std::remainder(b - centre, double(kBins));
        pfd.rawfold(k, s, b) = 50.0 + amplitude * std::exp(-0.5 * d * d / 0.64) + noise(rng);
      }
      FoldStats& st = pfd.stat(k, s);
      st.numdata = kPartSamples;
      st.data_avg = 50.0 * kBins / kPartSamples;
      st.data_var = 1.0;
      st.numprof = kBins;
      st.prof_avg = 50.0;
      st.prof_var = 1.0;
    }
  return pfd;
}

// Periods whose frequencies step by one bin of drift over the observation, centred on the fold.
void set_period_grid(Pfd& pfd, int half) {
  const double total_s = kParts * kPartSamples * kDt;
  const double df = 1.0 / (kBins * total_s);
  pfd.periods.clear();
  for (int i = -half; i <= half; ++i) pfd.periods.push_back(1.0 / (kFoldHz + i * df));
}

// Pdots whose f-dot steps by one bin of drift at the end of the observation.
void set_pdot_grid(Pfd& pfd, int half) {
  const double total_s = kParts * kPartSamples * kDt;
  const double dfdot = 2.0 / (kBins * total_s * total_s);
  pfd.pdots.clear();
  for (int i = -half; i <= half; ++i) pfd.pdots.push_back(-(i * dfdot) / (kFoldHz * kFoldHz));
}

size_t argmax(const std::vector<double>& v) {
  return size_t(std::max_element(v.begin(), v.end()) - v.begin());
}

TEST(ProfileReducedChi2, IsTheSumOfSquaredDeviationsOverVarianceAndDof) {
  const double profile[4] = {1.0, 2.0, 3.0, 4.0};
  EXPECT_DOUBLE_EQ(profile_reduced_chi2(profile, 4, 2.5, 1.0), 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(profile_reduced_chi2(profile, 4, 2.5, 2.0), 5.0 / 6.0);
  EXPECT_EQ(profile_reduced_chi2(profile, 4, 2.5, 0.0), 0.0);
}

TEST(RotateProfile, MovesBinsRightForPositiveShiftsAndWraps) {
  const double in[5] = {0, 1, 2, 3, 4};
  double out[5];
  rotate_profile(in, 5, 2, out);
  EXPECT_EQ(std::vector<double>(out, out + 5), (std::vector<double>{3, 4, 0, 1, 2}));
  rotate_profile(in, 5, -1, out);
  EXPECT_EQ(std::vector<double>(out, out + 5), (std::vector<double>{1, 2, 3, 4, 0}));
  rotate_profile(in, 5, 12, out);
  EXPECT_EQ(std::vector<double>(out, out + 5), (std::vector<double>{3, 4, 0, 1, 2}));
}

TEST(ShiftProfile, AgreesWithRotationForWholeBinsAndComposesFractions) {
  // An odd length: an even one's Nyquist term cannot carry a fractional shift.
  const int n = 15;
  std::vector<double> in(n);
  for (int i = 0; i < n; ++i) in[size_t(i)] = std::exp(-0.5 * (i - 5) * (i - 5) / 2.0) + 0.1 * i;
  std::vector<double> rotated(n);
  rotate_profile(in.data(), n, 3, rotated.data());
  const std::vector<double> whole = shift_profile(in, 3.0);
  const std::vector<double> halves = shift_profile(shift_profile(in, 1.25), 1.75);
  double mean_in = 0.0, mean_half = 0.0;
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(whole[size_t(i)], rotated[size_t(i)], 1e-12);
    EXPECT_NEAR(halves[size_t(i)], rotated[size_t(i)], 1e-12);
    mean_in += in[size_t(i)];
    mean_half += shift_profile(in, 0.5)[size_t(i)];
  }
  EXPECT_NEAR(mean_half, mean_in, 1e-12);
}

TEST(PfdSubbandDelays, FollowTheColdPlasmaLawAtEachSubbandsTopChannel) {
  Pfd pfd;
  pfd.nsub = 2;
  pfd.numchan = 4;
  pfd.lofreq_mhz = 100.0;
  pfd.chan_wid_mhz = 10.0;
  pfd.proflen = 100;
  pfd.fold.p1 = 1.0;
  const std::vector<double> d = pfd_subband_delays(pfd, 1.0);
  ASSERT_EQ(d.size(), 2u);
  // Channels at 100, 110, 120, 130 MHz: subband tops 110 and 130; 100 bins per second.
  EXPECT_NEAR(d[0], 100.0 / 0.000241 * (1.0 / (110.0 * 110.0) - 1.0 / (130.0 * 130.0)), 1e-9);
  EXPECT_EQ(d[1], 0.0);
  EXPECT_EQ(pfd_subband_delays(pfd, 0.0)[0], 0.0);
}

TEST(PfdTrials, PeriodCurvePeaksAtTheTrialThatUndoesALinearDrift) {
  // The true frequency is 5 steps above the fold's: the pulse slides 5 bins left in 16 s.
  const double step_bins = 1.0;
  Pfd pfd = synthetic_pfd(1, [&](int k, int) { return -5.0 * step_bins * k / kParts; }, 3.0, 1);
  set_period_grid(pfd, 16);
  set_pdot_grid(pfd, 8);
  const PfdTrials t = compute_pfd_trials(pfd);
  EXPECT_EQ(t.best_period, 16);
  EXPECT_EQ(t.best_pdot, 8);
  EXPECT_EQ(argmax(t.period_chi2), 16u + 5u);
  EXPECT_TRUE(t.dm_chi2.empty());
  EXPECT_EQ(t.best_dm, -1);
}

TEST(PfdTrials, PdotCurvePeaksAtTheTrialThatUndoesAQuadraticDrift) {
  const double total_s = kParts * kPartSamples * kDt;
  // f-dot 8 steps below the fold's: the pulse drifts right by 8 (t/T)^2 bins.
  Pfd pfd = synthetic_pfd(1, [&](int k, int) {
    const double t = k * kPartSamples * kDt;
    return 8.0 * (t / total_s) * (t / total_s);
  }, 4.0, 2);
  set_period_grid(pfd, 12);
  set_pdot_grid(pfd, 12);
  const PfdTrials t = compute_pfd_trials(pfd);
  // Delays are rounded to whole bins, so the neighbouring trials fit almost as well.
  EXPECT_NEAR(double(argmax(t.pdot_chi2)), 12.0 - 8.0, 1.0);
  EXPECT_GT(*std::max_element(t.ppdot_chi2.begin(), t.ppdot_chi2.end()), 1.5 * t.pdot_chi2[12]);
}

TEST(PfdTrials, DmCurvePeaksAtTheDispersionOfTheSubbands) {
  const double true_dm = 12.0;
  Pfd layout = synthetic_pfd(8, [](int, int) { return 0.0; }, 0.0, 3);
  const std::vector<double> delays = pfd_subband_delays(layout, true_dm);
  Pfd pfd = synthetic_pfd(8, [&](int, int s) { return delays[size_t(s)]; }, 2.0, 3);
  set_period_grid(pfd, 4);
  set_pdot_grid(pfd, 4);
  for (int i = 0; i <= 40; ++i) pfd.dms.push_back(0.5 * i);
  pfd.bestdm = true_dm;
  ASSERT_GT(delays[0], 15.0);  // the lowest subband lags by many bins: a real test
  const PfdTrials t = compute_pfd_trials(pfd);
  ASSERT_EQ(t.dm_chi2.size(), pfd.dms.size());
  EXPECT_NEAR(pfd.dms[argmax(t.dm_chi2)], true_dm, 0.51);
  EXPECT_EQ(t.best_dm, 24);
  EXPECT_GT(t.dm_chi2[24], 4.0 * t.dm_chi2[0]);
  ASSERT_EQ(t.subband_profiles.size(), size_t(8 * kBins));
  for (int s = 0; s < 8; ++s) {  // every subband lined up on the pulse's bin
    const auto first = t.subband_profiles.begin() + s * kBins;
    const auto peak = std::max_element(first, first + kBins) - first;
    EXPECT_NEAR(double(peak), 10.0, 1.0) << "subband " << s;
  }
}

TEST(PfdTrials, NoiseGivesReducedChi2NearOneBeforeTheCorrection) {
  Pfd pfd = synthetic_pfd(4, [](int, int) { return 0.0; }, 0.0, 4);
  set_period_grid(pfd, 10);
  set_pdot_grid(pfd, 10);
  const PfdTrials t = compute_pfd_trials(pfd);
  double sum = 0.0;
  for (double c : t.ppdot_chi2) sum += c / t.chi2_factor;
  EXPECT_NEAR(sum / double(t.ppdot_chi2.size()), 1.0, 0.15);
  EXPECT_NEAR(t.chi2_factor, 1.0 / dof_correction(1.0 / kFoldHz / kBins / kDt), 1e-12);
  EXPECT_EQ(t.time_chi2.size(), size_t(kParts + 1));
  EXPECT_NEAR(t.total_s, kParts * kPartSamples * kDt, 1e-9);
}

TEST(PfdTrials, RefusesAPfdWithoutTrials) {
  Pfd pfd = synthetic_pfd(1, [](int, int) { return 0.0; }, 0.0, 5);
  try {
    compute_pfd_trials(pfd);
    FAIL() << "no trials accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("synthetic: the pfd has no period or Pdot trials"),
              std::string::npos) << e.what();
  }
}

TEST(PfdTrialsGolden, RawFoldGivesPrepfoldsBestProfileAndChi2) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/rawfold_ns_87.30ms_Cand.pfd");
  const Pfd pfd = read_pfd(path);
  const Bestprof bp = read_bestprof(path + ".bestprof");
  const PfdTrials t = compute_pfd_trials(pfd);
  EXPECT_NEAR(t.best_stats.redchi, bp.reduced_chi_sqr, 5e-4);
  ASSERT_EQ(t.best_profile.size(), bp.profile.size());
  for (size_t i = 0; i < bp.profile.size(); ++i)
    EXPECT_NEAR(t.best_profile[i], bp.profile[i], 1e-6 * std::fabs(bp.profile[i])) << i;
  EXPECT_NEAR(std::sqrt(t.best_stats.prof_var), bp.profile_stddev, 1e-6 * bp.profile_stddev);
  EXPECT_EQ(t.numdata, bp.data_folded);
}

TEST(PfdTrialsGolden, RawFoldDmCurvePeaksNearDm56) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/rawfold_ns_87.30ms_Cand.pfd");
  const Pfd pfd = read_pfd(path);
  const PfdTrials t = compute_pfd_trials(pfd);
  ASSERT_EQ(t.dm_chi2.size(), pfd.dms.size());
  const double peak_dm = pfd.dms[argmax(t.dm_chi2)];
  EXPECT_NEAR(peak_dm, 56.0, 1.5);
  EXPECT_GT(t.dm_chi2[argmax(t.dm_chi2)], 10.0 * t.dm_chi2.back());
}

TEST(PfdTrialsGolden, TimeSeriesFoldGivesPrepfoldsChi2) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_ACCEL_Cand_2.pfd");
  const Pfd pfd = read_pfd(path);
  const Bestprof bp = read_bestprof(path + ".bestprof");
  const PfdTrials t = compute_pfd_trials(pfd);
  // The sum prepfold wrote to the .bestprof (single-precision part times included).
  EXPECT_NEAR(t.best_stats.redchi, bp.reduced_chi_sqr, 0.0005);
  EXPECT_EQ(argmax(t.period_chi2), size_t(t.best_period));
  EXPECT_EQ(argmax(t.pdot_chi2), size_t(t.best_pdot));
  EXPECT_TRUE(t.dm_chi2.empty());
}

}  // namespace
}  // namespace rapt
