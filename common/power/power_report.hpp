// The outputs of powersensor-read: the CSV trace (written as it is sampled), the JSON summary,
// the human summary, and the reader of recorded traces (--replay).
#pragma once
#include <string>
#include <vector>

#include "cli/atomic_output.hpp"
#include "power/power_trace.hpp"

namespace rapt {

// CSV, one row per sample: time_s, then <sensor>_W for every sensor and <sensor>_J for those
// with a counter, then marker (empty on sample rows). A marker is a row of its own with only
// time_s and the marker text (quoted). Rows are flushed as they come, so an interrupted
// --dump keeps what it had; the file gets its final name at commit().
class CsvTraceWriter : public TraceSink {
 public:
  CsvTraceWriter(const std::string& path, const std::vector<PowerSensorInfo>& sensors,
                 bool overwrite);
  void sample(double time_s, const std::vector<SensorValue>& values) override;
  void marker(double time_s, const std::string& text) override;
  void commit() { file_.commit(); }

 private:
  AtomicOutputFile file_;
  std::vector<PowerSensorInfo> sensors_;
};

// What a run was: where the numbers came from, for the summaries.
struct RunDescription {
  std::vector<std::string> sources;  // "powersensor3 /dev/ttyACM0", "nvml NVIDIA H100 (1 GPU)"
  double interval_ms = 0;
  std::vector<std::string> command;  // empty in --dump and --replay
  int exit_status = -1;              // the command's, -1 if none
};

std::string summary_json(const RunDescription& run, const EnergyIntegrator& integrator);
std::string summary_text(const RunDescription& run, const EnergyIntegrator& integrator);

// A recorded trace in the PMT/PowerSensor ASCII style:
//   timestamp gpu_instant gpu_average        header: a time column, then one column per sensor
//   1733935225.009 28.873 23.595             rows: time in seconds, watts
//   M 10.098 "start"                         markers: seconds since the first row, text
// Lines starting with '#' are comments. Times in the result are relative to the first row.
// The CSV that CsvTraceWriter writes (--csv, --dump) is read too, its counters with it.
struct RecordedTrace {
  std::vector<PowerSensorInfo> sensors;
  std::vector<double> times_s;
  std::vector<std::vector<double>> watts;   // [row][sensor]
  std::vector<std::vector<double>> joules;  // [row][sensor], NAN without a counter; empty if none
  std::vector<std::pair<double, std::string>> markers;
};

// Throws DataError naming `path` and the line number on a malformed row.
RecordedTrace parse_recorded_trace(const std::string& text, const std::string& path);

// Feeds a recorded trace to a sink in time order, markers between the rows.
void replay_trace(const RecordedTrace& trace, TraceSink& sink);

}  // namespace rapt
