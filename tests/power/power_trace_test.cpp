// Energy integration and the recorded-trace reader, against hand-computed numbers and a real
// NVML trace of an RTX A4000.
#include <gtest/gtest.h>

#include <cmath>

#include "cli/errors.hpp"
#include "power/power_report.hpp"
#include "power/power_trace.hpp"
#include "test_data.hpp"

namespace {

rapt::SensorValue watts(double w) {
  rapt::SensorValue value;
  value.watts = w;
  return value;
}

TEST(EnergyIntegrator, IntegratesWattsWithTheTrapezoidRule) {
  rapt::EnergyIntegrator integrator({{"gpu", false}});
  // 0 s: 10 W, 1 s: 30 W, 3 s: 30 W, 3.5 s: 10 W
  // trapezoids: (10+30)/2*1 + 30*2 + (30+10)/2*0.5 = 20 + 60 + 10 = 90 J
  integrator.sample(0.0, {watts(10)});
  integrator.sample(1.0, {watts(30)});
  integrator.sample(3.0, {watts(30)});
  integrator.sample(3.5, {watts(10)});
  const rapt::SensorSummary s = integrator.summaries().at(0);
  EXPECT_DOUBLE_EQ(s.energy_j, 90.0);
  EXPECT_DOUBLE_EQ(s.duration_s, 3.5);
  EXPECT_DOUBLE_EQ(s.mean_w, 90.0 / 3.5);
  EXPECT_DOUBLE_EQ(s.peak_w, 30.0);
  EXPECT_EQ(s.samples, 4);
  EXPECT_FALSE(s.from_counter);
}

TEST(EnergyIntegrator, PrefersTheMetersCounterOverIntegratedWatts) {
  rapt::EnergyIntegrator integrator({{"pkg", true}});
  rapt::SensorValue a = watts(100), b = watts(100);
  a.joules = 1000;  // the counter's origin does not matter, only the difference
  b.joules = 1042;
  integrator.sample(0.0, {a});
  integrator.sample(2.0, {b});
  const rapt::SensorSummary s = integrator.summaries().at(0);
  EXPECT_TRUE(s.from_counter);
  EXPECT_DOUBLE_EQ(s.energy_j, 42.0);
  EXPECT_DOUBLE_EQ(s.mean_w, 21.0);
}

TEST(EnergyIntegrator, SkipsSamplesWithoutAValue) {
  rapt::EnergyIntegrator integrator({{"a", false}, {"b", false}});
  integrator.sample(0.0, {watts(NAN), watts(4)});
  integrator.sample(1.0, {watts(2), watts(4)});
  integrator.sample(2.0, {watts(2), watts(4)});
  const std::vector<rapt::SensorSummary> s = integrator.summaries();
  EXPECT_DOUBLE_EQ(s[0].energy_j, 2.0);
  EXPECT_DOUBLE_EQ(s[0].duration_s, 1.0);
  EXPECT_EQ(s[0].samples, 2);
  EXPECT_DOUBLE_EQ(s[1].energy_j, 8.0);
  EXPECT_DOUBLE_EQ(integrator.total_energy_j(), 10.0);
}

TEST(EnergyIntegrator, RecordsTheEnergySoFarAtEachMarker) {
  rapt::EnergyIntegrator integrator({{"a", false}});
  integrator.sample(0.0, {watts(5)});
  integrator.sample(2.0, {watts(5)});
  integrator.marker(2.0, "phase 2");
  ASSERT_EQ(integrator.markers().size(), 1u);
  EXPECT_EQ(integrator.markers()[0].text, "phase 2");
  EXPECT_DOUBLE_EQ(integrator.markers()[0].total_joules, 10.0);
}

TEST(RecordedTrace, ParsesHeaderRowsAndQuotedMarkers) {
  const std::string text =
      "timestamp gpu_instant gpu_average\n"
      "100.0 10 20\n"
      "# a comment\n"
      "M 0.5 \"start\"\n"
      "101.0 30 20\n"
      "102.0 30 40\n";
  const rapt::RecordedTrace trace = rapt::parse_recorded_trace(text, "t.log");
  ASSERT_EQ(trace.sensors.size(), 2u);
  EXPECT_EQ(trace.sensors[1].name, "gpu_average");
  ASSERT_EQ(trace.times_s.size(), 3u);
  EXPECT_DOUBLE_EQ(trace.times_s[2], 2.0);
  ASSERT_EQ(trace.markers.size(), 1u);
  EXPECT_EQ(trace.markers[0].second, "start");
  rapt::EnergyIntegrator integrator(trace.sensors);
  rapt::replay_trace(trace, integrator);
  // gpu_instant: (10+30)/2 + 30 = 50 J; gpu_average: 20 + 30 = 50 J
  EXPECT_DOUBLE_EQ(integrator.summaries()[0].energy_j, 50.0);
  EXPECT_DOUBLE_EQ(integrator.summaries()[1].energy_j, 50.0);
  // At 0.5 s, halfway from 10 W to 30 W: 0.5 s x (10 + 20) / 2 W, not the first row's 0 J.
  EXPECT_DOUBLE_EQ(integrator.markers()[0].total_joules, 7.5);
  // Two readings of one GPU: the average is reported, and the total is the GPU's energy once.
  EXPECT_TRUE(trace.sensors[0].in_total);
  EXPECT_FALSE(trace.sensors[1].in_total);
  EXPECT_FALSE(integrator.summaries()[1].in_total);
  EXPECT_DOUBLE_EQ(integrator.total_energy_j(), 50.0);
  // Sensors of different devices all count.
  const rapt::RecordedTrace two = rapt::parse_recorded_trace("t gpu0 gpu1_average\n0 1 2\n", "t.log");
  EXPECT_TRUE(two.sensors[0].in_total);
  EXPECT_TRUE(two.sensors[1].in_total);
}

TEST(EnergyIntegrator, GivesAMarkerBetweenRowsTheEnergyUpToItsTime) {
  rapt::EnergyIntegrator integrator({{"a", false}, {"b", true}});
  auto reading = [](double w, double j) {
    rapt::SensorValue v;
    v.watts = w;
    v.joules = j;
    return v;
  };
  integrator.sample(0.0, {reading(100, NAN), reading(4, 0)});
  integrator.sample(1.0, {reading(100, NAN), reading(4, 4)});
  integrator.marker(1.25, "between");
  integrator.sample(2.0, {reading(100, NAN), reading(4, 8)});
  integrator.marker(3.0, "after the end");
  ASSERT_EQ(integrator.markers().size(), 2u);
  // a: 125 J of integrated watts; b: its counter at 1.25 s, 5 J.
  EXPECT_DOUBLE_EQ(integrator.markers()[0].total_joules, 130.0);
  EXPECT_DOUBLE_EQ(integrator.markers()[1].total_joules, 208.0);  // as far as the trace goes
  EXPECT_DOUBLE_EQ(integrator.total_energy_j(), 208.0);
}

TEST(RecordedTrace, RefusesRowsThatGoBackInTime) {
  try {
    rapt::parse_recorded_trace("t a\n10 5\n12 5\n11 5\n", "t.log");
    FAIL() << "a row earlier than the one before was accepted";
  } catch (const rapt::DataError& e) {
    EXPECT_STREQ(e.what(), "t.log: line 4: time 11 is earlier than the row before");
  }
  // Two rows at the same time (a coarse clock) are kept.
  const rapt::RecordedTrace same = rapt::parse_recorded_trace("t a\n10 5\n10 5\n11 5\n", "t.log");
  EXPECT_EQ(same.times_s.size(), 3u);
}

// Powers no meter reads are refused by line, in either kind of trace: beyond a megawatt, or
// spelt out as infinite or not a number in a CSV cell (an empty cell is a reading not taken).
TEST(RecordedTrace, RefusesPowersNoMeterReads) {
  const auto message = [](const std::string& text) {
    try {
      rapt::parse_recorded_trace(text, "t.log");
    } catch (const rapt::DataError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("t a\n10 5\n11 2e6\n"),
            "t.log: line 3: power 2e+06 W is beyond any meter's (1e6 W)");
  EXPECT_EQ(message("time_s,a_W,marker\n0,5,\n1,inf,\n"), "t.log: line 3: not a number: 1,inf,");
  EXPECT_EQ(message("time_s,a_W,marker\n0,5,\nnan,5,\n"), "t.log: line 3: not a number: nan,5,");
  EXPECT_EQ(rapt::parse_recorded_trace("time_s,a_W,marker\n0,5,\n1,,\n", "t.log").times_s.size(),
            2u);
}

TEST(RecordedTrace, NamesTheLineOfAShortRow) {
  try {
    rapt::parse_recorded_trace("t a b\n1 2 3\n2 5\n", "t.log");
    FAIL() << "a short row was accepted";
  } catch (const rapt::DataError& e) {
    EXPECT_STREQ(e.what(), "t.log: line 3: expected 2 power values");
  }
  EXPECT_THROW(rapt::parse_recorded_trace("t a\n", "t.log"), rapt::DataError);
}

// The real PMT log: 630 rows at ~60 ms, four start/end marker pairs around GPU work.
TEST(RecordedTrace, IntegratesTheRecordedA4000TraceLikeASumByHand) {
  RAPT_REQUIRE_SHARED_FILE(path, "powersensor3-results/pmt-nvml_ad4000.log");
  const rapt::RecordedTrace trace =
      rapt::parse_recorded_trace(rapt::testing::read_whole_file(path), path);
  ASSERT_EQ(trace.sensors.size(), 2u);
  EXPECT_EQ(trace.sensors[0].name, "gpu_instant");
  ASSERT_EQ(trace.times_s.size(), 630u);
  ASSERT_EQ(trace.markers.size(), 8u);
  EXPECT_EQ(trace.markers[0].second, "start");
  EXPECT_EQ(trace.markers[7].second, "end");
  // Independent sum: trapezoids over the rows, written out here.
  double by_hand_j = 0, peak_w = 0;
  for (size_t i = 1; i < trace.times_s.size(); ++i) {
    by_hand_j += (trace.watts[i][0] + trace.watts[i - 1][0]) / 2 *
                 (trace.times_s[i] - trace.times_s[i - 1]);
  }
  for (const auto& row : trace.watts) peak_w = std::max(peak_w, row[0]);
  rapt::EnergyIntegrator integrator(trace.sensors);
  rapt::replay_trace(trace, integrator);
  const rapt::SensorSummary instant = integrator.summaries()[0];
  EXPECT_NEAR(instant.energy_j, by_hand_j, 1e-9 * by_hand_j);
  EXPECT_NEAR(integrator.total_energy_j(), by_hand_j, 1e-9 * by_hand_j);  // one GPU, counted once
  EXPECT_DOUBLE_EQ(instant.peak_w, peak_w);
  EXPECT_NEAR(instant.duration_s, 1733935262.824 - 1733935225.009, 1e-6);
  // The card idles near 29 W and works at ~90-125 W in four ~2 s bursts: the mean lies between.
  EXPECT_GT(instant.mean_w, 35.0);
  EXPECT_LT(instant.mean_w, 60.0);
  // Each start..end phase uses more energy per second than the whole-run mean.
  const auto& markers = integrator.markers();
  for (size_t m = 0; m + 1 < markers.size(); m += 2) {
    const double phase_w = (markers[m + 1].total_joules - markers[m].total_joules) /
                           (markers[m + 1].time_s - markers[m].time_s);
    EXPECT_GT(phase_w, integrator.total_energy_j() / integrator.duration_s()) << m;
  }
}

}  // namespace
