#include "power/nvml_source.hpp"

#include <dlfcn.h>

#include <cmath>

#include "cli/errors.hpp"

namespace rapt {

// The few NVML entry points used, with the C signatures of nvml.h (nvmlReturn_t is an int,
// nvmlDevice_t an opaque pointer; 0 is NVML_SUCCESS).
struct NvmlLibrary {
  void* handle = nullptr;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  const char* (*error_string)(int) = nullptr;
  int (*device_count)(unsigned int*) = nullptr;
  int (*device_by_index)(unsigned int, void**) = nullptr;
  int (*device_name)(void*, char*, unsigned int) = nullptr;
  int (*power_usage_mw)(void*, unsigned int*) = nullptr;
  int (*total_energy_mj)(void*, unsigned long long*) = nullptr;

  ~NvmlLibrary() {
    if (handle) dlclose(handle);
  }
};

namespace {

template <typename Function>
void bind(NvmlLibrary& nvml, Function& function, const char* symbol, const std::string& library) {
  function = reinterpret_cast<Function>(dlsym(nvml.handle, symbol));
  if (!function) throw file_error(library, std::string("NVML lacks ") + symbol);
}

std::string nvml_error(const NvmlLibrary& nvml, int code) {
  return nvml.error_string ? nvml.error_string(code) : "error " + std::to_string(code);
}

}  // namespace

NvmlSource::NvmlSource(const std::string& library) : nvml_(std::make_unique<NvmlLibrary>()) {
  NvmlLibrary& nvml = *nvml_;
  nvml.handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!nvml.handle) throw file_error(library, "NVML not available (no NVIDIA driver?)");
  bind(nvml, nvml.init, "nvmlInit_v2", library);
  bind(nvml, nvml.shutdown, "nvmlShutdown", library);
  bind(nvml, nvml.error_string, "nvmlErrorString", library);
  bind(nvml, nvml.device_count, "nvmlDeviceGetCount_v2", library);
  bind(nvml, nvml.device_by_index, "nvmlDeviceGetHandleByIndex_v2", library);
  bind(nvml, nvml.device_name, "nvmlDeviceGetName", library);
  bind(nvml, nvml.power_usage_mw, "nvmlDeviceGetPowerUsage", library);
  bind(nvml, nvml.total_energy_mj, "nvmlDeviceGetTotalEnergyConsumption", library);
  if (const int code = nvml.init(); code != 0) {
    throw file_error(library, "NVML did not initialise: " + nvml_error(nvml, code));
  }
  unsigned int count = 0;
  if (nvml.device_count(&count) != 0 || count == 0) {
    nvml.shutdown();
    throw file_error(library, "NVML sees no GPU");
  }
  for (unsigned int index = 0; index < count; ++index) {
    void* gpu = nullptr;
    if (nvml.device_by_index(index, &gpu) != 0) continue;
    unsigned long long energy_mj = 0;
    const bool has_counter = nvml.total_energy_mj(gpu, &energy_mj) == 0;
    gpus_.push_back(gpu);
    first_energy_mj_.push_back(energy_mj);
    sensors_.push_back({"gpu" + std::to_string(index), has_counter});
    if (device_.empty()) {
      char name[96] = {};
      if (nvml.device_name(gpu, name, sizeof name) == 0) device_ = name;
    }
  }
  if (gpus_.empty()) {
    nvml.shutdown();
    throw file_error(library, "NVML gives no GPU handle");
  }
  device_ += " (" + std::to_string(gpus_.size()) + (gpus_.size() == 1 ? " GPU)" : " GPUs)");
}

NvmlSource::~NvmlSource() {
  if (nvml_ && nvml_->shutdown) nvml_->shutdown();
}

std::vector<SensorValue> NvmlSource::read() {
  std::vector<SensorValue> values(gpus_.size());
  for (size_t i = 0; i < gpus_.size(); ++i) {
    unsigned int power_mw = 0;
    if (const int code = nvml_->power_usage_mw(gpus_[i], &power_mw); code != 0) {
      throw DataError("NVML: " + sensors_[i].name + ": power reading failed: " +
                      nvml_error(*nvml_, code));
    }
    values[i].watts = power_mw * 1e-3;
    unsigned long long energy_mj = 0;
    if (sensors_[i].has_energy_counter && nvml_->total_energy_mj(gpus_[i], &energy_mj) == 0) {
      values[i].joules = (energy_mj - first_energy_mj_[i]) * 1e-3;
    }
  }
  return values;
}

}  // namespace rapt
