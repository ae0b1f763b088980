// Pinned host buffers (gpu/cuda/device_buffer.cpp): small ones from cudaMallocHost, large ones
// on huge pages registered with CUDA. Both must carry asynchronous copies both ways, and a
// large one released while a copy still reads it must wait for that copy. Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/cuda/device_buffer.hpp"
#endif

namespace {

#ifdef RAPT_WITH_CUDA
using rapt::cuda::DeviceBuffer;
using rapt::cuda::PinnedBuffer;
using rapt::cuda::Stream;

uint8_t pattern(size_t k) { return uint8_t((k * 2654435761u) >> 13); }

void fill(uint8_t* p, size_t n) {
  for (size_t k = 0; k < n; ++k) p[k] = pattern(k);
}

size_t count_wrong(const uint8_t* p, size_t n) {
  size_t wrong = 0;
  for (size_t k = 0; k < n; ++k) wrong += p[k] != pattern(k);
  return wrong;
}

// Below and above the size from which pinned buffers are registered large buffers (4 MiB),
// and one not a whole number of pages.
TEST(PinnedBuffer, CarriesCopiesToTheGpuAndBack) {
  if (rapt::gpu_device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine";
  for (const size_t bytes : {size_t(1) << 20, (size_t(4) << 20) + 12345, size_t(40) << 20}) {
    SCOPED_TRACE(bytes);
    PinnedBuffer<uint8_t> up(bytes), down(bytes);
    DeviceBuffer<uint8_t> device(bytes);
    fill(up.get(), bytes);
    Stream stream;
    ASSERT_EQ(cudaMemcpyAsync(device.get(), up.get(), bytes, cudaMemcpyHostToDevice, stream.get()),
              cudaSuccess);
    ASSERT_EQ(cudaMemcpyAsync(down.get(), device.get(), bytes, cudaMemcpyDeviceToHost,
                              stream.get()),
              cudaSuccess);
    stream.synchronize();
    EXPECT_EQ(count_wrong(down.get(), bytes), 0u);
  }
}

// Released while its upload may still run (the upload queued behind a slower one on the same
// stream): the release waits, so the device still receives every byte as it was.
TEST(PinnedBuffer, ALargeBufferReleasedDuringItsCopyWaitsForIt) {
  if (rapt::gpu_device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine";
  const size_t bytes = size_t(64) << 20;
  DeviceBuffer<uint8_t> device(bytes), scratch(size_t(512) << 20);
  std::vector<uint8_t> back(bytes);
  Stream stream;
  {
    PinnedBuffer<uint8_t> up(bytes);
    fill(up.get(), bytes);
    for (int k = 0; k < 8; ++k)  // device work ahead of the upload
      ASSERT_EQ(cudaMemsetAsync(scratch.get(), k, scratch.bytes(), stream.get()), cudaSuccess);
    ASSERT_EQ(cudaMemcpyAsync(device.get(), up.get(), bytes, cudaMemcpyHostToDevice, stream.get()),
              cudaSuccess);
  }  // released here
  ASSERT_EQ(cudaMemcpy(back.data(), device.get(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(count_wrong(back.data(), bytes), 0u);
}
#else
TEST(PinnedBuffer, NeedsACudaBuild) {
  GTEST_SKIP() << "built without CUDA (RAPT_WITH_CUDA unset): no pinned buffers";
}
#endif

}  // namespace
