#include "power/power_trace.hpp"

#include <algorithm>
#include <utility>

namespace rapt {

EnergyIntegrator::EnergyIntegrator(std::vector<PowerSensorInfo> sensors)
    : sensors_(std::move(sensors)), accumulators_(sensors_.size()) {}

void EnergyIntegrator::sample(double time_s, const std::vector<SensorValue>& values) {
  if (rows_ > 0) complete_markers(time_s, values);
  markers_done_ = markers_.size();
  if (rows_ == 0) first_time_s_ = time_s;
  last_time_s_ = time_s;
  ++rows_;
  for (size_t i = 0; i < accumulators_.size() && i < values.size(); ++i)
    accumulate(accumulators_[i], time_s, values[i]);
}

void EnergyIntegrator::accumulate(Accumulator& sum, double time_s, const SensorValue& value) {
  if (!std::isnan(value.joules)) {
    if (std::isnan(sum.first_joules)) sum.first_joules = value.joules;
    sum.last_joules = value.joules;
  }
  if (std::isnan(value.watts)) return;
  if (sum.samples == 0) {
    sum.first_time_s = time_s;
  } else {
    sum.integral_j += 0.5 * (sum.last_watts + value.watts) * (time_s - sum.last_time_s);
  }
  sum.last_time_s = time_s;
  sum.last_watts = value.watts;
  sum.peak_w = std::isnan(sum.peak_w) ? value.watts : std::max(sum.peak_w, value.watts);
  ++sum.samples;
}

// Markers after the previous row and up to this one: the energy at the marker's time, as if a
// row had been taken there. For integrated watts this splits the trapezoid exactly.
void EnergyIntegrator::complete_markers(double time_s, const std::vector<SensorValue>& values) {
  const double previous_s = last_time_s_;
  for (size_t m = markers_done_; m < markers_.size(); ++m) {
    TraceMarker& marker = markers_[m];
    if (!(marker.time_s > previous_s && marker.time_s <= time_s)) continue;
    const double fraction = (marker.time_s - previous_s) / (time_s - previous_s);
    std::vector<Accumulator> upto = accumulators_;
    for (size_t i = 0; i < upto.size() && i < values.size(); ++i) {
      SensorValue between = values[i];
      between.watts = upto[i].last_watts + fraction * (values[i].watts - upto[i].last_watts);
      between.joules = upto[i].last_joules + fraction * (values[i].joules - upto[i].last_joules);
      accumulate(upto[i], marker.time_s, between);
    }
    marker.total_joules = total_energy_j(upto);
  }
}

void EnergyIntegrator::marker(double time_s, const std::string& text) {
  markers_.push_back({time_s, text, total_energy_j()});
}

double EnergyIntegrator::energy_j(const std::vector<Accumulator>& sums, size_t sensor) const {
  const Accumulator& sum = sums[sensor];
  if (sensors_[sensor].has_energy_counter && !std::isnan(sum.first_joules)) {
    return sum.last_joules - sum.first_joules;
  }
  return sum.integral_j;
}

double EnergyIntegrator::total_energy_j(const std::vector<Accumulator>& sums) const {
  double total = 0;
  for (size_t i = 0; i < sensors_.size(); ++i)
    if (sensors_[i].in_total) total += energy_j(sums, i);
  return total;
}

double EnergyIntegrator::total_energy_j() const { return total_energy_j(accumulators_); }

std::vector<SensorSummary> EnergyIntegrator::summaries() const {
  std::vector<SensorSummary> out;
  for (size_t i = 0; i < sensors_.size(); ++i) {
    const Accumulator& sum = accumulators_[i];
    SensorSummary summary;
    summary.name = sensors_[i].name;
    summary.samples = sum.samples;
    summary.from_counter = sensors_[i].has_energy_counter && !std::isnan(sum.first_joules);
    // A counter covers the whole run; integrated watts cover the span of valid samples.
    summary.duration_s = summary.from_counter ? duration_s() : sum.last_time_s - sum.first_time_s;
    summary.energy_j = energy_j(accumulators_, i);
    summary.mean_w = summary.duration_s > 0 ? summary.energy_j / summary.duration_s : NAN;
    summary.peak_w = sum.peak_w;
    summary.in_total = sensors_[i].in_total;
    out.push_back(summary);
  }
  return out;
}

}  // namespace rapt
