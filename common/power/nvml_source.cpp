#include "power/nvml_source.hpp"

#include <dlfcn.h>

#include <cmath>

#include "cli/errors.hpp"

namespace rapt {

// nvmlFieldValue_t of nvml.h, for the instantaneous power field.
struct NvmlFieldValue {
  unsigned int field_id;
  unsigned int scope_id;
  long long timestamp_us;
  long long latency_us;
  int value_type;  // nvmlValueType_t: 0 double, 1 uint, 2 ulong, 3 ull, 4 sll, 5 int, 6 ushort
  int result;
  union {
    double d;
    unsigned int ui;
    unsigned long ul;
    unsigned long long ull;
    long long sll;
    int si;
    unsigned short us;
  } value;
};

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
  int (*field_values)(void*, int, struct NvmlFieldValue*) = nullptr;  // optional (newer NVML)
  // Optional, for clock_reading: a handle by PCI bus id, a clock (type 1: SM, in MHz) and the
  // reasons the clock is held down (a bit mask; "throttle reasons" in older NVML).
  int (*device_by_pci_bus_id)(const char*, void**) = nullptr;
  int (*clock_info)(void*, int, unsigned int*) = nullptr;
  int (*clock_event_reasons)(void*, unsigned long long*) = nullptr;

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

constexpr unsigned int kFieldPowerInstant = 186;  // NVML_FI_DEV_POWER_INSTANT, mW
constexpr int kClockSm = 1;                       // NVML_CLOCK_SM
// nvmlClocksEventReason* bits: software power cap, power brake; software and hardware thermal.
constexpr unsigned long long kReasonsPower = 0x4 | 0x80, kReasonsThermal = 0x20 | 0x40;

template <typename Function>
void bind_optional(NvmlLibrary& nvml, Function& function, const char* symbol) {
  function = reinterpret_cast<Function>(dlsym(nvml.handle, symbol));
}

// The instantaneous power in mW, or NAN where the driver does not offer the field.
double instant_power_mw(const NvmlLibrary& nvml, void* gpu) {
  if (!nvml.field_values) return NAN;
  NvmlFieldValue field{};
  field.field_id = kFieldPowerInstant;
  if (nvml.field_values(gpu, 1, &field) != 0 || field.result != 0) return NAN;
  switch (field.value_type) {
    case 0: return field.value.d;
    case 1: return field.value.ui;
    case 2: return static_cast<double>(field.value.ul);
    case 3: return static_cast<double>(field.value.ull);
    case 4: return static_cast<double>(field.value.sll);
    case 5: return field.value.si;
    case 6: return field.value.us;
    default: return NAN;
  }
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
  bind_optional(nvml, nvml.field_values, "nvmlDeviceGetFieldValues");
  bind_optional(nvml, nvml.device_by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
  bind_optional(nvml, nvml.clock_info, "nvmlDeviceGetClockInfo");
  bind_optional(nvml, nvml.clock_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!nvml.clock_event_reasons)
    bind_optional(nvml, nvml.clock_event_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
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
    instant_power_.push_back(!std::isnan(instant_power_mw(nvml, gpu)));
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
  device_ += " (" + std::to_string(gpus_.size()) + (gpus_.size() == 1 ? " GPU, " : " GPUs, ") +
             (instant_power_[0] ? "instantaneous power)" : "power as the driver averages it)");
}

NvmlSource::~NvmlSource() {
  if (nvml_ && nvml_->shutdown) nvml_->shutdown();
}

double NvmlSource::power_mw(size_t gpu) {
  // The instantaneous field where there is one: nvmlDeviceGetPowerUsage is a 1 s average
  // on Ampere and later (except GA100).
  const double instant_mw = instant_power_[gpu] ? instant_power_mw(*nvml_, gpus_[gpu]) : NAN;
  if (!std::isnan(instant_mw)) return instant_mw;
  unsigned int average_mw = 0;
  if (const int code = nvml_->power_usage_mw(gpus_[gpu], &average_mw); code != 0) {
    throw DataError("NVML: " + sensors_[gpu].name + ": power reading failed: " +
                    nvml_error(*nvml_, code));
  }
  return average_mw;
}

std::vector<SensorValue> NvmlSource::read() {
  std::vector<SensorValue> values(gpus_.size());
  for (size_t i = 0; i < gpus_.size(); ++i) {
    values[i].watts = power_mw(i) * 1e-3;
    unsigned long long energy_mj = 0;
    if (sensors_[i].has_energy_counter && nvml_->total_energy_mj(gpus_[i], &energy_mj) == 0) {
      values[i].joules = (energy_mj - first_energy_mj_[i]) * 1e-3;
    }
  }
  return values;
}

std::optional<GpuClockReading> NvmlSource::clock_reading(const std::string& pci_bus_id) {
  const NvmlLibrary& nvml = *nvml_;
  if (!nvml.device_by_pci_bus_id || !nvml.clock_info || !nvml.clock_event_reasons) return {};
  void* gpu = nullptr;
  if (nvml.device_by_pci_bus_id(pci_bus_id.c_str(), &gpu) != 0) return {};
  size_t index = 0;
  while (index < gpus_.size() && gpus_[index] != gpu) ++index;
  if (index == gpus_.size()) return {};
  GpuClockReading r;
  unsigned long long reasons = 0;
  if (nvml.clock_info(gpu, kClockSm, &r.sm_mhz) != 0 ||
      nvml.clock_event_reasons(gpu, &reasons) != 0)
    return {};
  try {
    r.watts = power_mw(index) * 1e-3;
  } catch (const DataError&) {
    r.watts = NAN;  // a GPU that reports no power still has a clock
  }
  r.power_capped = (reasons & kReasonsPower) != 0;
  r.thermal = (reasons & kReasonsThermal) != 0;
  return r;
}

}  // namespace rapt
