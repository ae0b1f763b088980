// Candidates: prepfold's names, the P <-> f conversions, ACCEL r/z/w to start values, par files,
// candidate lists and prepfold-style negative option values.
#include <gtest/gtest.h>

#include "cli/errors.hpp"
#include "fold/fold_candidate.hpp"
#include "fold/fold_options.hpp"
#include "io/accel_files.hpp"
#include "io/presto_inf.hpp"
#include "test_data.hpp"

TEST(FoldCandidate, NamesPeriodAndFrequencyCandidatesAsPrepfold) {
  EXPECT_EQ(rapt::period_candidate(0.0873, -6.769e-6, 0.0).name, "87.30ms_Cand");
  EXPECT_EQ(rapt::frequency_candidate(11.4543, 0.0, 0.0).name, "11.45Hz_Cand");
}

TEST(FoldCandidate, ConvertsPeriodDerivativesToFrequencyDerivatives) {
  const rapt::FoldSpin spin = rapt::spin_from_period(0.1, 1e-6, 0.0);
  EXPECT_DOUBLE_EQ(spin.f_hz, 10.0);
  EXPECT_DOUBLE_EQ(spin.fdot, -1e-6 / 0.01);
  EXPECT_EQ(spin.fddot, 0.0);  // P'' = 0 gives f'' = 0, as prepfold
  const rapt::FoldSpin with_pdd = rapt::spin_from_period(0.1, 1e-6, 1e-9);
  EXPECT_NEAR(rapt::period_pddot(with_pdd), 1e-9, 1e-21);
}

TEST(FoldCandidate, TurnsAccelMidpointValuesIntoStartValues) {
  rapt::testing::ScratchDir dir;
  rapt::InfFile inf;
  inf.name = "obs_DM10.00";
  inf.n = 1000000;
  inf.dt_s = 1e-4;
  rapt::write_inf(dir.file("obs_DM10.00.inf"), inf, false);
  rapt::FourierProps a, b;
  a.r = 1000.0;
  a.z = 10.0;
  b.r = 500.0;
  b.z = -4.0;
  b.w = 30.0;
  rapt::write_cand_file(dir.file("obs_DM10.00_ACCEL_50.cand"), {a, b}, false);
  const auto cands = rapt::accel_candidates(dir.file("obs_DM10.00_ACCEL_50.cand"), {2, 1});
  ASSERT_EQ(cands.size(), 2u);
  const double t = 100.0;
  EXPECT_EQ(cands[0].name, "ACCEL_Cand_2");
  const double z0 = -4.0 - 15.0, r0 = 500.0 - z0 / 2 - 5.0;
  EXPECT_DOUBLE_EQ(cands[0].spin.f_hz, r0 / t);
  EXPECT_DOUBLE_EQ(cands[0].spin.fdot, z0 / (t * t));
  EXPECT_DOUBLE_EQ(cands[0].spin.fddot, 30.0 / (t * t * t));
  EXPECT_DOUBLE_EQ(cands[1].spin.f_hz, (1000.0 - 5.0) / t);
  try {
    rapt::accel_candidates(dir.file("obs_DM10.00_ACCEL_50.cand"), {3});
    FAIL() << "candidate 3 accepted";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              dir.file("obs_DM10.00_ACCEL_50.cand") + ": has 2 candidates; there is no candidate 3");
  }
}

TEST(FoldCandidate, NamesTheMissingInfAndTheTextListGivenForTheCandFile) {
  rapt::testing::ScratchDir dir;
  rapt::write_cand_file(dir.file("obs_ACCEL_50.cand"), {rapt::FourierProps{}}, false);
  rapt::testing::write_whole_file(dir.file("obs_ACCEL_50"), "text list\n");
  try {
    rapt::accel_candidates(dir.file("obs_ACCEL_50.cand"), {1});
    FAIL() << "no .inf accepted";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("obs_ACCEL_50.cand") + ": the search's " +
                                         dir.file("obs.inf") +
                                         " (its length turns r and z into f and f') is missing");
  }
  try {
    rapt::accel_candidates(dir.file("obs_ACCEL_50"), {1});
    FAIL() << "the text list accepted";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("obs_ACCEL_50") +
                                         ": is accelsearch's text list; give its binary "
                                         "records, " + dir.file("obs_ACCEL_50.cand"));
  }
}

TEST(FoldCandidate, ReadsParFilesAndMovesTheSpinToTheFoldEpoch) {
  rapt::testing::ScratchDir dir;
  rapt::testing::write_whole_file(dir.file("p.par"),
                                  "PSRJ  J1234+5678\nF0 10.0 1 1e-9\nF1 -1.0D-12\n"
                                  "PEPOCH 60000.0\nDM 42.5\n");
  const rapt::FoldCandidate c = rapt::par_candidate(dir.file("p.par"), 60001.0);
  EXPECT_EQ(c.name, "PSR_1234+5678");  // prepfold drops the J
  EXPECT_DOUBLE_EQ(c.par_dm, 42.5);
  EXPECT_NEAR(c.spin.f_hz, 10.0 - 1e-12 * 86400.0, 1e-15);
  EXPECT_DOUBLE_EQ(c.spin.fdot, -1e-12);
  rapt::testing::write_whole_file(dir.file("p1.par"), "PSR B1937+21\nP 0.1\nP1 1e-15\n");
  const rapt::FoldCandidate b = rapt::par_candidate(dir.file("p1.par"), 60001.0);
  EXPECT_EQ(b.name, "PSR_1937+21");
  EXPECT_DOUBLE_EQ(b.spin.f_hz, 10.0);
  EXPECT_DOUBLE_EQ(b.spin.fdot, -1e-15 * 100.0);
  rapt::testing::write_whole_file(dir.file("bad.par"), "PSRJ J0000+0000\nF1 -1e-15\n");
  try {
    rapt::par_candidate(dir.file("bad.par"), 0.0);
    FAIL() << "par file without F0 accepted";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("bad.par") + ": no F0 (spin frequency) or P0 in the par file");
  }
}

TEST(FoldCandidate, ParsesCandidateLists) {
  EXPECT_EQ(rapt::parse_candidate_numbers("2"), std::vector<int>({2}));
  EXPECT_EQ(rapt::parse_candidate_numbers("1,3-5,9"), std::vector<int>({1, 3, 4, 5, 9}));
  for (const char* bad : {"", "0", "a", "3-1", "1,,2", "2-", "-2"})
    EXPECT_THROW(rapt::parse_candidate_numbers(bad), rapt::UsageError) << bad;
}

TEST(FoldOptions, JoinsNegativeValuesToTheirOptions) {
  const std::vector<std::string> in = {"fold", "-pd", "-6.769e-6", "-p", "0.0873", "--fd", "-.5",
                                       "x.dat"};
  const std::vector<std::string> want = {"fold", "-pd=-6.769e-6", "-p", "0.0873", "--fd=-.5",
                                         "x.dat"};
  EXPECT_EQ(rapt::join_negative_values(in), want);
  // A one-letter option's value follows it directly, so that -p -0.1 is refused as a negative
  // period, not as the unreadable value "=-0.1".
  EXPECT_EQ(rapt::join_negative_values({"fold", "-p", "-0.1", "-f", "-2"}),
            std::vector<std::string>({"fold", "-p-0.1", "-f-2"}));
}

TEST(FoldOptions, RefusesPrepfoldsMissingOptionsByName) {
  try {
    rapt::refuse_missing_prepfold_options({"fold", "-timing", "x.par", "x.dat"});
    FAIL() << "-timing accepted";
  } catch (const rapt::UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "-timing: prepfold's TEMPO timing mode is not available (fold with --par "
                 "-nosearch)");
  }
  EXPECT_THROW(rapt::refuse_missing_prepfold_options({"fold", "--mask=x.mask"}), rapt::UsageError);
  EXPECT_THROW(rapt::refuse_missing_prepfold_options({"fold", "-psr", "B1937+21"}),
               rapt::UsageError);
  EXPECT_NO_THROW(rapt::refuse_missing_prepfold_options(
      {"fold", "-p", "0.1", "-pd", "-1e-6", "-o", "-", "-npart", "32", "x.dat"}));
}
