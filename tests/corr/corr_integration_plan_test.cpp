// Integration boundaries: blocks end at every integration end and are never
// longer than the gulp, so the same samples land in the same integration whatever --gulp is;
// integration lengths from --tint or --nint; integration times at the mean of their samples.
#include "corr/integration_plan.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <vector>

namespace rapt {
namespace {

// The block ends a plan gives from sample 0 to `total`.
std::vector<int64_t> block_ends(const IntegrationPlan& plan, int64_t total) {
  std::vector<int64_t> ends;
  for (int64_t pos = 0; pos < total;) {
    pos += std::min(plan.block_size(pos), total - pos);
    ends.push_back(pos);
  }
  return ends;
}

TEST(CorrIntegrationPlan, BlocksEndAtIntegrationEndsWithinTheGulp) {
  for (int64_t gulp : {1, 7, 10, 64, 1000}) {
    IntegrationPlan plan;
    plan.nint = 10;
    plan.gulp = gulp;
    plan.validate();
    const std::vector<int64_t> ends = block_ends(plan, 103);
    const std::set<int64_t> end_set(ends.begin(), ends.end());
    for (int64_t b = 10; b <= 100; b += 10) EXPECT_TRUE(end_set.count(b)) << "gulp " << gulp << ": no block ends at " << b;
    EXPECT_EQ(ends.back(), 103);
    int64_t previous = 0;
    for (int64_t e : ends) {
      EXPECT_LE(e - previous, gulp);
      EXPECT_EQ(previous / 10, (e - 1) / 10) << "a block crosses an integration end";
      previous = e;
    }
  }
}

TEST(CorrIntegrationPlan, BlocksAreWholeIntegrationsOrGulps) {
  IntegrationPlan plan;
  plan.nint = 1000;
  plan.gulp = 300;
  EXPECT_EQ(block_ends(plan, 1000), (std::vector<int64_t>{300, 600, 900, 1000}));
  plan.gulp = 5000;
  EXPECT_EQ(block_ends(plan, 2500), (std::vector<int64_t>{1000, 2000, 2500}));
}

TEST(CorrIntegrationPlan, RefusesEmptySizes) {
  IntegrationPlan plan;
  plan.nint = 0;
  EXPECT_THROW(plan.validate(), std::invalid_argument);
}

TEST(CorrIntegrationPlan, SamplesPerIntegrationRoundToTheNearestSample) {
  EXPECT_EQ(samples_per_integration(1.0, 0, 1e-3), 1000);
  EXPECT_EQ(samples_per_integration(1.0, 0, 0.3), 3);       // 3.33
  EXPECT_EQ(samples_per_integration(1.0, 0, 0.4), 3);       // 2.5 rounds away from zero
  EXPECT_EQ(samples_per_integration(1e-6, 0, 8e-6), 1);     // at least one
  EXPECT_EQ(samples_per_integration(1.0, 77, 1e-3), 77);    // --nint wins
}

TEST(CorrIntegrationPlan, TheTimeOfAnIntegrationIsTheMeanOfItsSamples) {
  const UtcInstant start{60000, 100.0};
  const UtcInstant mid = integration_midpoint(start, 0.5, 10, 4);  // samples 10..13 at 105..106.5
  EXPECT_EQ(mid.mjd_day, 60000);
  EXPECT_DOUBLE_EQ(mid.seconds, 105.75);
  EXPECT_DOUBLE_EQ(integration_midpoint(start, 0.5, 0, 1).seconds, 100.0);
}

}  // namespace
}  // namespace rapt
