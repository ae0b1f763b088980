// Device choice for host code. The CUDA queries live in gpu/ (only in builds with CUDA); this
// file stays free of CUDA headers so a CPU-only build compiles it unchanged.
#include "gpu_device.hpp"

#include <cctype>

#include "cli/errors.hpp"

#ifdef RAPT_WITH_CUDA
#include "../gpu/cuda/cuda_device_query.hpp"
#endif

namespace rapt {
namespace {

UsageError device_error(const std::string& device, const std::string& problem) {
  return UsageError("--device " + device + ": " + problem);
}

// A device number; throws for anything that is not a plain non-negative decimal number.
int parse_gpu_number(const std::string& device, const std::string& digits) {
  if (digits.empty() || digits.size() > 6)
    throw device_error(device, "expected gpu:N with N a device number");
  for (char ch : digits)
    if (!std::isdigit(static_cast<unsigned char>(ch)))
      throw device_error(device, "expected gpu:N with N a device number");
  return std::stoi(digits);
}

// "gpu:N" -> N.
int parse_gpu_index(const std::string& device) {
  if (device.find(',') != std::string::npos || device == "gpu:all")
    throw device_error(device, "this program runs on one GPU; give gpu:N");
  return parse_gpu_number(device, device.substr(4));
}

// Throws unless `index` names a device present; returns the number of devices.
int check_gpu_present(const std::string& device, int index) {
#ifdef RAPT_WITH_CUDA
  std::string why_none;
  const int count = cuda::device_count(&why_none);
  if (count == 0) throw device_error(device, "no CUDA device found (" + why_none + ")");
  if (index >= count)
    throw device_error(
        device,
        "no such device; this machine has " + std::to_string(count) + " CUDA device" +
            (count == 1 ? " (gpu:0)" : "s (gpu:0 to gpu:" + std::to_string(count - 1) + ")"));
  return count;
#else
  (void)index;
  throw device_error(device, "this build of rapt has no CUDA support");
#endif
}

}  // namespace

DeviceChoice choose_device(const std::string& device) {
  if (device == "cpu") return {false, 0};
  if (device == "auto") return {gpu_device_count() > 0, 0};
  int index = 0;
  if (device.rfind("gpu:", 0) == 0)
    index = parse_gpu_index(device);
  else if (device != "gpu")
    throw device_error(device, "unknown device; expected auto, cpu, gpu or gpu:N");
  check_gpu_present(device, index);
  return {true, index};
}

DeviceSet choose_devices(const std::string& device) {
  if (device.rfind("gpu:", 0) != 0 ||
      (device.find(',') == std::string::npos && device != "gpu:all")) {
    const DeviceChoice one = choose_device(device);
    if (!one.use_gpu) return {};
    return {true, {one.gpu_index}};
  }
  DeviceSet set{true, {}};
  if (device == "gpu:all") {
    const int count = check_gpu_present(device, 0);
    for (int i = 0; i < count; ++i) set.gpus.push_back(i);
    return set;
  }
  const std::string list = device.substr(4);
  for (size_t start = 0;;) {
    const size_t comma = list.find(',', start);
    const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos
                                                                            : comma - start);
    if (item.empty()) throw device_error(device, "expected gpu:N,M,... with device numbers");
    set.gpus.push_back(parse_gpu_number(device, item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (int index : set.gpus) check_gpu_present(device, index);
  return set;
}

std::string gpu_name(int index) { return "gpu:" + std::to_string(index); }

int gpu_device_count() {
#ifdef RAPT_WITH_CUDA
  return cuda::device_count();
#else
  return 0;
#endif
}

std::string gpu_device_description(int index) {
#ifdef RAPT_WITH_CUDA
  if (index < 0 || index >= cuda::device_count()) return "none";
  return cuda::device_description(index);
#else
  (void)index;
  return "none";
#endif
}

std::string gpu_pci_bus_id(int index) {
#ifdef RAPT_WITH_CUDA
  if (index < 0 || index >= cuda::device_count()) return "";
  return cuda::pci_bus_id(index);
#else
  (void)index;
  return "";
#endif
}

}  // namespace rapt
