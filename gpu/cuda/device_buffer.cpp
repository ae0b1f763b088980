#include "device_buffer.hpp"

#include <cstdio>
#include <mutex>
#include <new>
#include <unordered_map>

#include "io/large_buffer.hpp"

namespace rapt::cuda {

std::string byte_size_text(size_t bytes) {
  char text[64];
  const double b = double(bytes);
  if (b >= 1024.0 * 1024.0 * 1024.0)
    std::snprintf(text, sizeof text, "%.2f GiB", b / (1024.0 * 1024.0 * 1024.0));
  else if (b >= 1024.0 * 1024.0)
    std::snprintf(text, sizeof text, "%.1f MiB", b / (1024.0 * 1024.0));
  else
    std::snprintf(text, sizeof text, "%zu bytes", bytes);
  return text;
}

namespace {

// "GPU 0 (NVIDIA H100 80GB HBM3)", or "the GPU" when the device cannot be named.
std::string current_device_text() {
  int index = -1;
  cudaDeviceProp properties = {};
  if (cudaGetDevice(&index) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, index) != cudaSuccess) {
    cudaGetLastError();
    return "the GPU";
  }
  return "GPU " + std::to_string(index) + " (" + properties.name + ")";
}

}  // namespace

std::string gpu_out_of_memory_text(size_t bytes) {
  size_t free_bytes = 0, total_bytes = 0;
  const bool known = cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess;
  cudaGetLastError();
  std::string text = "GPU out of memory: needs " + byte_size_text(bytes);
  if (known)
    text += ", " + byte_size_text(free_bytes) + " free of " + byte_size_text(total_bytes);
  text += " on " + current_device_text() +
          "; try smaller blocks or planes (see --help), another --device, or --device cpu";
  return text;
}

void* allocate_device_bytes(size_t bytes) {
  void* p = nullptr;
  const cudaError_t status = cudaMalloc(&p, bytes);
  if (status != cudaSuccess) {
    cudaGetLastError();  // an allocation failure is not sticky: clear it
    if (status == cudaErrorMemoryAllocation) throw DataError(gpu_out_of_memory_text(bytes));
    throw DataError("CUDA error: cannot allocate " + byte_size_text(bytes) +
                    " of GPU memory: " + cudaGetErrorString(status));
  }
  return p;
}

namespace {

// Pinned buffers from this size on are large buffers (huge pages) registered with CUDA: on an
// H100 host, 42 MB took 16-21 ms from cudaMallocHost and about 6.5 ms this way (pinning 2 MiB
// pages is cheaper than pinning 4 KiB ones). Smaller ones come from cudaMallocHost, as do all
// where registering fails.
constexpr size_t kRegisterFrom = size_t(4) << 20;

// The registered buffers and the device current when each was made (whose copies read or
// write it), so that a release knows how its buffer was made and what to wait for. Never
// destroyed: buffers may be released while the program exits.
struct Registered {
  std::mutex mutex;
  std::unordered_map<void*, int> buffers;
};
Registered& registered() {
  static auto* r = new Registered;
  return *r;
}

void* registered_large_bytes(size_t bytes) {
  void* p = allocate_large_bytes(bytes);
  const unsigned flags = cudaHostRegisterPortable | cudaHostRegisterMapped;  // as cudaMallocHost's
  if (cudaHostRegister(p, bytes, flags) != cudaSuccess) {
    cudaGetLastError();
    release_large_bytes(p);
    return nullptr;
  }
  try {
    const std::lock_guard<std::mutex> lock(registered().mutex);
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess) cudaGetLastError();
    registered().buffers.emplace(p, device);
  } catch (...) {
    cudaHostUnregister(p);
    release_large_bytes(p);
    throw;
  }
  return p;
}

}  // namespace

void release_pinned_bytes(void* p) noexcept {
  if (!p) return;
  bool was_registered = false;
  int device = -1;
  {
    const std::lock_guard<std::mutex> lock(registered().mutex);
    const auto found = registered().buffers.find(p);
    if (found != registered().buffers.end()) {
      was_registered = true;
      device = found->second;
      registered().buffers.erase(found);
    }
  }
  if (!was_registered) {
    if (cudaFreeHost(p) != cudaSuccess) cudaGetLastError();  // not the next launch's error
    return;
  }
  // cudaFreeHost waits for the device's work first; unregistering is not said to, and a copy
  // still reading the buffer (a staging slot grown before its last upload ended) must end
  // before the memory goes back to the heap: the buffer's device's copies, and the current
  // device's where that is another.
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess) cudaGetLastError();
  if (device >= 0 && current >= 0 && device != current && cudaSetDevice(device) == cudaSuccess) {
    cudaDeviceSynchronize();
    cudaSetDevice(current);
  }
  cudaDeviceSynchronize();
  cudaHostUnregister(p);
  cudaGetLastError();
  release_large_bytes(p);
}

void* allocate_pinned_bytes(size_t bytes) {
  if (bytes >= kRegisterFrom) {
    try {
      if (void* p = registered_large_bytes(bytes)) return p;
    } catch (const std::bad_alloc&) {
      // cudaMallocHost below says what did not fit
    }
  }
  void* p = nullptr;
  const cudaError_t status = cudaMallocHost(&p, bytes);
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw DataError("CUDA error: cannot allocate " + byte_size_text(bytes) +
                    " of page-locked host memory: " + cudaGetErrorString(status));
  }
  return p;
}

double elapsed_seconds(const Event& start, const Event& stop) {
  float ms = 0.0f;
  RAPT_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return double(ms) * 1e-3;
}

DeviceGuard::DeviceGuard(int index) {
  RAPT_CUDA_CHECK(cudaGetDevice(&previous_));
  RAPT_CUDA_CHECK(cudaSetDevice(index));
}

DeviceGuard::~DeviceGuard() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

}  // namespace rapt::cuda
