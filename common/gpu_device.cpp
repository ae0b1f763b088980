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

// "gpu:N" -> N; throws for anything that is not a plain non-negative decimal number.
int parse_gpu_index(const std::string& device) {
  const std::string digits = device.substr(4);
  if (digits.empty() || digits.size() > 6)
    throw device_error(device, "expected gpu:N with N a device number");
  for (char ch : digits)
    if (!std::isdigit(static_cast<unsigned char>(ch)))
      throw device_error(device, "expected gpu:N with N a device number");
  return std::stoi(digits);
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
#ifdef RAPT_WITH_CUDA
  std::string why_none;
  const int count = cuda::device_count(&why_none);
  if (count == 0) throw device_error(device, "no CUDA device found (" + why_none + ")");
  if (index >= count)
    throw device_error(
        device,
        "no such device; this machine has " + std::to_string(count) + " CUDA device" +
            (count == 1 ? " (gpu:0)" : "s (gpu:0 to gpu:" + std::to_string(count - 1) + ")"));
  return {true, index};
#else
  (void)index;
  throw device_error(device, "this build of rapt has no CUDA support");
#endif
}

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

}  // namespace rapt
