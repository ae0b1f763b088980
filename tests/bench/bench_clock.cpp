#include "bench_clock.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "cli/errors.hpp"
#include "gpu_device.hpp"
#include "power/nvml_source.hpp"

namespace rapt::bench {

struct GpuClockSampler::State {
  std::unique_ptr<NvmlSource> nvml;
  std::string bus_id;
  std::thread thread;
  std::atomic<bool> running{false};
  std::mutex mutex;  // guards readings
  std::vector<GpuClockReading> readings;
};

GpuClockSampler::GpuClockSampler(int gpu) : state_(std::make_unique<State>()) {
  state_->bus_id = gpu_pci_bus_id(gpu);
  if (state_->bus_id.empty()) {
    why_not_ = "no CUDA device " + std::to_string(gpu);
    return;
  }
  try {
    state_->nvml = std::make_unique<NvmlSource>();
  } catch (const DataError& e) {
    why_not_ = e.what();
    return;
  }
  std::optional<GpuClockReading> probe;
  try {
    probe = state_->nvml->clock_reading(state_->bus_id);
  } catch (const DataError& e) {
    why_not_ = e.what();
  }
  if (!probe) {
    if (why_not_.empty()) why_not_ = "NVML gives no clock for the GPU at " + state_->bus_id;
    state_->nvml.reset();
  }
}

GpuClockSampler::~GpuClockSampler() { stop(); }

void GpuClockSampler::start() {
  stop();
  if (!state_->nvml) return;
  state_->readings.clear();
  state_->running = true;
  state_->thread = std::thread([s = state_.get()] {
    while (s->running) {
      std::optional<GpuClockReading> r;
      try {
        r = s->nvml->clock_reading(s->bus_id);
      } catch (const std::exception&) {
        return;  // NVML failed mid-run: the samples so far stand
      }
      if (r) {
        const std::lock_guard<std::mutex> lock(s->mutex);
        s->readings.push_back(*r);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
}

ClockSummary GpuClockSampler::stop() {
  ClockSummary summary;
  if (!state_->thread.joinable()) return summary;
  state_->running = false;
  state_->thread.join();
  const std::lock_guard<std::mutex> lock(state_->mutex);
  const std::vector<GpuClockReading>& readings = state_->readings;
  if (readings.empty()) return summary;
  int with_power = 0;
  for (const GpuClockReading& r : readings) {
    summary.mean_mhz += r.sm_mhz;
    if (std::isfinite(r.watts)) {
      summary.mean_watts += r.watts;
      ++with_power;
    }
    summary.power_capped += r.power_capped ? 1.0 : 0.0;
    summary.thermal += r.thermal ? 1.0 : 0.0;
  }
  const double n = double(readings.size());
  summary.measured = true;
  summary.mean_mhz /= n;
  summary.mean_watts = with_power ? summary.mean_watts / with_power : NAN;
  summary.power_capped /= n;
  summary.thermal /= n;
  return summary;
}

}  // namespace rapt::bench
