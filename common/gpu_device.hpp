// Which GPU, if any, a program runs on. Host code asks here; only gpu/ talks to CUDA.
#pragma once
#include <string>

namespace rapt {

struct DeviceChoice {
  bool use_gpu = false;
  int gpu_index = 0;
};

// Parses --device auto|cpu|gpu|gpu:N. "auto" picks the GPU when the build has CUDA and a device
// is present. Throws UsageError for a malformed value, or for "gpu" when no GPU can be used
// (the message says why: built without CUDA, or no device found).
DeviceChoice choose_device(const std::string& device);

// Number of CUDA devices visible (0 in a build without CUDA or when the driver has none).
int gpu_device_count();

// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)" or "none".
std::string gpu_device_description(int index);

}  // namespace rapt
