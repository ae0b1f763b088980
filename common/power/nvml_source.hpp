// NVIDIA GPUs through NVML, loaded at run time with dlopen("libnvidia-ml.so.1"): no build
// dependency, and a clear "not available" where the driver is missing.
//
// One sensor per GPU. Where the GPU has it (Volta and later), the total-energy counter
// nvmlDeviceGetTotalEnergyConsumption (mJ since the driver loaded) gives the energy; power
// comes from the field NVML_FI_DEV_POWER_INSTANT where the driver has it, otherwise from
// nvmlDeviceGetPowerUsage (mW), which on Ampere and later (except GA100) is a 1 s moving
// average: energies of runs shorter than a few seconds are not to be trusted from it.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "power/power_source.hpp"

namespace rapt {

struct NvmlLibrary;  // the dlopen handle and the functions taken from it

// The clock a GPU runs at, and why the driver holds it below its maximum.
struct GpuClockReading {
  unsigned int sm_mhz = 0;
  double watts = 0.0;  // NaN where the GPU reports no power
  bool power_capped = false;  // held down for power (the software power cap or the power brake)
  bool thermal = false;       // held down for temperature
};

class NvmlSource : public PowerSource {
 public:
  // Throws DataError if the library cannot be loaded, NVML does not initialise, or there is
  // no GPU. `library` is the name given to dlopen.
  explicit NvmlSource(const std::string& library = "libnvidia-ml.so.1");
  ~NvmlSource() override;

  std::string name() const override { return "nvml"; }
  std::string device() const override { return device_; }
  const std::vector<PowerSensorInfo>& sensors() const override { return sensors_; }
  std::vector<SensorValue> read() override;

  // The GPU at PCI bus id `pci_bus_id` (as cudaDeviceGetPCIBusId writes it): its SM clock,
  // power and clock-event reasons now; nothing where NVML does not know the GPU or lacks the
  // readings.
  std::optional<GpuClockReading> clock_reading(const std::string& pci_bus_id);

 private:
  std::unique_ptr<NvmlLibrary> nvml_;
  std::vector<void*> gpus_;  // nvmlDevice_t handles
  std::vector<unsigned long long> first_energy_mj_;
  std::vector<bool> instant_power_;  // NVML_FI_DEV_POWER_INSTANT works on this GPU
  std::vector<PowerSensorInfo> sensors_;
  std::string device_;
  double power_mw(size_t gpu);  // gpus_[gpu]'s power, instantaneous where the driver has it
};

}  // namespace rapt
