// From hits to PRESTO's event list: local maxima within each width, across widths, bad blocks
// and off regions.
#include <gtest/gtest.h>

#include "snr/single_pulse_events.hpp"

namespace rapt {
namespace {

TEST(SinglePulseEvents, KeepsTheStrongestHitWithinHalfAWidth) {
  const std::vector<BoxcarHit> hits = {
      {0, 0, 100, 6.0f}, {0, 0, 102, 7.0f}, {0, 0, 104, 6.5f}, {0, 0, 120, 5.5f}};
  const auto kept = keep_local_maxima(hits, 2);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].sample, 102);
  EXPECT_EQ(kept[1].sample, 120);
}

TEST(SinglePulseEvents, DropsAWeakerEventOfAnotherWidthWithinItsProximity) {
  EventContext context;
  context.dm = 5.0;
  context.dt_s = 0.5;
  const std::vector<int> widths = {1, 2, 9};
  const std::vector<BoxcarHit> hits = {
      {0, 0, 50, 6.0f},  {0, 0, 500, 5.5f}, {0, 1, 51, 6.5f},
      {0, 2, 54, 8.0f},  // width 9 reaches 4 samples: drops 50 and 51
      {0, 2, 300, 5.2f}};
  const auto events = events_from_hits(hits, widths, context);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].sample, 54);
  EXPECT_EQ(events[0].downfact, 9);
  EXPECT_DOUBLE_EQ(events[0].time_s, 27.0);
  EXPECT_EQ(events[1].sample, 300);
  EXPECT_EQ(events[2].sample, 500);
  EXPECT_EQ(events[2].downfact, 1);
  EXPECT_DOUBLE_EQ(events[2].dm, 5.0);
}

TEST(SinglePulseEvents, SkipsBadBlocksAndOffRegions) {
  EventContext context;
  context.dt_s = 1.0;
  context.detrend_len = 100;
  context.bad_blocks = {false, true, false, false};
  context.off_regions = {{300, 310}};
  const std::vector<int> widths = {1, 4};
  const std::vector<BoxcarHit> hits = {
      {0, 0, 20, 6.0f}, {0, 0, 150, 9.0f}, {0, 0, 250, 6.0f}, {0, 1, 299, 7.0f}, {0, 0, 380, 6.0f}};
  const auto events = events_from_hits(hits, widths, context);
  // 150 is in a bad block; 299 +- 2 reaches into the gap (300, 310)
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].sample, 20);
  EXPECT_EQ(events[1].sample, 250);
  EXPECT_EQ(events[2].sample, 380);
}

}  // namespace
}  // namespace rapt
