// Device queries for host code. No CUDA headers here: common/gpu_device.cpp includes this in
// builds with RAPT_WITH_CUDA, and the definitions (gpu/cuda/cuda_device.cpp) are the only callers of
// the CUDA runtime.
#pragma once
#include <string>

namespace rapt::cuda {

// Number of visible CUDA devices; 0 when there is no driver or no device. When it returns 0 and
// `why_none` is given, it receives the driver's reason ("no CUDA-capable device is detected").
int device_count(std::string* why_none = nullptr) noexcept;

// The device's marketing name, e.g. "NVIDIA H100 80GB HBM3". Throws DataError on a bad index.
std::string device_name(int index);

// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)". Throws DataError on a bad index.
std::string device_description(int index);

// The device's PCI bus id, "0000:1B:00.0" (cudaDeviceGetPCIBusId), by which NVML finds the
// same GPU. Throws DataError on a bad index.
std::string pci_bus_id(int index);

// The calling thread's current device (cudaGetDevice).
int current_device();

// The device's streaming multiprocessors, which launches size their grids by. Throws DataError
// on a bad index.
int multiprocessor_count(int index);

}  // namespace rapt::cuda
