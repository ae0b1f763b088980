// fold against PRESTO's own prepfold outputs in the shared golden data: candidate 2 of the
// accelsearch of test_DM56.00.dat (the 87.3 ms pulsar), folded and searched as prepfold did.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "cli/program.hpp"
#include "fold/fold_runner.hpp"
#include "fold/pfd_trials.hpp"
#include "io/bestprof.hpp"
#include "io/pfd.hpp"
#include "test_data.hpp"
#include "test_statistics.hpp"

namespace {

rapt::FoldProduct fold_candidate_2(const std::string& dat, const std::string& cand,
                                   const std::string& root) {
  rapt::FoldOptions options;
  options.input = dat;
  options.accelcand = "2";
  options.accelfile = cand;
  options.outroot = root;
  options.threads = 2;
  rapt::Messages quiet{"fold", 0, false};
  std::vector<rapt::FoldProduct> products = rapt::run_fold(options, false, quiet);
  EXPECT_EQ(products.size(), 1u);
  return products.front();
}

}  // namespace

TEST(FoldPrestoGolden, AccelCandidateTwoMatchesPrepfold) {
  RAPT_REQUIRE_SHARED_FILE(dat, "presto-golden/test_DM56.00.dat");
  RAPT_REQUIRE_SHARED_FILE(cand, "presto-golden/test_DM56.00_ACCEL_50.cand");
  RAPT_REQUIRE_SHARED_FILE(golden, "presto-golden/test_DM56.00_ACCEL_Cand_2.pfd.bestprof");
  rapt::testing::ScratchDir dir;
  const rapt::FoldProduct ours = fold_candidate_2(dat, cand, dir.file("test_DM56.00"));
  const rapt::Bestprof theirs = rapt::read_bestprof(golden);
  EXPECT_EQ(ours.names.pfd, dir.file("test_DM56.00_ACCEL_Cand_2.pfd"));
  EXPECT_EQ(ours.bestprof.candidate, "ACCEL_Cand_2");
  EXPECT_EQ(ours.bestprof.data_folded, theirs.data_folded);
  ASSERT_TRUE(ours.bestprof.topo && theirs.topo);
  EXPECT_NEAR(ours.bestprof.topo->p_ms, theirs.topo->p_ms, 3.0 * theirs.topo->p_ms_err);
  EXPECT_NEAR(ours.bestprof.topo->p_ms, 87.30, 0.005);
  EXPECT_NEAR(ours.bestprof.topo->pdot, theirs.topo->pdot, 3.0 * theirs.topo->pdot_err);
  EXPECT_NEAR(ours.bestprof.topo->p_ms_err, theirs.topo->p_ms_err, 0.2 * theirs.topo->p_ms_err);
  // 563.03 against 562.23: prepfold never folds its last partial turn (233 samples here).
  EXPECT_NEAR(ours.bestprof.reduced_chi_sqr, theirs.reduced_chi_sqr,
              0.002 * theirs.reduced_chi_sqr);
  EXPECT_NEAR(ours.bestprof.prob_noise_sigma, theirs.prob_noise_sigma, 0.1 * theirs.prob_noise_sigma);
  EXPECT_NEAR(ours.bestprof.data_avg, theirs.data_avg, 0.01);
  EXPECT_GE(rapt::testing::pearson_correlation(ours.bestprof.profile, theirs.profile), 0.99);
}

TEST(FoldPrestoGolden, PfdHasPrepfoldsLayoutAndRoundTrips) {
  RAPT_REQUIRE_SHARED_FILE(dat, "presto-golden/test_DM56.00.dat");
  RAPT_REQUIRE_SHARED_FILE(cand, "presto-golden/test_DM56.00_ACCEL_50.cand");
  RAPT_REQUIRE_SHARED_FILE(golden_pfd, "presto-golden/test_DM56.00_ACCEL_Cand_2.pfd");
  rapt::testing::ScratchDir dir;
  const rapt::FoldProduct ours = fold_candidate_2(dat, cand, dir.file("test_DM56.00"));
  rapt::write_fold_product(ours, false);
  const rapt::Pfd back = rapt::read_pfd(ours.names.pfd);
  const rapt::Pfd theirs = rapt::read_pfd(golden_pfd);
  EXPECT_EQ(rapt::format_pfd(back), rapt::format_pfd(ours.pfd));
  EXPECT_EQ(rapt::testing::read_whole_file(ours.names.bestprof), rapt::format_bestprof(ours.bestprof));
  // Everything but the folds themselves as prepfold lays it out.
  EXPECT_EQ(back.dms.size(), theirs.dms.size());
  EXPECT_EQ(back.periods.size(), theirs.periods.size());
  EXPECT_EQ(back.pdots.size(), theirs.pdots.size());
  EXPECT_EQ(back.nsub, theirs.nsub);
  EXPECT_EQ(back.npart, theirs.npart);
  EXPECT_EQ(back.proflen, theirs.proflen);
  EXPECT_EQ(back.numchan, theirs.numchan);
  EXPECT_EQ(back.pstep, theirs.pstep);
  EXPECT_EQ(back.pdstep, theirs.pdstep);
  EXPECT_EQ(back.dmstep, theirs.dmstep);
  EXPECT_EQ(back.ndmfact, theirs.ndmfact);
  EXPECT_EQ(back.npfact, theirs.npfact);
  EXPECT_EQ(back.filenm, theirs.filenm);
  EXPECT_EQ(back.candnm, theirs.candnm);
  EXPECT_EQ(back.telescope, theirs.telescope);
  EXPECT_EQ(back.rastr, theirs.rastr);
  EXPECT_EQ(back.decstr, theirs.decstr);
  EXPECT_EQ(back.dt_s, theirs.dt_s);
  EXPECT_NEAR(back.tepoch_mjd, theirs.tepoch_mjd, 1e-9);
  EXPECT_EQ(back.bepoch_mjd, theirs.bepoch_mjd);
  EXPECT_EQ(back.lofreq_mhz, theirs.lofreq_mhz);
  EXPECT_EQ(back.chan_wid_mhz, theirs.chan_wid_mhz);
  EXPECT_EQ(back.bestdm, theirs.bestdm);
  EXPECT_NEAR(back.fold.p1, theirs.fold.p1, 1e-9);
  EXPECT_NEAR(back.fold.p2, theirs.fold.p2, 1e-12);
  EXPECT_NEAR(back.topo.p1, theirs.topo.p1, 1e-9);
  // The grids: same folded f and the same number of samples, so the same trial values.
  for (size_t i = 0; i < back.periods.size(); ++i) EXPECT_NEAR(back.periods[i], theirs.periods[i], 1e-12);
  for (size_t i = 0; i < back.pdots.size(); ++i) EXPECT_NEAR(back.pdots[i], theirs.pdots[i], 1e-15);
  // The folds summed over parts agree in shape (part by part they differ where prepfold
  // carries each part's last partial turn over to the next part).
  std::vector<double> ours_sum(64), theirs_sum(64);
  for (int p = 0; p < 64; ++p)
    for (int b = 0; b < 64; ++b) {
      ours_sum[b] += back.rawfold(p, 0, b);
      theirs_sum[b] += theirs.rawfold(p, 0, b);
    }
  EXPECT_GE(rapt::testing::pearson_correlation(ours_sum, theirs_sum), 0.99);
}

// prepfold writes the .bestprof from its plot's sum of the parts, whose part times are single
// precision: on prepfold's own .pfd, our best profile must be its .bestprof, bin for bin, and
// the reduced chi^2 its 562.227. Parts 16 and 48 sit at delays of exactly 0.5 and 1.5 bins
// here, and the float rounding of their times decides their shifts (0 and 2; in double
// precision 1 and 2, which gives 563.044).
TEST(FoldPrestoGolden, BestProfileOfPrepfoldsPfdIsItsBestprof) {
  RAPT_REQUIRE_SHARED_FILE(golden_pfd, "presto-golden/test_DM56.00_ACCEL_Cand_2.pfd");
  RAPT_REQUIRE_SHARED_FILE(golden, "presto-golden/test_DM56.00_ACCEL_Cand_2.pfd.bestprof");
  const rapt::Pfd pfd = rapt::read_pfd(golden_pfd);
  const rapt::Bestprof theirs = rapt::read_bestprof(golden);
  std::vector<double> profile;
  const rapt::FoldStats stats = rapt::pfd_best_profile(pfd, profile);
  ASSERT_EQ(profile.size(), theirs.profile.size());
  for (size_t b = 0; b < profile.size(); ++b)
    EXPECT_NEAR(profile[b], theirs.profile[b], 1e-6 * theirs.profile[b]) << "bin " << b;
  EXPECT_NEAR(stats.redchi, theirs.reduced_chi_sqr, 0.0005);
  EXPECT_NEAR(stats.prof_avg, theirs.profile_avg, 1e-9 * theirs.profile_avg);
}

// The .bestprof and the plot report one best profile and one reduced chi^2.
TEST(FoldPrestoGolden, BestprofAndPlotAgree) {
  RAPT_REQUIRE_SHARED_FILE(dat, "presto-golden/test_DM56.00.dat");
  RAPT_REQUIRE_SHARED_FILE(cand, "presto-golden/test_DM56.00_ACCEL_50.cand");
  rapt::testing::ScratchDir dir;
  const rapt::FoldProduct ours = fold_candidate_2(dat, cand, dir.file("test_DM56.00"));
  const rapt::PfdTrials plot = rapt::compute_pfd_trials(ours.pfd);
  EXPECT_EQ(ours.result.stats.redchi, plot.best_stats.redchi);
  EXPECT_EQ(ours.result.profile, plot.best_profile);
}
