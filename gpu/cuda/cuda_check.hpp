// Checked CUDA calls. Every runtime call goes through RAPT_CUDA_CHECK, and every kernel launch
// is followed by RAPT_CUDA_CHECK_LAUNCH, so a failure (including an earlier asynchronous one that
// surfaces at the next call) becomes a rapt::DataError naming the call, the file and the line.
#pragma once
#include <cuda_runtime.h>

#include "cli/errors.hpp"

namespace rapt::cuda {

// "CUDA error: cudaMalloc(&p, bytes) failed: out of memory (cudaErrorMemoryAllocation) at
// gpu/cuda/device_buffer.hpp:40"
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* what, const char* file,
                                   int line);

inline void check(cudaError_t status, const char* what, const char* file, int line) {
  if (status != cudaSuccess) throw_cuda_error(status, what, file, line);
}

// After a launch: a bad launch configuration shows up in cudaGetLastError() at once; a fault
// inside an earlier kernel shows up there too once it has happened.
inline void check_launch(const char* kernel, const char* file, int line) {
  check(cudaGetLastError(), kernel, file, line);
}

}  // namespace rapt::cuda

#define RAPT_CUDA_CHECK(call) ::rapt::cuda::check((call), #call, __FILE__, __LINE__)
#define RAPT_CUDA_CHECK_LAUNCH(kernel_name) \
  ::rapt::cuda::check_launch("launch of " kernel_name, __FILE__, __LINE__)
