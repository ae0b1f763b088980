// Friends-of-friends clustering: the DM-smeared family of one pulse becomes one candidate at
// the right DM; unrelated events stay apart.
#include <gtest/gtest.h>

#include <cmath>

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
