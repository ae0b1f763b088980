#include "snr_device_search.hpp"

#include <cmath>
#include <string>

#include "cli/errors.hpp"
#include "snr_boxcar_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr size_t kInitialHitCapacity = size_t(1) << 18;

}  // namespace

DeviceBoxcarSearch::DeviceBoxcarSearch(const std::vector<int>& widths, float threshold, int gpu)
    : widths_(widths), threshold_(threshold) {
  if (widths_.empty()) throw UsageError("no boxcar widths");
  const int limit = max_supported_boxcar_width(gpu);
  if (widths_.back() > limit)
    throw UsageError("the GPU engine handles boxcars up to " + std::to_string(limit) +
                     " samples; use --device cpu for " + std::to_string(widths_.back()));
  std::vector<float> scales;
  for (int w : widths_) scales.push_back(float(1.0 / std::sqrt(double(w))));
  widths_dev_ = cuda::DeviceBuffer<int>(widths_.size());
  scales_dev_ = cuda::DeviceBuffer<float>(scales.size());
  RAPT_CUDA_CHECK(cudaMemcpy(widths_dev_.get(), widths_.data(), widths_dev_.bytes(),
                             cudaMemcpyHostToDevice));
  RAPT_CUDA_CHECK(cudaMemcpy(scales_dev_.get(), scales.data(), scales_dev_.bytes(),
                             cudaMemcpyHostToDevice));
  count_ = cuda::DeviceBuffer<unsigned long long>(1);
  hits_ = cuda::DeviceBuffer<DeviceBoxcarHit>(kInitialHitCapacity);
}

void DeviceBoxcarSearch::search(const float* series, int64_t row_stride, int first_series, int n,
                                int64_t length, cudaStream_t stream,
                                std::vector<BoxcarHit>& out) {
  do launch(series, row_stride, first_series, n, length, stream);
  while (!collect(stream, out));
}

void DeviceBoxcarSearch::launch(const float* series, int64_t row_stride, int first_series, int n,
                                int64_t length, cudaStream_t stream) {
  BoxcarKernelParams p;
  p.series = series;
  p.length = length;
  p.row_stride = row_stride;
  p.num_series = n;
  p.first_series = first_series;
  p.widths = widths_dev_.get();
  p.scales = scales_dev_.get();
  p.num_widths = int(widths_.size());
  p.max_width = widths_.back();
  p.threshold = threshold_;
  p.default_widths = uses_default_boxcar_widths(widths_.data(), int(widths_.size()));
  p.count = count_.get();
  p.hits = hits_.get();
  p.capacity = hits_.size();
  RAPT_CUDA_CHECK(cudaMemsetAsync(count_.get(), 0, sizeof(unsigned long long), stream));
  launch_boxcar_search(p, stream);
}

bool DeviceBoxcarSearch::collect(cudaStream_t stream, std::vector<BoxcarHit>& out) {
  unsigned long long found = 0;
  RAPT_CUDA_CHECK(
      cudaMemcpyAsync(&found, count_.get(), sizeof found, cudaMemcpyDeviceToHost, stream));
  RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (found > hits_.size()) {
    hits_ = cuda::DeviceBuffer<DeviceBoxcarHit>();
    hits_ = cuda::DeviceBuffer<DeviceBoxcarHit>(size_t(found));
    return false;
  }
  std::vector<DeviceBoxcarHit> host(static_cast<size_t>(found));
  if (found > 0)
    RAPT_CUDA_CHECK(cudaMemcpy(host.data(), hits_.get(), sizeof(DeviceBoxcarHit) * host.size(),
                               cudaMemcpyDeviceToHost));
  for (const DeviceBoxcarHit& h : host)
    out.push_back(BoxcarHit{h.series, h.width_index, h.sample, h.snr});
  return true;
}

}  // namespace rapt::gpu
