// The prepfold-style PNG of a .pfd: written for PRESTO's own files (a time-series fold and a
// 32-subband raw-data fold), atomically, refusing to replace a file unless asked; in a build
// without PLplot it refuses with "built without PLplot".
#include <gtest/gtest.h>

#include <dirent.h>

#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "fold/pfd_plot.hpp"
#include "io/pfd.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

const std::string kPngSignature("\x89PNG\r\n\x1a\n", 8);

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
    ::closedir(d);
  }
  return names;
}

void expect_reasonable_png(const std::string& path) {
  const std::string bytes = testing::read_whole_file(path);
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(0, 8), kPngSignature);
  // A page of greyscales, curves and text: tens of kilobytes, not a blank page nor a raw bitmap.
  EXPECT_GT(bytes.size(), 30000u);
  EXPECT_LT(bytes.size(), 4000000u);
}

TEST(PfdPlot, DrawsPrestosTimeSeriesFold) {
  if (!pfd_plot_available()) GTEST_SKIP() << "built without PLplot";
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_ACCEL_Cand_2.pfd");
  testing::ScratchDir dir;
  plot_pfd_png(dir.file("cand2.png"), read_pfd(path), false);
  expect_reasonable_png(dir.file("cand2.png"));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"cand2.png"});  // no temporaries left
}

TEST(PfdPlot, DrawsPrestosSubbandedRawFold) {
  if (!pfd_plot_available()) GTEST_SKIP() << "built without PLplot";
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/rawfold_ns_87.30ms_Cand.pfd");
  testing::ScratchDir dir;
  plot_pfd_png(dir.file("raw.png"), read_pfd(path), false);
  expect_reasonable_png(dir.file("raw.png"));
}

TEST(PfdPlot, RefusesToReplaceAFileUnlessAsked) {
  if (!pfd_plot_available()) GTEST_SKIP() << "built without PLplot";
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_ACCEL_Cand_2.pfd");
  const Pfd pfd = read_pfd(path);
  testing::ScratchDir dir;
  const std::string out = dir.file("old.png");
  testing::write_whole_file(out, "keep me");
  try {
    plot_pfd_png(out, pfd, false);
    FAIL() << "replaced an existing file";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), out + ": exists (use --force to replace it)");
  }
  EXPECT_EQ(testing::read_whole_file(out), "keep me");
  plot_pfd_png(out, pfd, true);
  expect_reasonable_png(out);
}

TEST(PfdPlot, NamesTheCandidateWhenThePfdHoldsNothingToPlot) {
  if (!pfd_plot_available()) GTEST_SKIP() << "built without PLplot";
  Pfd pfd;
  pfd.candnm = "empty_cand";
  testing::ScratchDir dir;
  try {
    plot_pfd_png(dir.file("e.png"), pfd, false);
    FAIL() << "plotted an empty pfd";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("empty_cand: "), std::string::npos) << e.what();
  }
  EXPECT_TRUE(names_in(dir.path()).empty());
}

TEST(PfdPlot, SaysSoInABuildWithoutPlplot) {
  if (pfd_plot_available()) GTEST_SKIP() << "this build has PLplot";
  testing::ScratchDir dir;
  try {
    plot_pfd_png(dir.file("x.png"), Pfd{}, false);
    FAIL() << "no error without PLplot";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("built without PLplot"), std::string::npos);
  }
}

}  // namespace
}  // namespace rapt
