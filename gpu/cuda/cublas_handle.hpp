// Checked cuBLAS calls and the owner of a cuBLAS handle. Every cuBLAS call goes through
// RAPT_CUBLAS_CHECK, so a failure becomes a rapt::DataError naming the call, the file and the
// line, like RAPT_CUDA_CHECK.
#pragma once
#include <cublas_v2.h>

#include <utility>

#include "cli/errors.hpp"

namespace rapt::cuda {

// "cuBLAS error: cublasCreate(&handle_) failed: the resource allocation failed
// (CUBLAS_STATUS_ALLOC_FAILED) at gpu/cuda/cublas_handle.hpp:30"
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* what, const char* file,
                                     int line);

inline void check_cublas(cublasStatus_t status, const char* what, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) throw_cublas_error(status, what, file, line);
}

}  // namespace rapt::cuda

#define RAPT_CUBLAS_CHECK(call) ::rapt::cuda::check_cublas((call), #call, __FILE__, __LINE__)

namespace rapt::cuda {

// One cuBLAS handle on the current device, bound to `stream`; move-only, destroyed (never
// throwing) when it dies.
class CublasHandle {
 public:
  explicit CublasHandle(cudaStream_t stream) {
    RAPT_CUBLAS_CHECK(cublasCreate(&handle_));
    const cublasStatus_t status = cublasSetStream(handle_, stream);
    if (status != CUBLAS_STATUS_SUCCESS) {
      cublasDestroy(handle_);
      throw_cublas_error(status, "cublasSetStream(handle_, stream)", __FILE__, __LINE__);
    }
  }
  ~CublasHandle() {
    if (handle_) cublasDestroy(handle_);
  }
  CublasHandle(CublasHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  CublasHandle& operator=(CublasHandle&& other) noexcept {
    if (this != &other) {
      if (handle_) cublasDestroy(handle_);
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace rapt::cuda
