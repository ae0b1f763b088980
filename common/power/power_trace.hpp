// What a run of samples turns into: per-sensor energy, mean and peak power (EnergyIntegrator),
// and the sink interface through which the sampler hands rows to it and to the CSV writer.
#pragma once
#include <string>
#include <vector>

#include "power/power_source.hpp"

namespace rapt {

struct TraceMarker {
  double time_s = 0;
  std::string text;
  double total_joules = 0;  // energy of all sensors from the start to the marker
};

// Receives the trace as it is sampled. Times are seconds since sampling started.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void sample(double time_s, const std::vector<SensorValue>& values) = 0;
  virtual void marker(double time_s, const std::string& text) = 0;
};

struct SensorSummary {
  std::string name;
  long long samples = 0;
  double duration_s = 0;
  double energy_j = 0;
  double mean_w = 0;
  double peak_w = 0;
  bool from_counter = false;  // energy from the meter's own counter, not integrated watts
  bool in_total = true;       // PowerSensorInfo::in_total
};

// Energy per sensor: the difference of the meter's cumulative counter where it has one,
// otherwise the trapezoidal integral of the watts. Samples without a value (NAN) are skipped.
// A marker that falls between two samples (a recorded trace has no row at its markers) gets
// the energy up to its own time, from the readings interpolated linearly between the two.
class EnergyIntegrator : public TraceSink {
 public:
  explicit EnergyIntegrator(std::vector<PowerSensorInfo> sensors);
  void sample(double time_s, const std::vector<SensorValue>& values) override;
  void marker(double time_s, const std::string& text) override;

  std::vector<SensorSummary> summaries() const;
  double total_energy_j() const;
  double duration_s() const { return last_time_s_ - first_time_s_; }
  long long rows() const { return rows_; }
  const std::vector<TraceMarker>& markers() const { return markers_; }
  const std::vector<PowerSensorInfo>& sensors() const { return sensors_; }

 private:
  struct Accumulator {
    long long samples = 0;
    double first_time_s = 0, last_time_s = 0;
    double last_watts = NAN;
    double integral_j = 0;
    double first_joules = NAN, last_joules = NAN;
    double peak_w = NAN;
  };
  static void accumulate(Accumulator& sum, double time_s, const SensorValue& value);
  double energy_j(const std::vector<Accumulator>& sums, size_t sensor) const;
  double total_energy_j(const std::vector<Accumulator>& sums) const;
  void complete_markers(double time_s, const std::vector<SensorValue>& values);

  std::vector<PowerSensorInfo> sensors_;
  std::vector<Accumulator> accumulators_;
  std::vector<TraceMarker> markers_;
  size_t markers_done_ = 0;  // markers before this index have their final energy
  double first_time_s_ = 0, last_time_s_ = 0;
  long long rows_ = 0;
};

}  // namespace rapt
