#include "cuda_check.hpp"

#include <string>

namespace rapt::cuda {

void throw_cuda_error(cudaError_t status, const char* what, const char* file, int line) {
  throw DataError(std::string("CUDA error: ") + what + " failed: " + cudaGetErrorString(status) +
                  " (" + cudaGetErrorName(status) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace rapt::cuda
