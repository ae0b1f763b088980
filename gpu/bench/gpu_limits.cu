// Device ceilings for the benchmark: a large device-to-device copy and a shared-memory read loop.
#include <algorithm>
#include <vector>

#include "../cuda/cuda_device_query.hpp"
#include "../cuda/device_buffer.hpp"
#include "gpu_bench.hpp"

namespace rapt::gpu {
namespace {

constexpr int kSharedWords = 4096;
constexpr int kSharedThreads = 256;

// Each thread reads four words per iteration, a warp 32 consecutive words per read (no bank
// conflicts); the addresses move every iteration so no load can be hoisted out of the loop.
__global__ void __launch_bounds__(kSharedThreads)
    shared_read_kernel(unsigned iterations, uint32_t* sink) {
  __shared__ uint32_t words[kSharedWords];
  for (int i = threadIdx.x; i < kSharedWords; i += kSharedThreads) words[i] = i * 2654435761u;
  __syncthreads();
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  unsigned at = threadIdx.x;
  for (unsigned it = 0; it < iterations; ++it, at += 32) {
    a0 += words[at % kSharedWords];
    a1 ^= words[(at + 1024) % kSharedWords];
    a2 += words[(at + 2048) % kSharedWords];
    a3 ^= words[(at + 3072) % kSharedWords];
  }
  if ((a0 ^ a1 ^ a2 ^ a3) == 0x9e3779b9u) *sink = a0;  // keeps the sums alive
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double copy_bandwidth(const cuda::Stream& stream) {
  const size_t bytes = size_t(1) << 30;
  cuda::DeviceBuffer<uint8_t> a(bytes), b(bytes);
  RAPT_CUDA_CHECK(cudaMemsetAsync(a.get(), 1, bytes, stream.get()));
  const cuda::Event start(true), stop(true);
  std::vector<double> times;
  for (int rep = 0; rep < 6; ++rep) {
    start.record(stream.get());
    RAPT_CUDA_CHECK(
        cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    stop.record(stream.get());
    stop.synchronize();
    if (rep > 0) times.push_back(cuda::elapsed_seconds(start, stop));
  }
  return 2.0 * double(bytes) / median(times);
}

double shared_bandwidth(const cuda::Stream& stream, int sms) {
  cuda::DeviceBuffer<uint32_t> sink(1);
  const unsigned blocks = unsigned(sms) * 8;
  const cuda::Event start(true), stop(true);
  auto run = [&](unsigned iterations) {
    start.record(stream.get());
    shared_read_kernel<<<blocks, kSharedThreads, 0, stream.get()>>>(iterations, sink.get());
    RAPT_CUDA_CHECK_LAUNCH("shared-memory read kernel");
    stop.record(stream.get());
    stop.synchronize();
    return cuda::elapsed_seconds(start, stop);
  };
  run(1024);  // warm-up
  const double probe = run(16384);
  const unsigned iterations = unsigned(std::clamp(16384.0 * 0.02 / probe, 16384.0, 1e8));
  std::vector<double> times;
  for (int rep = 0; rep < 5; ++rep) times.push_back(run(iterations));
  const double reads = double(blocks) * kSharedThreads * 4.0 * double(iterations);
  return reads * 4.0 / median(times);
}

}  // namespace

DeviceLimits measure_device_limits(int gpu) {
  const cuda::DeviceGuard device(gpu);
  DeviceLimits limits;
  limits.device = cuda::device_description(gpu);
  int sms = 0, clock_khz = 0;
  RAPT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu));
  // The peak clock as an attribute (cudaDeviceProp lost its clock fields in CUDA 13); 0 if the
  // driver does not say.
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, gpu) != cudaSuccess) {
    cudaGetLastError();
    clock_khz = 0;
  }
  const cuda::Stream stream;
  limits.copy_bytes_per_s = copy_bandwidth(stream);
  limits.shared_bytes_per_s = shared_bandwidth(stream, sms);
  limits.shared_estimate_bytes_per_s = double(sms) * 128.0 * double(clock_khz) * 1e3;
  return limits;
}

}  // namespace rapt::gpu
