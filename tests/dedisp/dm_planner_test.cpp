#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cli/errors.hpp"
#include "dedisp/dm_planner.hpp"

namespace {

// The PRESTO golden observation: 128 x 2 MHz channels from 1500 MHz down, 256 us.
rapt::DmPlannerInput golden_observation(double hi_dm) {
  rapt::DmPlannerInput in;
  in.nchans = 128;
  in.fch1_mhz = 1500.0;
  in.foff_mhz = -2.0;
  in.tsamp_s = 256e-6;
  in.hi_dm = hi_dm;
  return in;
}

}  // namespace

// By hand, k = 1/2.41e-4, band 1246-1500 MHz, centre 1373 MHz:
//   channel smearing per unit DM = 2 k 2 / 1373^3 = 6.4126 us, so it reaches two samples
//   (512 us) at DM 79.84 and two 512 us samples at DM 159.7;
//   step smearing per unit DM = k/2 (1246^-2 - 1500^-2) = 414.26 us.
//   DM 0, downsamp 1: floor 256 us -> step <= 0.618 -> 0.5; 0 .. 79.84 -> 160 trials to 79.5.
//   DM 80, downsamp 2: floor sqrt(512^2 + 513^2) = 724.8 us -> step <= 1.75 -> 1; 80 .. 100
//   -> 21 trials.
TEST(DmPlanner, MatchesAHandComputedPlan) {
  const auto ranges = rapt::plan_dm_ranges(golden_observation(100.0));
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_DOUBLE_EQ(ranges[0].lo_dm, 0.0);
  EXPECT_DOUBLE_EQ(ranges[0].dm_step, 0.5);
  EXPECT_EQ(ranges[0].ndms, 160);
  EXPECT_EQ(ranges[0].downsamp, 1);
  EXPECT_NEAR(ranges[0].smearing_s, 256e-6, 1e-12);
  EXPECT_DOUBLE_EQ(ranges[1].lo_dm, 80.0);
  EXPECT_DOUBLE_EQ(ranges[1].dm_step, 1.0);
  EXPECT_EQ(ranges[1].ndms, 21);
  EXPECT_EQ(ranges[1].downsamp, 2);
  EXPECT_NEAR(ranges[1].smearing_s, 724.79e-6, 0.01e-6);
  EXPECT_DOUBLE_EQ(ranges[1].dms().back(), 100.0);
}

TEST(DmPlanner, RangesAreContiguousCoverTheRangeAndKeepStepSmearingWithinTolerance) {
  for (double tolerance : {0.5, 1.0, 2.0}) {
    rapt::DmPlannerInput in = golden_observation(3000.0);
    in.lo_dm = 3.0;
    in.tolerance = tolerance;
    in.max_downsamp = 16;
    const auto ranges = rapt::plan_dm_ranges(in);
    ASSERT_FALSE(ranges.empty());
    EXPECT_DOUBLE_EQ(ranges.front().lo_dm, 3.0);
    EXPECT_GE(ranges.back().dms().back(), 3000.0);
    EXPECT_LT(ranges.back().dms().back() - ranges.back().dm_step, 3000.0);
    for (size_t i = 0; i < ranges.size(); ++i) {
      const auto& r = ranges[i];
      EXPECT_LE(rapt::step_smearing_s(in, r.dm_step), tolerance * r.smearing_s * (1 + 1e-9));
      EXPECT_LE(r.downsamp, 16);
      EXPECT_EQ(r.downsamp & (r.downsamp - 1), 0);
      if (i == 0) continue;
      EXPECT_NEAR(r.lo_dm, ranges[i - 1].hi_dm(), 1e-6);
      EXPECT_GE(r.downsamp, ranges[i - 1].downsamp);
      EXPECT_GE(r.dm_step, ranges[i - 1].dm_step);
    }
  }
}

TEST(DmPlanner, ASingleDmGivesOneTrial) {
  rapt::DmPlannerInput in = golden_observation(10.0);
  in.lo_dm = 10.0;
  const auto ranges = rapt::plan_dm_ranges(in);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].ndms, 1);
  EXPECT_DOUBLE_EQ(ranges[0].lo_dm, 10.0);
}

TEST(DmPlanner, PrintsOneTableLinePerRange) {
  const rapt::DmPlannerInput in = golden_observation(100.0);
  const std::string table = rapt::format_dm_plan(in, rapt::plan_dm_ranges(in));
  EXPECT_NE(table.find("  First DM     Last DM      dDM  DownSamp     #DMs  Smearing (ms)\n"
                       "     0.000      79.500      0.5         1      160         0.2560\n"
                       "    80.000     100.000        1         2       21         0.7248\n"
                       "Total: 181 DM trials; work 170.5 full-resolution trials (94.2% of 181)\n"),
            std::string::npos)
      << table;
}

TEST(DmPlanner, RefusesAnUpsideDownRange) {
  rapt::DmPlannerInput in = golden_observation(10.0);
  in.lo_dm = 20.0;
  try {
    rapt::plan_dm_ranges(in);
    FAIL() << "expected an error";
  } catch (const rapt::UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "DM plan: the largest DM (10) is below the smallest (20)");
  }
}

TEST(DmPlanner, RefusesADownsamplingLimitThatIsNotAPowerOfTwo) {
  rapt::DmPlannerInput in = golden_observation(10.0);
  in.max_downsamp = 12;
  EXPECT_THROW(rapt::plan_dm_ranges(in), rapt::UsageError);
}
