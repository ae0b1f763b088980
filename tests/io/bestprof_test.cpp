#include "io/bestprof.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "cli/errors.hpp"
#include "test_data.hpp"

using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;

namespace {

std::vector<std::string> shared_bestprof_files() {
  std::vector<std::string> files;
  const std::string root = rapt::testing::shared_data_dir();
  if (root.empty()) return files;
  for (const char* dir : {"/presto-golden", "/presto"}) {
    if (!std::filesystem::is_directory(root + dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(root + dir))
      if (entry.path().extension() == ".bestprof") files.push_back(entry.path().string());
  }
  return files;
}

rapt::Bestprof synthetic_bestprof() {
  rapt::Bestprof b;
  b.input_file = "x.dat";
  b.candidate = "PSR_J0000+0000";
  b.telescope = "Parkes";
  b.epoch_topo_mjd = 55000.5;
  b.epoch_bary_mjd = 55000.75;
  b.t_sample_s = 6.4e-5;
  b.data_folded = 1048576;
  b.data_avg = 1.5;
  b.data_stddev = 2.25;
  b.profile_avg = 100.0;
  b.profile_stddev = 3.0;
  b.reduced_chi_sqr = 12.3456;
  b.prob_noise = 1.234e-20;
  b.prob_noise_sigma = 9.25;
  b.best_dm = 10.0;
  b.topo = rapt::BestprofPeriods{5.0, 1e-6, 1e-15, 2e-16, 0.0, 1e-20};
  b.bary = rapt::BestprofPeriods{5.001, 1e-6, 1.1e-15, 2e-16, 0.0, 1e-20};
  b.orbit = rapt::BestprofOrbit{86400.0, 1.5, 0.01, 45.0, 55000.25};
  b.profile = {1.0, 2.5, 1e9, -3.25};
  return b;
}

}  // namespace

TEST(Bestprof, RewritesEverySharedFileByteForByte) {
  const auto files = shared_bestprof_files();
  if (files.empty()) GTEST_SKIP() << "shared data not found";
  EXPECT_GE(files.size(), 10u);
  for (const auto& path : files) {
    const std::string golden = read_whole_file(path);
    const auto bestprof = rapt::read_bestprof(path);
    EXPECT_EQ(bestprof.profile.size(), 64u) << path;
    EXPECT_EQ(rapt::format_bestprof(bestprof), golden) << path;
  }
}

TEST(Bestprof, ReadsTheNotAvailableForms) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto/M28A_bary_PSR_1824-2452A.pfd.bestprof");
  const auto b = rapt::read_bestprof(path);
  EXPECT_EQ(b.telescope, "Chandra");
  EXPECT_FALSE(b.epoch_topo_mjd.has_value());
  ASSERT_TRUE(b.epoch_bary_mjd.has_value());
  EXPECT_DOUBLE_EQ(*b.epoch_bary_mjd, 52586.242696315312);
  EXPECT_FALSE(b.topo.has_value());
  ASSERT_TRUE(b.bary.has_value());
  EXPECT_DOUBLE_EQ(b.bary->p_ms, 3.05431527724214);
  EXPECT_DOUBLE_EQ(b.bary->p_ms_err, 2e-10);
  EXPECT_DOUBLE_EQ(b.bary->pdot, 1.61883098211825e-18);
  EXPECT_FALSE(b.best_dm.has_value());
  EXPECT_FALSE(b.orbit.has_value());
  EXPECT_DOUBLE_EQ(b.prob_noise_sigma, 41.2);
  EXPECT_DOUBLE_EQ(b.profile[0], 24.99999);
}

TEST(Bestprof, ReadsBestDmFromSubbandFolds) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/rawfold_ns_87.30ms_Cand.pfd.bestprof");
  const auto b = rapt::read_bestprof(path);
  ASSERT_TRUE(b.best_dm.has_value());
  EXPECT_DOUBLE_EQ(*b.best_dm, 56.141);
  EXPECT_DOUBLE_EQ(b.data_folded, 153600);
  EXPECT_DOUBLE_EQ(b.reduced_chi_sqr, 410.28);
}

TEST(Bestprof, WritesOrbitAndBothFrames) {
  const std::string text = rapt::format_bestprof(synthetic_bestprof());
  EXPECT_NE(text.find("# Epoch_bary (MJD) =  55000.750000000000\n"), std::string::npos);
  EXPECT_NE(text.find("# Prob(Noise)      <  1.23e-20   (~9.2 sigma)\n"), std::string::npos);
  EXPECT_NE(text.find("# P_bary (ms)      =  5.001             +/- 1e-06\n"), std::string::npos);
  EXPECT_NE(text.find("# w (deg)          =  45               \n"), std::string::npos);
  EXPECT_NE(text.find("# T_peri           =  55000.250000000000\n"), std::string::npos);
  EXPECT_NE(text.find("\n   2  1e+09\n   3  -3.25\n"), std::string::npos);
  const auto back = rapt::parse_bestprof(text, "synthetic");
  EXPECT_EQ(rapt::format_bestprof(back), text);
  ASSERT_TRUE(back.orbit.has_value());
  EXPECT_DOUBLE_EQ(back.orbit->w_deg, 45.0);
}

TEST(Bestprof, WritesThroughAnAtomicFile) {
  ScratchDir dir;
  rapt::write_bestprof(dir.file("a.bestprof"), synthetic_bestprof(), false);
  EXPECT_EQ(read_whole_file(dir.file("a.bestprof")), rapt::format_bestprof(synthetic_bestprof()));
  EXPECT_THROW(rapt::write_bestprof(dir.file("a.bestprof"), synthetic_bestprof(), false),
               rapt::DataError);
}

TEST(Bestprof, RejectsAProfileShorterThanItsHeaderSays) {
  std::string text = rapt::format_bestprof(synthetic_bestprof());
  text.resize(text.rfind("   3  "));
  try {
    rapt::parse_bestprof(text, "cut.bestprof");
    FAIL() << "expected a DataError";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), "cut.bestprof: header says 4 profile bins, found 3");
  }
}

TEST(Bestprof, RejectsTextWithoutHeader) {
  try {
    rapt::parse_bestprof("   0  1.5\n", "x.bestprof");
    FAIL() << "expected a DataError";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), "x.bestprof: not a prepfold .bestprof file");
  }
}
