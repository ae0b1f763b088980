// The boxcar search of series that are already on the GPU: widths and scales on the device, a
// hit list that grows when a search overflows it (the search then runs again), and one call
// that searches a set of rows and returns their hits. The boxcar engine and the fused search
// both run it.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "../cuda/device_buffer.hpp"
#include "snr/boxcar_engine.hpp"
#include "snr_boxcar_params.hpp"

namespace rapt::gpu {

class DeviceBoxcarSearch {
 public:
  // On the current device. Throws UsageError for a width the device cannot take.
  DeviceBoxcarSearch(const std::vector<int>& widths, float threshold, int gpu);

  // Searches `n` rows of `length` samples, `row_stride` floats apart, from `series` (device
  // memory) on `stream`, and appends their hits (series numbers offset by `first_series`), in
  // no particular order. Returns when the hits are on the host.
  void search(const float* series, int64_t row_stride, int first_series, int n, int64_t length,
              cudaStream_t stream, std::vector<BoxcarHit>& out);

  // search() in its two steps, for callers that time the kernel: launch() queues the search;
  // collect() waits for it and appends its hits, or, when they overflowed the list, grows the
  // list and returns false (launch again).
  void launch(const float* series, int64_t row_stride, int first_series, int n, int64_t length,
              cudaStream_t stream);
  bool collect(cudaStream_t stream, std::vector<BoxcarHit>& out);

 private:
  std::vector<int> widths_;
  float threshold_;
  cuda::DeviceBuffer<int> widths_dev_;
  cuda::DeviceBuffer<float> scales_dev_;
  cuda::DeviceBuffer<DeviceBoxcarHit> hits_;
  cuda::DeviceBuffer<unsigned long long> count_;
};

}  // namespace rapt::gpu
