#include "imaging/energy_meter.hpp"

#include <cmath>
#include <cstdio>
#include <exception>

#include "power/power_source_factory.hpp"

namespace rapt {

EnergyMeter::EnergyMeter() {
  std::vector<std::string> skipped;
  try {
    sources_ = open_power_sources(SourceSelection{}, skipped);
  } catch (const std::exception& e) {
    unavailable_ = e.what();
    return;
  }
  std::vector<PowerSource*> pointers;
  std::vector<PowerSensorInfo> sensors;
  for (const PowerSourcePtr& s : sources_) {
    pointers.push_back(s.get());
    sensors.insert(sensors.end(), s->sensors().begin(), s->sensors().end());
  }
  integrator_ = std::make_unique<EnergyIntegrator>(sensors);
  sampler_ = std::make_unique<PowerSampler>(pointers, 20.0,
                                            std::vector<TraceSink*>{integrator_.get()});
}

EnergyMeter::~EnergyMeter() = default;

void EnergyMeter::start() {
  if (!sampler_) return;
  try {
    sampler_->start();
    measured_ = true;
  } catch (const std::exception& e) {
    unavailable_ = e.what();
    sampler_.reset();
  }
}

void EnergyMeter::stop() {
  if (!sampler_ || !measured_) return;
  sampler_->stop();
  if (!sampler_->failure().empty()) {
    unavailable_ = sampler_->failure();
    measured_ = false;
  }
}

double EnergyMeter::joules() const {
  return measured_ && integrator_ ? integrator_->total_energy_j() : NAN;
}

std::string EnergyMeter::report() const {
  if (!measured_) return "energy: not measured";
  std::string names;
  for (const PowerSourcePtr& s : sources_) names += (names.empty() ? "" : ", ") + s->name();
  char text[64];
  std::snprintf(text, sizeof text, "energy: %.3g J (", joules());
  return text + names + ")";
}

}  // namespace rapt
