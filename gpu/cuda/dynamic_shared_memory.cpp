#include "dynamic_shared_memory.hpp"

#include <cuda_runtime.h>

#include <string>

#include "cli/errors.hpp"
#include "cuda_check.hpp"

namespace rapt::cuda {

void allow_dynamic_shared_memory(const void* kernel, size_t bytes, const char* kernel_name) {
  int device = 0, per_block = 0;
  RAPT_CUDA_CHECK(cudaGetDevice(&device));
  RAPT_CUDA_CHECK(
      cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes attributes{};
  RAPT_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  // The static shared memory a kernel declares comes out of the same limit.
  const size_t allowed = size_t(per_block) - attributes.sharedSizeBytes;
  if (bytes > allowed)
    throw DataError(std::string(kernel_name) + " needs " + std::to_string(bytes) +
                    " bytes of shared memory a block; this GPU allows " +
                    std::to_string(allowed));
  RAPT_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(allowed)));
}

}  // namespace rapt::cuda
