// One interface for every power meter rapt can read: a PowerSensor3 on a serial port, NVIDIA
// GPUs through NVML, CPU packages through RAPL. A source names its sensors once; read() then
// returns one timestamped value per sensor.
//
// A sensor gives watts (instantaneous or the meter's own short average) and, where the meter
// keeps one, a cumulative energy in joules since the source was opened. The integrator prefers
// the counter (it sees every microjoule the meter saw) and falls back to integrating watts.
#pragma once
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace rapt {

struct PowerSensorInfo {
  std::string name;              // "ps3.pair0", "gpu0", "package-0", "package-0.dram"
  bool has_energy_counter = false;
  // false: a second reading of a device another sensor already counts (a PMT log's
  // gpu_average beside its gpu_instant), reported on its own but left out of the total.
  bool in_total = true;
};

struct SensorValue {
  double watts = NAN;
  double joules = NAN;  // cumulative since the source opened; NAN without a counter
  double volts = NAN;   // where the meter measures them (PowerSensor3)
  double amps = NAN;
};

class PowerSource {
 public:
  virtual ~PowerSource() = default;
  virtual std::string name() const = 0;    // "powersensor3", "nvml", "rapl"
  virtual std::string device() const = 0;  // "/dev/ttyACM0", "NVIDIA H100 (1 GPU)", sysfs path
  virtual const std::vector<PowerSensorInfo>& sensors() const = 0;
  // One value per sensor, in sensors() order. Throws DataError if the meter is gone.
  virtual std::vector<SensorValue> read() = 0;
  // Asks the meter to mark its own stream too (PowerSensor3); most meters have nothing to mark.
  virtual void mark() {}
};

using PowerSourcePtr = std::unique_ptr<PowerSource>;

}  // namespace rapt
