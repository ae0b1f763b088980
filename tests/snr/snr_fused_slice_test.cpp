// A slice of the fused plan's DM list (--part, or one GPU's share) holds exactly the whole
// list's DMs, bit for bit, so the parts name and dedisperse their trials as the whole run does;
// a DM plan's ranges are sliced across their bounds, and described as they are dedispersed.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/errors.hpp"
#include "snr/fused_search.hpp"
#include "snr_test_support.hpp"

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

TEST(SnrFusedSlice, APlansSliceKeepsEachTrialsDownsampling) {
  FusedDedispPlan plan{"obs.fil", 0.0, 1.0, 0, "cpu", 0};
  plan.groups = {{{10.0, 11.0, 12.0}, 1}, {{13.0, 15.0}, 2}, {{17.0, 21.0, 25.0}, 2},
                 {{29.0}, 4}};
  EXPECT_EQ(fused_trial_count(plan), 9u);
  EXPECT_EQ(fused_dms(plan), (std::vector<double>{10, 11, 12, 13, 15, 17, 21, 25, 29}));
  plan.first_trial = 2;
  plan.trial_count = 6;  // 12 | 13 15 17 21 25 (one downsampling: one group)
  const std::vector<DmTrialGroup> slice = fused_groups(plan);
  ASSERT_EQ(slice.size(), 2u);
  EXPECT_EQ(slice[0].downsamp, 1);
  EXPECT_EQ(slice[0].dms, std::vector<double>{12.0});
  EXPECT_EQ(slice[1].downsamp, 2);
  EXPECT_EQ(slice[1].dms, (std::vector<double>{13, 15, 17, 21, 25}));
  plan.first_trial = 8;
  plan.trial_count = 0;
  ASSERT_EQ(fused_groups(plan).size(), 1u);
  EXPECT_EQ(fused_groups(plan)[0].downsamp, 4);
  plan.groups[1].dms.clear();
  EXPECT_THROW(fused_groups(plan), UsageError);
}

// The GPU-resident search sizes its rows from the description alone: it must give each
// downsampled trial the length, usable samples and sampling time dedispersion gives it.
TEST(SnrFusedSlice, APlansSeriesAreDescribedAsTheyAreDedispersed) {
  char dir[] = "/tmp/rapt_fused_plan_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/obs.fil";
  const SigprocHeader h = testing::test_header(32, 1e-3, 1400.0, -4.0);
  testing::write_filterbank(path, h,
                            testing::noise_with_pulses(h, 6001, 96.0f, 12.0f, 3, {{2.0, 50.0, 4, 20.0f}}));
  FusedDedispPlan plan{path, 0.0, 1.0, 0, "cpu", 1};
  plan.groups = {{{0.0, 40.0}, 1}, {{80.0, 120.0}, 2}, {{200.0, 300.0}, 4}, {{400.0}, 8}};
  const std::vector<SeriesInput> made = dedisperse_in_memory(plan);
  const std::vector<SeriesInput> described = describe_fused_series(plan);
  ASSERT_EQ(made.size(), 7u);
  ASSERT_EQ(described.size(), made.size());
  for (size_t i = 0; i < made.size(); ++i) {
    SCOPED_TRACE("DM " + std::to_string(made[i].dm));
    EXPECT_EQ(described[i].path, made[i].path);
    EXPECT_EQ(described[i].dt_s, made[i].dt_s);
    EXPECT_EQ(described[i].total_samples, made[i].total_samples);
    EXPECT_EQ(described[i].usable_samples, made[i].usable_samples);
  }
  EXPECT_EQ(made[6].dt_s, 8e-3);
  EXPECT_LT(made[6].total_samples, made[0].total_samples / 7);
  std::remove(path.c_str());
  ::rmdir(dir);
}

}  // namespace
}  // namespace rapt
