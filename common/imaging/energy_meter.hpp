// The energy of a stretch of work, through the power meters powersensor-read uses (PowerSensor3,
// NVML, RAPL; whichever this machine has), for a program's one-line report.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "power/power_sampler.hpp"
#include "power/power_source.hpp"
#include "power/power_trace.hpp"

namespace rapt {

class EnergyMeter {
 public:
  // Opens every meter it can; none is not an error (report() then says so).
  EnergyMeter();
  ~EnergyMeter();
  EnergyMeter(const EnergyMeter&) = delete;
  EnergyMeter& operator=(const EnergyMeter&) = delete;

  void start();
  void stop();
  // "energy: 12.3 J (rapl)" or "energy: not measured".
  std::string report() const;
  // Why nothing was measured ("" when something was), for -v.
  std::string unavailable() const { return measured_ ? "" : unavailable_; }
  double joules() const;  // NAN when not measured

 private:
  std::vector<PowerSourcePtr> sources_;
  std::string unavailable_;  // why nothing is measured
  std::unique_ptr<EnergyIntegrator> integrator_;
  std::unique_ptr<PowerSampler> sampler_;
  bool measured_ = false;
};

}  // namespace rapt
