// Reads every source at a fixed interval on a thread of its own and hands each row (all
// sensors of all sources, in order) and each marker to the sinks, in time order.
#pragma once
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "power/power_source.hpp"
#include "power/power_trace.hpp"

namespace rapt {

class PowerSampler {
 public:
  PowerSampler(std::vector<PowerSource*> sources, double interval_ms,
               std::vector<TraceSink*> sinks);
  ~PowerSampler();  // stops the thread

  std::vector<PowerSensorInfo> sensors() const;  // of all sources, in row order

  // Takes the first row now (throws DataError if a source fails), then samples on the thread.
  void start();
  // Stops the thread and takes a last row, so the trace spans the whole run.
  void stop();
  // A row, then a marker, at the current time; thread-safe (the FIFO reader and the signal
  // loop call it).
  void mark(const std::string& text);
  // Why sampling stopped early ("" if it did not): a source failed mid-run.
  std::string failure() const;

 private:
  void loop();
  void take_sample();  // with mutex_ held

  std::vector<PowerSource*> sources_;
  std::chrono::duration<double, std::milli> interval_;
  std::vector<TraceSink*> sinks_;
  std::chrono::steady_clock::time_point origin_;

  mutable std::mutex mutex_;  // orders rows and markers; guards failure_
  std::string failure_;
  std::atomic<bool> running_{false};
  std::thread thread_;
};

}  // namespace rapt
