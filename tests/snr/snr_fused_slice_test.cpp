// A slice of the fused plan's DM list (--part, or one GPU's share) holds exactly the whole
// list's DMs, bit for bit, so the parts name and dedisperse their trials as the whole run does.
#include <gtest/gtest.h>

#include <vector>

#include "snr/fused_search.hpp"

namespace rapt {
namespace {

TEST(SnrFusedSlice, ASliceHoldsTheWholeListsDms) {
  FusedDedispPlan plan{"obs.fil", 1.3, 0.7, 10, "cpu", 0};
  const std::vector<double> whole = fused_dms(plan);
  ASSERT_EQ(whole.size(), 10u);
  plan.first_trial = 3;
  plan.trial_count = 4;
  EXPECT_EQ(fused_dms(plan), std::vector<double>(whole.begin() + 3, whole.begin() + 7));
  plan.trial_count = 0;  // to the end
  EXPECT_EQ(fused_dms(plan), std::vector<double>(whole.begin() + 3, whole.end()));
  plan.first_trial = 8;
  plan.trial_count = 5;  // cut at the end
  EXPECT_EQ(fused_dms(plan), std::vector<double>(whole.begin() + 8, whole.end()));
}

}  // namespace
}  // namespace rapt
