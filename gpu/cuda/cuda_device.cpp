#include <cuda_runtime.h>

#include <cstdio>

#include "cuda_check.hpp"
#include "cuda_device_query.hpp"

namespace rapt::cuda {

int device_count(std::string* why_none) noexcept {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // "no device" or "no driver" must not poison later calls
    if (why_none) *why_none = cudaGetErrorString(status);
    return 0;
  }
  if (count == 0 && why_none) *why_none = "the CUDA driver reports no device";
  return count;
}

std::string device_name(int index) {
  cudaDeviceProp prop{};
  RAPT_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
  return prop.name;
}

std::string device_description(int index) {
  cudaDeviceProp prop{};
  RAPT_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
  char text[320];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %d SMs, %.1f GiB)", prop.name, prop.major,
                prop.minor, prop.multiProcessorCount,
                double(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

std::string pci_bus_id(int index) {
  char id[32] = {};
  RAPT_CUDA_CHECK(cudaDeviceGetPCIBusId(id, int(sizeof id), index));
  return id;
}

int current_device() {
  int device = 0;
  RAPT_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

int multiprocessor_count(int index) {
  int sms = 0;
  RAPT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, index));
  return sms;
}

}  // namespace rapt::cuda
