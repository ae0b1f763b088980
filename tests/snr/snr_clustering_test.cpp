// Friends-of-friends clustering: the DM-smeared family of one pulse becomes one candidate at
// the right DM; unrelated events stay apart.
#include <gtest/gtest.h>

#include <cmath>

#include "cli/errors.hpp"
#include "snr/candidate_clustering.hpp"

namespace rapt {
namespace {

SinglePulseEvent event(double dm, int64_t sample, int width, double snr) {
  SinglePulseEvent e;
  e.dm = dm;
  e.sample = sample;
  e.time_s = double(sample) * 1e-3;
  e.downfact = width;
  e.sigma = snr;
  return e;
}

TEST(CandidateClustering, MergesTheDmSmearedFamilyOfOnePulseAtTheRightDm) {
  std::vector<double> dms;
  for (int i = 0; i <= 100; ++i) dms.push_back(2.0 * i);
  std::vector<SinglePulseEvent> events;
  // A pulse at DM 120, sample 50000: away from it the width grows, the S/N falls and the
  // arrival drifts by half the smearing.
  for (int k = -25; k <= 25; ++k) {
    const double dm = 120.0 + 2.0 * k;
    const int width = 4 + 3 * std::abs(k);
    const double snr = 40.0 / std::sqrt(1.0 + std::abs(k) * 0.75);
    if (snr < 6.0) continue;
    events.push_back(event(dm, 50000 + k * 3 / 2, width, snr));
  }
  const size_t family = events.size();
  events.push_back(event(40.0, 10000, 2, 6.1));   // noise, elsewhere in time
  events.push_back(event(118.0, 51000, 1, 5.5));  // noise, same DM, 1000 samples later
  events.push_back(event(190.0, 50000, 3, 5.8));  // same time, far in DM
  const auto cands = cluster_events(events, dms, ClusterSettings{});
  ASSERT_EQ(cands.size(), 4u);
  const PulseCandidate* pulse = nullptr;
  for (const auto& c : cands)
    if (c.members > 1) pulse = &c;
  ASSERT_NE(pulse, nullptr);
  EXPECT_EQ(pulse->members, int64_t(family));
  EXPECT_DOUBLE_EQ(pulse->best.dm, 120.0);
  EXPECT_EQ(pulse->best.sample, 50000);
  EXPECT_EQ(pulse->best.downfact, 4);
  EXPECT_NEAR(pulse->best.sigma, 40.0, 1e-12);
  EXPECT_EQ(cands.front().best.sample, 10000);  // sorted by time
}

// A DM plan's downsampled range counts samples twice as long: its events meet the finer
// range's on the finest samples only, and each candidate keeps its own series' numbers.
TEST(CandidateClustering, JoinsSeriesOfSeveralSamplingTimesOnTheFinestSamples) {
  const std::vector<double> dms = {62, 63, 64};
  // DMs 62 and 63 at 1 ms, 64 at 2 ms (scale 2): one pulse at 30.000 s in all three, and a
  // weak event at 15.000 s at DM 63.
  const std::vector<SinglePulseEvent> events = {event(62, 30000, 4, 9.0), event(63, 30001, 4, 8.0),
                                                event(64, 15000, 2, 12.0), event(63, 15000, 2, 6.5)};
  const std::vector<int> scales = {1, 1, 2, 1};
  const auto joined = cluster_events(events, dms, ClusterSettings{}, scales);
  ASSERT_EQ(joined.size(), 2u);
  EXPECT_DOUBLE_EQ(joined[0].best.dm, 63.0);  // 15 s first (finest samples 15000 < 30000)
  EXPECT_EQ(joined[0].members, 1);
  EXPECT_DOUBLE_EQ(joined[1].best.dm, 64.0);
  EXPECT_EQ(joined[1].best.sample, 15000);  // as the 2 ms series numbers it
  EXPECT_EQ(joined[1].best.downfact, 2);
  EXPECT_EQ(joined[1].members, 3);
  // Without the scales DM 64's event would join the one at 15 s and leave the pulse.
  const auto unscaled = cluster_events(events, dms, ClusterSettings{});
  ASSERT_EQ(unscaled.size(), 2u);
  EXPECT_EQ(unscaled[0].members, 2);
  EXPECT_EQ(unscaled[1].members, 2);
  // All at scale 1: the same as no scales.
  EXPECT_EQ(format_candidates(cluster_events(events, dms, ClusterSettings{}, {1, 1, 1, 1})),
            format_candidates(unscaled));
}

// One DM searched at two sampling times, the two events equal in S/N, DM and time: the finer
// series' event is the stronger whatever the order (snr and sift read them in other orders).
TEST(CandidateClustering, PrefersTheFinerSeriesOnATie) {
  const std::vector<SinglePulseEvent> fine_first = {event(10, 100, 2, 7.0), event(10, 50, 1, 7.0)};
  const std::vector<SinglePulseEvent> coarse_first = {event(10, 50, 1, 7.0), event(10, 100, 2, 7.0)};
  const auto a = cluster_events(fine_first, {10}, ClusterSettings{}, {1, 2});
  const auto b = cluster_events(coarse_first, {10}, ClusterSettings{}, {2, 1});
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].best.sample, 100);
  EXPECT_EQ(b[0].best.sample, 100);
  EXPECT_EQ(format_candidates(a), format_candidates(b));
}

// Widths and samples on the finest samples may pass an int: a million times 3000 samples.
TEST(CandidateClustering, JoinsEventsOfAMillionFoldCoarserSeries) {
  const std::vector<SinglePulseEvent> events = {event(10, 3000, 3000, 9.0), event(11, 3000, 3000, 8.0),
                                                event(12, 3000, 3000, 7.0)};
  const auto c = cluster_events(events, {10, 11, 12}, ClusterSettings{}, {1000000, 1000000, 1000000});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].members, 3);
}

TEST(CandidateClustering, ScalesSamplingTimesToTheFinest) {
  EXPECT_EQ(finest_sample_scales({2e-3, 1e-3, 4e-3, 1e-3 * (1 + 1e-9)}, {"a", "b", "c", "d"}),
            (std::vector<int>{2, 1, 4, 1}));
  EXPECT_EQ(finest_sample_scales({}, {}), std::vector<int>{});
  // A sampling time known to 1e-3 (told by a file's events) may be that far from a multiple.
  EXPECT_EQ(finest_sample_scales({1e-3, 2.001e-3}, {"a", "b"}, {1e-6, 1e-3}),
            (std::vector<int>{1, 2}));
  EXPECT_THROW(finest_sample_scales({1e-3, 2.001e-3}, {"a", "b"}), DataError);
  EXPECT_THROW(finest_sample_scales({1e-9, 1e-2}, {"a", "b"}), DataError);  // 1e7 times
  try {
    finest_sample_scales({1e-3, 1.5e-3}, {"a.dat", "b.dat"});
    FAIL() << "expected an error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "b.dat: sampling time 0.0015 s is not a whole multiple of a.dat's 0.001 s: their "
              "samples have no common time base");
  }
}

// The starts may spread over half the finest sample at most, however they lie about the first.
TEST(CandidateClustering, ChecksThatTheSeriesStartTogether) {
  const double sample_days = 1e-3 / 86400.0;
  EXPECT_NO_THROW(check_common_start({60000.0, 60000.0 + 0.4 * sample_days, 0.0}, {"a", "b", "c"}, 1e-3));
  EXPECT_THROW(check_common_start({60000.0, 60000.0 + 0.4 * sample_days, 60000.0 - 0.4 * sample_days},
                                  {"a", "b", "c"}, 1e-3),
               DataError);
  try {
    check_common_start({60000.0 + 1.0 / 86400.0, 0.0, 60000.0}, {"late", "unknown", "early"}, 1e-3);
    FAIL() << "expected an error";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("late: starts 1 s after early"), std::string::npos)
        << e.what();
  }
}

TEST(CandidateClustering, KeepsEventsApartBeyondTheDmLink) {
  const std::vector<double> dms = {0, 1, 2, 3, 4, 5};
  const std::vector<SinglePulseEvent> events = {event(0, 100, 1, 7), event(3, 100, 1, 8)};
  ClusterSettings settings;
  settings.dm_trials = 2;
  EXPECT_EQ(cluster_events(events, dms, settings).size(), 2u);
  settings.dm_trials = 3;
  EXPECT_EQ(cluster_events(events, dms, settings).size(), 1u);
}

TEST(CandidateClustering, HonoursTheWidthRatio) {
  const std::vector<double> dms = {10};
  const std::vector<SinglePulseEvent> events = {event(10, 100, 1, 7), event(10, 110, 30, 8)};
  ClusterSettings settings;
  EXPECT_EQ(cluster_events(events, dms, settings).size(), 1u);
  settings.width_ratio = 4.0;
  EXPECT_EQ(cluster_events(events, dms, settings).size(), 2u);
}

TEST(CandidateClustering, FormatsOneLinePerCandidate) {
  PulseCandidate c;
  c.best = event(56.0, 683, 9, 7.95);
  c.members = 12;
  EXPECT_EQ(format_candidates({c}),
            "#      DM      Time(s)     Sample  Width      S/N  Members\n"
            "   56.000     0.683000        683      9     7.95       12\n");
}

}  // namespace
}  // namespace rapt
