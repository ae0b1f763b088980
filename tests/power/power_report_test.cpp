// The CSV trace and the JSON and text summaries.
#include <gtest/gtest.h>

#include "power/power_report.hpp"
#include "test_data.hpp"

namespace {

rapt::SensorValue value(double watts, double joules = NAN) {
  rapt::SensorValue v;
  v.watts = watts;
  v.joules = joules;
  return v;
}

TEST(CsvTraceWriter, WritesWattsJoulesAndQuotedMarkerRows) {
  rapt::testing::ScratchDir dir;
  const std::string path = dir.file("trace.csv");
  {
    rapt::CsvTraceWriter csv(path, {{"gpu0", true}, {"ps3.12V", false}}, false);
    csv.sample(0.0, {value(50, 0), value(NAN)});
    csv.marker(0.05, "say \"hi\", twice");
    csv.sample(0.1, {value(52.5, 5.125), value(60)});
    csv.commit();
  }
  EXPECT_EQ(rapt::testing::read_whole_file(path),
            "time_s,gpu0_W,gpu0_J,ps3.12V_W,marker\n"
            "0.000000,50.000000,0.000000,,\n"
            "0.050000,,,,\"say \"\"hi\"\", twice\"\n"
            "0.100000,52.500000,5.125000,60.000000,\n");
}

TEST(CsvTraceWriter, WritesATraceThatReplaysToTheSameEnergies) {
  rapt::testing::ScratchDir dir;
  const std::string path = dir.file("trace.csv");
  const std::vector<rapt::PowerSensorInfo> sensors = {{"gpu0", true}, {"ps3.12V", false}};
  rapt::EnergyIntegrator measured(sensors);
  {
    rapt::CsvTraceWriter csv(path, sensors, false);
    for (rapt::TraceSink* sink : {static_cast<rapt::TraceSink*>(&csv),
                                  static_cast<rapt::TraceSink*>(&measured)}) {
      sink->sample(0.5, {value(50, 100), value(NAN)});
      sink->sample(1.5, {value(52, 151), value(60)});
      sink->marker(1.5, "say \"hi\", twice");
      sink->sample(2.5, {value(54, 204), value(62)});
    }
    csv.commit();
  }
  const rapt::RecordedTrace trace =
      rapt::parse_recorded_trace(rapt::testing::read_whole_file(path), path);
  ASSERT_EQ(trace.sensors.size(), 2u);
  EXPECT_TRUE(trace.sensors[0].has_energy_counter);
  EXPECT_FALSE(trace.sensors[1].has_energy_counter);
  ASSERT_EQ(trace.markers.size(), 1u);
  EXPECT_EQ(trace.markers[0].second, "say \"hi\", twice");
  EXPECT_DOUBLE_EQ(trace.markers[0].first, 1.0);  // times from the first row, as in PMT logs
  rapt::EnergyIntegrator replayed(trace.sensors);
  rapt::replay_trace(trace, replayed);
  EXPECT_TRUE(replayed.summaries()[0].from_counter);
  EXPECT_DOUBLE_EQ(replayed.summaries()[0].energy_j, 104.0);  // the counter, not the watts
  EXPECT_DOUBLE_EQ(replayed.summaries()[1].energy_j, measured.summaries()[1].energy_j);
  EXPECT_DOUBLE_EQ(replayed.total_energy_j(), measured.total_energy_j());
  EXPECT_DOUBLE_EQ(replayed.markers()[0].total_joules, measured.markers()[0].total_joules);
}

TEST(CsvTraceWriter, LeavesNothingBehindWithoutCommit) {
  rapt::testing::ScratchDir dir;
  {
    rapt::CsvTraceWriter csv(dir.file("trace.csv"), {{"a", false}}, false);
    csv.sample(0.0, {value(1)});
  }
  EXPECT_FALSE(rapt::path_exists(dir.file("trace.csv")));
}

TEST(SummaryJson, NamesEverySensorWithEnergyMeanPeakAndTheMarkers) {
  rapt::EnergyIntegrator integrator({{"gpu0", true}, {"cpu", false}});
  integrator.sample(0.0, {value(100, 10), value(20)});
  integrator.sample(1.0, {value(200, 110), value(20)});
  integrator.marker(1.0, "half");  // 100 J + 20 J so far
  integrator.sample(2.0, {value(300, 410), value(40)});
  rapt::RunDescription run;
  run.sources = {"nvml Test GPU"};
  run.interval_ms = 100;
  run.command = {"sleep", "2"};
  run.exit_status = 0;
  const std::string json = rapt::summary_json(run, integrator);
  EXPECT_NE(json.find("\"sources\": [\"nvml Test GPU\"]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"command\": [\"sleep\", \"2\"]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"total_energy_j\": 450,"), std::string::npos) << json;  // 400 + 20 + 30
  EXPECT_NE(json.find("{\"name\": \"gpu0\", \"energy_j\": 400, \"mean_w\": 200, \"peak_w\": 300, "
                      "\"duration_s\": 2, \"samples\": 3, \"energy_from\": \"counter\", "
                      "\"in_total\": true}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"energy_from\": \"integrated power\""), std::string::npos) << json;
  EXPECT_NE(json.find("{\"time_s\": 1.000000, \"text\": \"half\", \"total_energy_j\": 120}"),
            std::string::npos)
      << json;
}

TEST(SummaryJson, WritesNullForAQuantityThatHasNoValue) {
  rapt::EnergyIntegrator integrator({{"a", false}});
  integrator.sample(0.0, {value(NAN)});
  const std::string json = rapt::summary_json(rapt::RunDescription{}, integrator);
  EXPECT_NE(json.find("\"mean_w\": null, \"peak_w\": null"), std::string::npos) << json;
}

TEST(SummaryText, PrintsADashForAMeanOverNoTime) {
  rapt::EnergyIntegrator integrator({{"a", false}});
  integrator.sample(0.0, {value(5)});  // a trace of one row
  const std::string text = rapt::summary_text(rapt::RunDescription{}, integrator);
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  EXPECT_NE(text.find("a                         0.000          -      5.000      0.000"),
            std::string::npos)
      << text;
}

TEST(SummaryText, PrintsOneLinePerSensorAndATotal) {
  rapt::EnergyIntegrator integrator({{"ps3.12V", true}});
  integrator.sample(0.0, {value(60, 0)});
  integrator.sample(1.5, {value(60, 90)});
  rapt::RunDescription run;
  run.sources = {"powersensor3 /dev/ttyACM0"};
  const std::string text = rapt::summary_text(run, integrator);
  EXPECT_NE(text.find("source   powersensor3 /dev/ttyACM0\n"), std::string::npos) << text;
  const std::string row =
      "ps3.12V                  90.000     60.000     60.000      1.500        2\n";
  EXPECT_NE(text.find(row), std::string::npos)
      << text;
  EXPECT_NE(text.find("total                    90.000     60.000"), std::string::npos) << text;
}

TEST(SummaryText, GivesEachMarkerItsPhaseSinceThePreviousOne) {
  rapt::EnergyIntegrator integrator({{"a", false}});
  integrator.sample(0.0, {value(10)});
  integrator.sample(2.0, {value(10)});
  integrator.marker(2.0, "start");
  integrator.sample(3.0, {value(50)});  // 30 J in 1 s
  integrator.marker(3.0, "end");
  const std::string text = rapt::summary_text(rapt::RunDescription{}, integrator);
  EXPECT_NE(text.find("marker        2.000 s       20.000 J  start            "
                      "(+20.000 J, 10.000 W)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("marker        3.000 s       50.000 J  end              "
                      "(+30.000 J, 30.000 W)\n"),
            std::string::npos)
      << text;
}

}  // namespace
