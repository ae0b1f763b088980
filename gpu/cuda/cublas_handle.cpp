#include "cublas_handle.hpp"

#include <string>

namespace rapt::cuda {

void throw_cublas_error(cublasStatus_t status, const char* what, const char* file, int line) {
  throw DataError(std::string("cuBLAS error: ") + what + " failed: " +
                  cublasGetStatusString(status) + " (" + cublasGetStatusName(status) + ") at " +
                  file + ":" + std::to_string(line));
}

}  // namespace rapt::cuda
