#include "power/power_sampler.hpp"

#include <algorithm>

#include "cli/errors.hpp"

namespace rapt {

PowerSampler::PowerSampler(std::vector<PowerSource*> sources, double interval_ms,
                           std::vector<TraceSink*> sinks)
    : sources_(std::move(sources)), interval_(interval_ms), sinks_(std::move(sinks)) {}

PowerSampler::~PowerSampler() {
  running_ = false;
  if (thread_.joinable()) thread_.join();
}

std::vector<PowerSensorInfo> PowerSampler::sensors() const {
  std::vector<PowerSensorInfo> all;
  for (const PowerSource* source : sources_) {
    all.insert(all.end(), source->sensors().begin(), source->sensors().end());
  }
  return all;
}

void PowerSampler::start() {
  origin_ = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    take_sample();
    if (!failure_.empty()) throw DataError(failure_);
  }
  running_ = true;
  thread_ = std::thread(&PowerSampler::loop, this);
}

void PowerSampler::stop() {
  if (!running_.exchange(false)) return;
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_.empty()) take_sample();
}

void PowerSampler::mark(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  // A row at the marker: the energy up to the marker is then measured, not the last row's.
  if (failure_.empty() && running_) take_sample();
  const double time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - origin_).count();
  for (PowerSource* source : sources_) {
    try {
      source->mark();
    } catch (const DataError&) {
      // The next read reports the failed device; the marker still goes into the trace.
    }
  }
  for (TraceSink* sink : sinks_) sink->marker(time_s, text);
}

std::string PowerSampler::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

void PowerSampler::loop() {
  auto next = std::chrono::steady_clock::now();
  const auto step = std::chrono::duration_cast<std::chrono::steady_clock::duration>(interval_);
  while (running_) {
    next += step;
    // Sleep in short steps so stop() is not kept waiting by a long interval.
    while (running_ && std::chrono::steady_clock::now() < next) {
      const auto left = next - std::chrono::steady_clock::now();
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
          left, std::chrono::milliseconds(20)));
    }
    if (!running_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    take_sample();
    if (!failure_.empty()) return;
  }
}

void PowerSampler::take_sample() {
  try {
    std::vector<SensorValue> row;
    for (PowerSource* source : sources_) {
      const std::vector<SensorValue> values = source->read();
      row.insert(row.end(), values.begin(), values.end());
    }
    const double time_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - origin_).count();
    for (TraceSink* sink : sinks_) sink->sample(time_s, row);
  } catch (const DataError& e) {
    failure_ = e.what();  // a device gone, or the trace file unwritable
  }
}

}  // namespace rapt
