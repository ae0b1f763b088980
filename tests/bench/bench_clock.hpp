// The SM clock and power of one GPU, sampled from NVML on a thread of its own during a run:
// the clock the GPU really held, and whether its power limit held it down.
#pragma once
#include <memory>
#include <string>

namespace rapt::bench {

struct ClockSummary {
  bool measured = false;  // NVML gave readings
  double mean_mhz = 0.0;
  double mean_watts = 0.0;    // NaN where the GPU reported no power
  double power_capped = 0.0;  // fraction of the samples with the clock held down for power
  double thermal = 0.0;       // ... for temperature
};

class GpuClockSampler {
 public:
  // For CUDA device `gpu`. Without NVML, or where NVML does not know the device, it samples
  // nothing: every summary is unmeasured and why_not() says why.
  explicit GpuClockSampler(int gpu);
  ~GpuClockSampler();
  GpuClockSampler(const GpuClockSampler&) = delete;
  GpuClockSampler& operator=(const GpuClockSampler&) = delete;

  void start();          // samples every 5 ms from now
  ClockSummary stop();   // stops; the samples since start()
  const std::string& why_not() const { return why_not_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::string why_not_;
};

}  // namespace rapt::bench
