#include "power/power_report.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>
#include <vector>

#include "cli/errors.hpp"

namespace rapt {
namespace {

std::string csv_quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string number(double value, const char* format = "%.6g") {
  if (!std::isfinite(value)) return "null";
  char text[40];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string cell(double value) { return std::isnan(value) ? "" : number(value, "%.6f"); }

// A figure of the human summary: "-" where there is none (a mean over no time), not "nan".
std::string text_number(double value) { return std::isfinite(value) ? number(value, "%.3f") : "-"; }

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() > suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> cells;
  std::istringstream in(text);
  for (std::string value; std::getline(in, value, ',');) cells.push_back(value);
  if (!text.empty() && text.back() == ',') cells.emplace_back();
  return cells;
}

// A CSV cell: a finite number, or NAN when empty (a reading not taken). False when it is
// neither ("inf" and "nan" spelt out included: no meter reads them).
bool parse_cell(const std::string& text, double* value) {
  if (text.empty()) {
    *value = NAN;
    return true;
  }
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(*value);
}

// Adds a sample row at TIME_S (as recorded; the trace's times count from its first row, whose
// time goes to *first_time_s) with a reading of every sensor (NAN: none taken). Throws through
// FAIL for a row that goes back in time or a power no meter reads: rows out of order would
// subtract energy, and a megawatt is no computer's.
template <class Fail>
void add_trace_row(RecordedTrace& trace, double time_s, double* first_time_s,
                   std::vector<double> watts, std::vector<double> joules, const Fail& fail) {
  constexpr double kMostWatts = 1e6;
  if (std::isnan(*first_time_s)) *first_time_s = time_s;
  const double since_s = time_s - *first_time_s;
  if (!std::isfinite(since_s)) throw fail("time " + number(time_s, "%.15g") + " is not finite");
  if (!trace.times_s.empty() && since_s < trace.times_s.back())
    throw fail("time " + number(time_s, "%.15g") + " is earlier than the row before");
  for (double w : watts)
    if (std::fabs(w) > kMostWatts)
      throw fail("power " + number(w) + " W is beyond any meter's (1e6 W)");
  trace.times_s.push_back(since_s);
  trace.watts.push_back(std::move(watts));
  if (!joules.empty()) trace.joules.push_back(std::move(joules));
}

// The columns of a CSV trace's header time_s,NAME_W[,NAME_J]...,marker: the sensors, and for
// each the column of its watts and of its joules (0: no counter). Empty when it is not one.
struct CsvColumns {
  std::vector<PowerSensorInfo> sensors;
  std::vector<size_t> watts, joules;
  size_t count = 0;
};

CsvColumns csv_columns(const std::string& header, const std::string& path, int line_number) {
  CsvColumns columns;
  const std::vector<std::string> names = split_commas(header);
  columns.count = names.size();
  for (size_t c = 1; c < names.size(); ++c) {
    const std::string& name = names[c];
    const std::string sensor = name.substr(0, name.size() - 2);
    if (ends_with(name, "_W")) {
      columns.sensors.push_back({sensor, false});
      columns.watts.push_back(c);
      columns.joules.push_back(0);
    } else if (ends_with(name, "_J") && !columns.sensors.empty() &&
               columns.sensors.back().name == sensor) {
      columns.sensors.back().has_energy_counter = true;
      columns.joules.back() = c;
    } else if (name != "marker") {
      throw file_error(path, "line " + std::to_string(line_number) + ": column '" + name +
                                 "' is not SENSOR_W, SENSOR_J or marker");
    }
  }
  if (columns.sensors.empty())
    throw file_error(path,
                     "line " + std::to_string(line_number) + ": header names no sensor column");
  return columns;
}

// powersensor-read's own trace (--csv, --dump), as CsvTraceWriter writes it: sample rows with
// empty cells for readings not taken, marker rows with the time and the quoted text.
RecordedTrace parse_csv_trace(const std::string& text, const std::string& path) {
  RecordedTrace trace;
  CsvColumns columns;
  double first_time_s = NAN;
  std::istringstream lines(text);
  std::string line;
  int line_number = 0;
  while (std::getline(lines, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const auto fail = [&](const std::string& problem) {
      return file_error(path, "line " + std::to_string(line_number) + ": " + problem);
    };
    if (columns.count == 0) {
      columns = csv_columns(line, path, line_number);
      trace.sensors = columns.sensors;
      continue;
    }
    const size_t quote = line.find('"');
    const std::vector<std::string> cells = split_commas(line.substr(0, quote));
    double time_s = NAN;
    if (cells.empty() || !parse_cell(cells[0], &time_s) || std::isnan(time_s))
      throw fail("not a number: " + line);
    if (quote != std::string::npos) {
      std::string name;
      const size_t close = line.rfind('"');
      for (size_t i = quote + 1; i < close; ++i) {
        if (line[i] == '"' && i + 1 < close && line[i + 1] == '"') ++i;  // "" is one quote
        name += line[i];
      }
      trace.markers.emplace_back(time_s, name);
      continue;
    }
    if (cells.size() != columns.count)
      throw fail("expected " + std::to_string(columns.count) + " columns, found " +
                 std::to_string(cells.size()));
    std::vector<double> watts(trace.sensors.size()), joules(trace.sensors.size(), NAN);
    for (size_t i = 0; i < trace.sensors.size(); ++i) {
      if (!parse_cell(cells[columns.watts[i]], &watts[i]) ||
          (columns.joules[i] && !parse_cell(cells[columns.joules[i]], &joules[i])))
        throw fail("not a number: " + line);
    }
    add_trace_row(trace, time_s, &first_time_s, std::move(watts), std::move(joules), fail);
  }
  if (trace.times_s.empty()) throw file_error(path, "no samples in the trace");
  // Marker rows carry seconds since the start of the run, as the sample rows do.
  for (auto& marker : trace.markers) marker.first -= first_time_s;
  return trace;
}

}  // namespace

CsvTraceWriter::CsvTraceWriter(const std::string& path,
                               const std::vector<PowerSensorInfo>& sensors, bool overwrite)
    : file_(path, overwrite), sensors_(sensors) {
  std::string header = "time_s";
  for (const PowerSensorInfo& sensor : sensors_) {
    header += "," + sensor.name + "_W";
    if (sensor.has_energy_counter) header += "," + sensor.name + "_J";
  }
  file_.write(header + ",marker\n");
}

void CsvTraceWriter::sample(double time_s, const std::vector<SensorValue>& values) {
  std::string row = number(time_s, "%.6f");
  for (size_t i = 0; i < sensors_.size(); ++i) {
    const SensorValue value = i < values.size() ? values[i] : SensorValue{};
    row += "," + cell(value.watts);
    if (sensors_[i].has_energy_counter) row += "," + cell(value.joules);
  }
  file_.write(row + ",\n");
  std::fflush(file_.stream());
}

void CsvTraceWriter::marker(double time_s, const std::string& text) {
  std::string row = number(time_s, "%.6f");
  for (const PowerSensorInfo& sensor : sensors_) row += sensor.has_energy_counter ? ",," : ",";
  file_.write(row + "," + csv_quote(text) + "\n");
  std::fflush(file_.stream());
}

std::string summary_json(const RunDescription& run, const EnergyIntegrator& integrator) {
  std::ostringstream out;
  out << "{\n  \"sources\": [";
  for (size_t i = 0; i < run.sources.size(); ++i) {
    out << (i ? ", " : "") << json_string(run.sources[i]);
  }
  out << "],\n  \"interval_ms\": " << number(run.interval_ms) << ",\n";
  if (!run.command.empty()) {
    out << "  \"command\": [";
    for (size_t i = 0; i < run.command.size(); ++i) {
      out << (i ? ", " : "") << json_string(run.command[i]);
    }
    out << "],\n  \"exit_status\": " << run.exit_status << ",\n";
  }
  out << "  \"duration_s\": " << number(integrator.duration_s()) << ",\n";
  out << "  \"samples\": " << integrator.rows() << ",\n";
  out << "  \"total_energy_j\": " << number(integrator.total_energy_j()) << ",\n";
  out << "  \"sensors\": [";
  const std::vector<SensorSummary> sensors = integrator.summaries();
  for (size_t i = 0; i < sensors.size(); ++i) {
    const SensorSummary& s = sensors[i];
    out << (i ? ",\n" : "\n") << "    {\"name\": " << json_string(s.name)
        << ", \"energy_j\": " << number(s.energy_j) << ", \"mean_w\": " << number(s.mean_w)
        << ", \"peak_w\": " << number(s.peak_w) << ", \"duration_s\": " << number(s.duration_s)
        << ", \"samples\": " << s.samples
        << ", \"energy_from\": " << (s.from_counter ? "\"counter\"" : "\"integrated power\"")
        << ", \"in_total\": " << (s.in_total ? "true" : "false") << "}";
  }
  out << "\n  ],\n  \"markers\": [";
  const std::vector<TraceMarker>& markers = integrator.markers();
  for (size_t i = 0; i < markers.size(); ++i) {
    out << (i ? ",\n" : "\n") << "    {\"time_s\": " << number(markers[i].time_s, "%.6f")
        << ", \"text\": " << json_string(markers[i].text)
        << ", \"total_energy_j\": " << number(markers[i].total_joules) << "}";
  }
  out << (markers.empty() ? "]\n" : "\n  ]\n") << "}\n";
  return out.str();
}

std::string summary_text(const RunDescription& run, const EnergyIntegrator& integrator) {
  std::ostringstream out;
  for (const std::string& source : run.sources) out << "source   " << source << "\n";
  char line[200];
  std::snprintf(line, sizeof line, "%-18s %12s %10s %10s %10s %8s\n", "sensor", "energy_J",
                "mean_W", "peak_W", "seconds", "samples");
  out << line;
  for (const SensorSummary& s : integrator.summaries()) {
    std::snprintf(line, sizeof line, "%-18s %12s %10s %10s %10.3f %8lld%s%s\n", s.name.c_str(),
                  text_number(s.energy_j).c_str(), text_number(s.mean_w).c_str(),
                  text_number(s.peak_w).c_str(), s.duration_s, s.samples,
                  s.from_counter ? "" : "  (integrated)",
                  s.in_total ? "" : "  (another reading of a device counted above: not in the total)");
    out << line;
  }
  const double total_w = integrator.duration_s() > 0
                             ? integrator.total_energy_j() / integrator.duration_s()
                             : NAN;
  std::snprintf(line, sizeof line, "%-18s %12s %10s %10s %10.3f\n", "total",
                text_number(integrator.total_energy_j()).c_str(), text_number(total_w).c_str(), "",
                integrator.duration_s());
  out << line;
  // Each marker with the energy so far, and the phase since the previous marker.
  double previous_s = 0, previous_j = 0;
  for (const TraceMarker& marker : integrator.markers()) {
    const double phase_s = marker.time_s - previous_s;
    const double phase_j = marker.total_joules - previous_j;
    std::snprintf(line, sizeof line, "marker   %10.3f s %12.3f J  %-16s (+%.3f J, %.3f W)\n",
                  marker.time_s, marker.total_joules, marker.text.c_str(), phase_j,
                  phase_s > 0 ? phase_j / phase_s : 0.0);
    out << line;
    previous_s = marker.time_s;
    previous_j = marker.total_joules;
  }
  return out.str();
}

RecordedTrace parse_recorded_trace(const std::string& text, const std::string& path) {
  // A header with commas is a trace this program wrote; PMT and PowerSensor logs use spaces.
  const size_t header = text.find_first_not_of("\r\n");
  if (header != std::string::npos && text[header] != '#' &&
      text.find(',', header) < text.find('\n', header))
    return parse_csv_trace(text, path);
  RecordedTrace trace;
  std::istringstream lines(text);
  std::string line;
  int line_number = 0;
  bool have_header = false;
  double first_time_s = NAN;
  while (std::getline(lines, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    const auto fail = [&](const std::string& problem) {
      return file_error(path, "line " + std::to_string(line_number) + ": " + problem);
    };
    if (!have_header) {
      std::string name;
      fields >> name;  // the time column
      while (fields >> name) trace.sensors.push_back({name, false});
      if (trace.sensors.empty()) throw fail("header names no sensor column");
      // PMT logs a device's power twice, as read and as the driver averages it (gpu_instant,
      // gpu_average): the second is the same energy again.
      const std::string average = "_average";
      for (PowerSensorInfo& sensor : trace.sensors) {
        const std::string& n = sensor.name;
        if (n.size() <= average.size() || n.compare(n.size() - average.size(), average.size(), average))
          continue;
        const std::string instant = n.substr(0, n.size() - average.size()) + "_instant";
        for (const PowerSensorInfo& other : trace.sensors)
          if (other.name == instant) sensor.in_total = false;
      }
      have_header = true;
      continue;
    }
    if (line[0] == 'M') {
      std::string tag;
      double time_s = 0;
      if (!(fields >> tag >> time_s)) throw fail("marker without a time");
      std::string rest;
      std::getline(fields, rest);
      const size_t open = rest.find('"'), close = rest.rfind('"');
      const size_t start = rest.find_first_not_of(' ');
      std::string name;
      if (open != std::string::npos && close > open) {
        name = rest.substr(open + 1, close - open - 1);
      } else if (start != std::string::npos) {
        name = rest.substr(start);
      }
      trace.markers.emplace_back(time_s, name);
      continue;
    }
    double time_s = 0;
    if (!(fields >> time_s)) throw fail("not a number: " + line);
    std::vector<double> row(trace.sensors.size());
    for (double& watts : row) {
      if (!(fields >> watts)) {
        throw fail("expected " + std::to_string(trace.sensors.size()) + " power values");
      }
    }
    add_trace_row(trace, time_s, &first_time_s, std::move(row), {}, fail);
  }
  if (trace.times_s.empty()) throw file_error(path, "no samples in the trace");
  return trace;
}

void replay_trace(const RecordedTrace& trace, TraceSink& sink) {
  size_t next_marker = 0;
  std::vector<SensorValue> values(trace.sensors.size());
  for (size_t row = 0; row < trace.times_s.size(); ++row) {
    while (next_marker < trace.markers.size() &&
           trace.markers[next_marker].first <= trace.times_s[row]) {
      sink.marker(trace.markers[next_marker].first, trace.markers[next_marker].second);
      ++next_marker;
    }
    for (size_t i = 0; i < values.size(); ++i) {
      values[i].watts = trace.watts[row][i];
      if (!trace.joules.empty()) values[i].joules = trace.joules[row][i];
    }
    sink.sample(trace.times_s[row], values);
  }
  for (; next_marker < trace.markers.size(); ++next_marker) {
    sink.marker(trace.markers[next_marker].first, trace.markers[next_marker].second);
  }
}

}  // namespace rapt
