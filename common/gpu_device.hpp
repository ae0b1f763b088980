// Which GPU, if any, a program runs on. Host code asks here; only gpu/ talks to CUDA.
#pragma once
#include <string>
#include <vector>

namespace rapt {

struct DeviceChoice {
  bool use_gpu = false;
  int gpu_index = 0;
};

// Parses --device auto|cpu|gpu|gpu:N. "auto" picks the GPU when the build has CUDA and a device
// is present. Throws UsageError for a malformed value, or for "gpu" when no GPU can be used
// (the message says why: built without CUDA, or no device found), and for a list of GPUs (the
// programs that split their work over several GPUs call choose_devices instead).
DeviceChoice choose_device(const std::string& device);

// The GPUs a program splits its work over: everything choose_device takes, plus gpu:all (every
// device present) and lists such as gpu:0,1,3. A device may be listed twice (gpu:0,0): it then
// runs two parts of the work, which gives a one-GPU machine the same split as two GPUs.
struct DeviceSet {
  bool use_gpu = false;
  std::vector<int> gpus;   // one entry per part of the work; empty for the CPU
  size_t parts() const { return use_gpu ? gpus.size() : 1; }
};
DeviceSet choose_devices(const std::string& device);

// "gpu:N": the single-device spelling the engine factories take.
std::string gpu_name(int index);

// Number of CUDA devices visible (0 in a build without CUDA or when the driver has none).
int gpu_device_count();

// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)" or "none".
std::string gpu_device_description(int index);

// The device's PCI bus id ("0000:1B:00.0"), by which NVML names the same GPU; "" where there is
// no such device or no CUDA.
std::string gpu_pci_bus_id(int index);

}  // namespace rapt
