#include "accel/accel_plan.hpp"

#include <gtest/gtest.h>

#include "cli/errors.hpp"

namespace rapt {
namespace {

AccelSearchOptions options_with(int zmax, int numharm) {
  AccelSearchOptions o;
  o.zmax = zmax;
  o.numharm = numharm;
  return o;
}

TEST(AccelPlan, MatchesAccelsearchSegmentsForZmax50OnTheGoldenSeries) {
  // test_DM56.00.fft: 2^18 samples of 256 us, so 131072 bins and T = 67.108864 s.
  const AccelPlan plan = make_accel_plan(options_with(50, 8), 131072, 67.108864);
  EXPECT_EQ(plan.numz, 51);
  EXPECT_EQ(plan.kernel_halfwidth, 43);  // trunc(0.55 * 50) + 16
  EXPECT_EQ(plan.fftlen, 2048);
  EXPECT_EQ(plan.uselen, 2048 - 172);
  EXPECT_EQ(plan.rlo, 67.0);  // floor(1 Hz * T)
  EXPECT_EQ(plan.highestbin, 131071);
  EXPECT_EQ(plan.numharm_stages, 4);
}

TEST(AccelPlan, UsesThePublishedSegmentLengthsForZmax100And200) {
  const AccelPlan z100 = make_accel_plan(options_with(100, 16), 4194304, 536.870912);
  EXPECT_EQ(z100.kernel_halfwidth, 71);
  EXPECT_EQ(z100.fftlen, 2048);
  EXPECT_EQ(z100.uselen, 1764);
  const AccelPlan z200 = make_accel_plan(options_with(200, 16), 4194304, 536.870912);
  EXPECT_EQ(z200.kernel_halfwidth, 126);
  EXPECT_EQ(z200.uselen, 1544);
}

TEST(AccelPlan, NeverSearchesTheDcBin) {
  AccelSearchOptions o = options_with(0, 1);
  o.flo_hz = 0.0;
  EXPECT_EQ(make_accel_plan(o, 131072, 67.108864).rlo, 1.0);
  o.rlo = 0.0;
  EXPECT_EQ(make_accel_plan(o, 131072, 67.108864).rlo, 1.0);
}

TEST(AccelPlan, RoundsAnOddZmaxUpToEven) {
  EXPECT_EQ(make_accel_plan(options_with(51, 1), 131072, 67.1).options.zmax, 52);
}

TEST(AccelPlan, SearchSegmentsTileTheRangeWithoutGapsAndStopBeforeTheLastPartialOne) {
  const AccelPlan plan = make_accel_plan(options_with(50, 2), 131072, 67.108864);
  const std::vector<double> starts = plan.search_segment_starts();
  ASSERT_FALSE(starts.empty());
  EXPECT_EQ(starts.front(), plan.rlo);
  for (size_t i = 1; i < starts.size(); ++i) {
    EXPECT_EQ(starts[i] - starts[i - 1], plan.uselen * kAccelDr);
  }
  EXPECT_LT(starts.back() + plan.uselen * kAccelDr, double(plan.highestbin));
  EXPECT_GE(starts.back() + 2 * plan.uselen * kAccelDr, double(plan.highestbin));
}

TEST(AccelPlan, WarmUpSegmentsCoverEverythingBelowTheSearchRange) {
  AccelSearchOptions o = options_with(50, 8);
  o.flo_hz = 300.0;  // rlo = 20132
  const AccelPlan plan = make_accel_plan(o, 131072, 67.108864);
  const std::vector<double> warmup = plan.warmup_segment_starts();
  ASSERT_FALSE(warmup.empty());
  EXPECT_EQ(warmup.front(), 8.0);
  EXPECT_GE(warmup.back() + plan.uselen * kAccelDr, plan.rlo);
}

TEST(AccelPlan, SubharmonicMapsFollowAccelsearch) {
  const AccelPlan plan = make_accel_plan(options_with(50, 8), 131072, 67.108864);
  // Row of z = +50 (row 50): harmonic 1/2 reads z = 2*nint(50*0.5/2) = 26 -> row 38.
  EXPECT_EQ(subharmonic_row(plan, 50, 1, 2), 38);
  // z = -50 (row 0), 1/4: 2*nint(-6.25) = -12 -> row 19.
  EXPECT_EQ(subharmonic_row(plan, 0, 1, 4), 19);
  // z = -2 (row 24), 1/2: nint(-0.5) rounds away from zero -> -2 -> row 24.
  EXPECT_EQ(subharmonic_row(plan, 24, 1, 2), 24);
  // Columns: (int)(c * f + 0.5).
  EXPECT_EQ(subharmonic_column(1001, 1, 2), 501);
  EXPECT_EQ(subharmonic_column(1001, 3, 4), 751);
  EXPECT_EQ(subharmonic_column(1002, 1, 8), 125);
}

TEST(AccelPlan, PowerCutsGrowWithTheNumberOfHarmonicsAndFallWithTrials) {
  const AccelPlan plan = make_accel_plan(options_with(50, 16), 131072, 67.108864);
  ASSERT_EQ(plan.powcut.size(), 5u);
  for (size_t s = 1; s < plan.powcut.size(); ++s) {
    EXPECT_GT(plan.powcut[s], plan.powcut[s - 1]);
    EXPECT_LT(plan.numindep[s], plan.numindep[s - 1]);
  }
}

TEST(AccelPlan, RejectsBadOptions) {
  EXPECT_THROW(make_accel_plan(options_with(50, 3), 131072, 67.1), UsageError);
  EXPECT_THROW(make_accel_plan(options_with(50, 64), 131072, 67.1), UsageError);
  EXPECT_THROW(make_accel_plan(options_with(1202, 8), 131072, 67.1), UsageError);
  AccelSearchOptions o = options_with(50, 8);
  o.flo_hz = 1e6;
  EXPECT_THROW(make_accel_plan(o, 131072, 67.1), UsageError);
}

}  // namespace
}  // namespace rapt
