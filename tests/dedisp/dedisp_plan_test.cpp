#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "dedisp/dedisp_plan.hpp"

namespace {

// Four channels at 1500, 1400, 1300, 1200 MHz (descending, as SIGPROC stores them), 1 ms.
rapt::DedispPlan four_channel_plan() {
  rapt::DedispPlan plan;
  plan.nchans = 4;
  plan.fch1_mhz = 1500.0;
  plan.foff_mhz = -100.0;
  plan.tsamp_s = 1e-3;
  plan.dms = {0.0, 100.0};
  return plan;
}

std::string usage_error_of(const rapt::DedispPlan& plan) {
  try {
    plan.validate();
  } catch (const rapt::UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

// Hand-computed: delay = DM / 2.41e-4 * (1/f^2 - 1/1500^2) s at DM 100:
//   1400 MHz: 414937.76 * (5.1020408e-7 - 4.4444444e-7) = 27.2862 ms -> 27 samples
//   1300 MHz: 414937.76 * (5.9171598e-7 - 4.4444444e-7) = 61.1085 ms -> 61 samples
//   1200 MHz: 414937.76 * (6.9444444e-7 - 4.4444444e-7) = 103.734 ms -> 104 samples (not 103:
//   rounded to nearest, as PRESTO does)
TEST(DedispPlan, DelayTableEqualsHandComputedPrestoDelays) {
  const rapt::DedispPlan plan = four_channel_plan();
  EXPECT_NEAR(plan.delay_s(1, 100.0), 0.0272862, 1e-7);
  EXPECT_NEAR(plan.delay_s(2, 100.0), 0.0611085, 1e-7);
  EXPECT_NEAR(plan.delay_s(3, 100.0), 0.1037344, 1e-7);
  const std::vector<int32_t> expected{0, 0, 0, 0, 0, 27, 61, 104};
  EXPECT_EQ(plan.delay_table(), expected);
  EXPECT_EQ(plan.max_delay_samples(), 104);
}

TEST(DedispPlan, DelaysReferToTheTopChannelWhateverTheChannelOrder) {
  rapt::DedispPlan plan = four_channel_plan();
  plan.fch1_mhz = 1200.0;
  plan.foff_mhz = 100.0;  // channel 0 is now the lowest frequency
  EXPECT_DOUBLE_EQ(plan.top_freq_mhz(), 1500.0);
  const std::vector<int32_t> expected{0, 0, 0, 0, 104, 61, 27, 0};
  EXPECT_EQ(plan.delay_table(), expected);
}

// 4148.808 instead of 1/2.41e-4 at DM 1000 and 100 us: 10372.02 vs 10373.44 samples.
TEST(DedispPlan, DispersionConstantCanBeOverridden) {
  rapt::DedispPlan plan = four_channel_plan();
  plan.tsamp_s = 100e-6;
  plan.dms = {1000.0};
  EXPECT_EQ(plan.delay_samples(3, 1000.0), 10373);
  plan.dm_const = rapt::kDispersionConstantSigproc;
  EXPECT_EQ(plan.delay_samples(3, 1000.0), 10372);
}

TEST(DedispPlan, MaxDelayIgnoresZappedChannels) {
  rapt::DedispPlan plan = four_channel_plan();
  plan.zapped = {false, false, false, true};
  EXPECT_EQ(plan.max_delay_samples(), 61);
}

// The delays round without std::floor, and the tables take each channel's factor once: every
// entry must still be PRESTO's rounding of delay_s, and the maxima its maxima, in either
// channel order, over 401 DMs x 1024 channels with some channels zapped.
TEST(DedispPlan, TablesAndMaximaEqualDelaySamplesEverywhere) {
  for (const double foff : {-0.29296875, 0.29296875}) {
    rapt::DedispPlan plan;
    plan.nchans = 1024;
    plan.fch1_mhz = foff < 0 ? 1550.0 : 1250.0;
    plan.foff_mhz = foff;
    plan.tsamp_s = 5e-5;
    for (int i = 0; i < 400; ++i) plan.dms.push_back(0.25 * i + (i % 3) * 1e-7);
    plan.dms.push_back(1e4 / 3.0);
    plan.zapped.assign(size_t(plan.nchans), false);
    for (int c = 0; c < plan.nchans; c += 7) plan.zapped[size_t(c)] = true;
    const std::vector<int32_t> table = plan.delay_table();
    ASSERT_EQ(table.size(), plan.dms.size() * size_t(plan.nchans));
    int32_t largest = 0;
    for (size_t d = 0; d < plan.dms.size(); ++d) {
      int32_t trial = 0;
      for (int c = 0; c < plan.nchans; ++c) {
        // PRESTO's rounding of the delay in seconds, with std::floor as it is written.
        const int32_t want =
            int32_t(std::floor(plan.delay_s(c, plan.dms[d]) / plan.tsamp_s + 0.5));
        ASSERT_EQ(plan.delay_samples(c, plan.dms[d]), want);
        ASSERT_EQ(table[d * size_t(plan.nchans) + size_t(c)], want)
            << "DM " << plan.dms[d] << ", channel " << c;
        if (!plan.zapped[size_t(c)]) trial = std::max(trial, want);
      }
      EXPECT_EQ(plan.trial_delay_samples(plan.dms[d]), trial) << "DM " << plan.dms[d];
      largest = std::max(largest, trial);
    }
    EXPECT_EQ(plan.max_delay_samples(), largest);
    EXPECT_GT(largest, 10000);
  }
}

TEST(DedispPlan, RejectsAnEmptyDmList) {
  rapt::DedispPlan plan = four_channel_plan();
  plan.dms.clear();
  EXPECT_EQ(usage_error_of(plan), "no DM trials: the DM list is empty");
}

TEST(DedispPlan, RejectsANegativeDm) {
  rapt::DedispPlan plan = four_channel_plan();
  plan.dms = {10.0, -1.5};
  EXPECT_EQ(usage_error_of(plan), "DM trial -1.5 is negative; DMs must be >= 0");
}

TEST(DedispPlan, RejectsAChannelMaskOfTheWrongSize) {
  rapt::DedispPlan plan = four_channel_plan();
  plan.zapped = {false, true};
  EXPECT_EQ(usage_error_of(plan), "channel mask has 2 entries but the data have 4 channels");
}

TEST(DedispPlan, RejectsNonsenseLayouts) {
  rapt::DedispPlan plan = four_channel_plan();
  plan.downsamp = 0;
  EXPECT_EQ(usage_error_of(plan),
            "dedispersion plan: downsampling factor must be >= 1 (got 0)");
  plan = four_channel_plan();
  plan.tsamp_s = 0.0;
  EXPECT_EQ(usage_error_of(plan), "dedispersion plan: sampling time must be > 0 s (got 0)");
  plan = four_channel_plan();
  plan.foff_mhz = -600.0;
  EXPECT_EQ(usage_error_of(plan),
            "dedispersion plan: channel frequencies must be > 0 MHz (lowest is -300 MHz)");
  EXPECT_EQ(usage_error_of(four_channel_plan()), "(no error)");
}
