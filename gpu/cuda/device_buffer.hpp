// Owners of CUDA resources: device memory, pinned host memory, streams and events.
// One owner each, move-only; destructors never throw (a failure to free is ignored there:
// nothing useful can be done with it, and the next checked call reports a broken context).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda_check.hpp"

namespace rapt::cuda {

// "1.50 GiB", for out-of-memory messages.
std::string byte_size_text(size_t bytes);

// "GPU out of memory: needs 12.00 GiB, 3.20 GiB free of 79.10 GiB on GPU 0 (<name>); try ...":
// the message for an allocation of `bytes` that did not fit (cudaMemGetInfo at the time).
std::string gpu_out_of_memory_text(size_t bytes);

// cudaMalloc that names the size it could not get (out of memory: gpu_out_of_memory_text).
void* allocate_device_bytes(size_t bytes);
// Page-locked host memory (large buffers on huge pages, registered with CUDA; small ones from
// cudaMallocHost), freed by release_pinned_bytes.
void* allocate_pinned_bytes(size_t bytes);
void release_pinned_bytes(void* p) noexcept;

// Where an OwnedBuffer's memory lives: how it is allocated and freed.
struct DeviceMemory {
  static void* allocate(size_t bytes) { return allocate_device_bytes(bytes); }
  static void release(void* p) noexcept { cudaFree(p); }
};
// Page-locked host memory: the only kind an asynchronous copy overlaps with other work.
struct PinnedMemory {
  static void* allocate(size_t bytes) { return allocate_pinned_bytes(bytes); }
  static void release(void* p) noexcept { release_pinned_bytes(p); }
};

// `count` elements of T in `Memory`; move-only, freed (never throwing) when it dies.
template <typename T, typename Memory>
class OwnedBuffer {
 public:
  OwnedBuffer() = default;
  explicit OwnedBuffer(size_t count)
      : data_(count ? static_cast<T*>(Memory::allocate(count * sizeof(T))) : nullptr),
        size_(count) {}
  ~OwnedBuffer() {
    if (data_) Memory::release(data_);
  }
  OwnedBuffer(OwnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  OwnedBuffer& operator=(OwnedBuffer&& other) noexcept {
    if (this != &other) {
      if (data_) Memory::release(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  OwnedBuffer(const OwnedBuffer&) = delete;
  OwnedBuffer& operator=(const OwnedBuffer&) = delete;

  T* get() const { return data_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

template <typename T>
using DeviceBuffer = OwnedBuffer<T, DeviceMemory>;
template <typename T>
using PinnedBuffer = OwnedBuffer<T, PinnedMemory>;

class Stream {
 public:
  Stream() { RAPT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      if (stream_) cudaStreamDestroy(stream_);
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const { return stream_; }
  void synchronize() const { RAPT_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  // Timing events cost a little more; events used only for ordering leave timing off.
  explicit Event(bool timing = false) {
    RAPT_CUDA_CHECK(
        cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() {
    if (event_) cudaEventDestroy(event_);
  }
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&& other) noexcept {
    if (this != &other) {
      if (event_) cudaEventDestroy(event_);
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream) const { RAPT_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  void synchronize() const { RAPT_CUDA_CHECK(cudaEventSynchronize(event_)); }
  // Makes `stream` wait (on the device) for the work recorded before this event.
  void make_wait(cudaStream_t stream) const {
    RAPT_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0));
  }

 private:
  cudaEvent_t event_ = nullptr;
};

// Seconds between two recorded timing events (both must have completed).
double elapsed_seconds(const Event& start, const Event& stop);

// Makes `index` the calling thread's current device for its lifetime, then restores the previous
// one (so an engine on GPU 1 does not move other code in the same thread off GPU 0).
class DeviceGuard {
 public:
  explicit DeviceGuard(int index);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace rapt::cuda
