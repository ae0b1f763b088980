// The CUDA boxcar engine: BoxcarEngine on one GPU. Series go up in batches that fit a fixed
// device budget; one kernel launch searches every series and width of a batch; the compacted
// hits come back (a batch whose hits overflow the list is run again with a list that fits).
#include <algorithm>
#include <cmath>
#include <string>

#include "cli/errors.hpp"
#include "../cuda/device_buffer.hpp"
#include "snr/snr_gpu_factory.hpp"
#include "snr_boxcar_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr size_t kBatchBytes = size_t(1) << 30;
constexpr size_t kInitialHitCapacity = size_t(1) << 18;

// Makes `gpu` current before any member (the stream) is created on it.
int select_device(int gpu) {
  RAPT_CUDA_CHECK(cudaSetDevice(gpu));
  return gpu;
}

class GpuBoxcarEngine final : public BoxcarEngine {
 public:
  GpuBoxcarEngine(std::vector<int> widths, float threshold, int gpu)
      : BoxcarEngine(std::move(widths), threshold), gpu_(select_device(gpu)) {
    const int limit = max_supported_boxcar_width(gpu_);
    if (this->widths().back() > limit)
      throw UsageError("the GPU engine handles boxcars up to " + std::to_string(limit) +
                       " samples; use --device cpu for " + std::to_string(this->widths().back()));
    std::vector<float> scales;
    for (int w : this->widths()) scales.push_back(float(1.0 / std::sqrt(double(w))));
    widths_dev_ = cuda::DeviceBuffer<int>(this->widths().size());
    scales_dev_ = cuda::DeviceBuffer<float>(scales.size());
    RAPT_CUDA_CHECK(cudaMemcpy(widths_dev_.get(), this->widths().data(), widths_dev_.bytes(),
                               cudaMemcpyHostToDevice));
    RAPT_CUDA_CHECK(cudaMemcpy(scales_dev_.get(), scales.data(), scales_dev_.bytes(),
                               cudaMemcpyHostToDevice));
    count_ = cuda::DeviceBuffer<unsigned long long>(1);
    hits_ = cuda::DeviceBuffer<DeviceBoxcarHit>(kInitialHitCapacity);
  }
  std::string name() const override { return "gpu:" + std::to_string(gpu_); }

 private:
  std::vector<BoxcarHit> compute_hits(const float* series, int64_t num_series,
                                      int64_t length) override {
    RAPT_CUDA_CHECK(cudaSetDevice(gpu_));
    const int64_t rows = std::max<int64_t>(
        1, std::min<int64_t>(num_series, int64_t(kBatchBytes / (sizeof(float) * size_t(length)))));
    if (input_.size() < size_t(rows * length)) {
      input_ = cuda::DeviceBuffer<float>();
      input_ = cuda::DeviceBuffer<float>(size_t(rows * length));
    }
    std::vector<BoxcarHit> hits;
    for (int64_t first = 0; first < num_series; first += rows) {
      const int64_t n = std::min(rows, num_series - first);
      RAPT_CUDA_CHECK(cudaMemcpyAsync(input_.get(), series + first * length,
                                      sizeof(float) * size_t(n * length), cudaMemcpyHostToDevice,
                                      stream_.get()));
      search_resident(int(first), int(n), length, hits);
    }
    sort_boxcar_hits(hits);
    return hits;
  }

  void search_resident(int first_series, int n, int64_t length, std::vector<BoxcarHit>& out) {
    BoxcarKernelParams p;
    p.series = input_.get();
    p.length = length;
    p.num_series = n;
    p.first_series = first_series;
    p.widths = widths_dev_.get();
    p.scales = scales_dev_.get();
    p.num_widths = int(widths().size());
    p.max_width = widths().back();
    p.threshold = threshold();
    p.default_widths = uses_default_boxcar_widths(widths().data(), int(widths().size()));
    p.count = count_.get();
    unsigned long long found = 0;
    for (int attempt = 0; attempt < 2; ++attempt) {
      RAPT_CUDA_CHECK(cudaMemsetAsync(count_.get(), 0, sizeof(unsigned long long), stream_.get()));
      p.hits = hits_.get();
      p.capacity = hits_.size();
      launch_boxcar_search(p, stream_.get());
      RAPT_CUDA_CHECK(cudaMemcpyAsync(&found, count_.get(), sizeof found, cudaMemcpyDeviceToHost,
                                      stream_.get()));
      stream_.synchronize();
      if (found <= hits_.size()) break;
      hits_ = cuda::DeviceBuffer<DeviceBoxcarHit>();
      hits_ = cuda::DeviceBuffer<DeviceBoxcarHit>(size_t(found));
    }
    std::vector<DeviceBoxcarHit> host(static_cast<size_t>(found));
    if (found > 0)
      RAPT_CUDA_CHECK(cudaMemcpy(host.data(), hits_.get(), sizeof(DeviceBoxcarHit) * host.size(),
                                 cudaMemcpyDeviceToHost));
    for (const DeviceBoxcarHit& h : host)
      out.push_back(BoxcarHit{h.series, h.width_index, h.sample, h.snr});
  }

  int gpu_;
  cuda::Stream stream_;
  cuda::DeviceBuffer<int> widths_dev_;
  cuda::DeviceBuffer<float> scales_dev_;
  cuda::DeviceBuffer<float> input_;
  cuda::DeviceBuffer<DeviceBoxcarHit> hits_;
  cuda::DeviceBuffer<unsigned long long> count_;
};

}  // namespace
}  // namespace rapt::gpu

namespace rapt {

std::unique_ptr<BoxcarEngine> make_cuda_boxcar_engine(std::vector<int> widths, float threshold,
                                                      int gpu_index) {
  if (widths.empty()) throw UsageError("no boxcar widths");
  return std::make_unique<gpu::GpuBoxcarEngine>(std::move(widths), threshold, gpu_index);
}

}  // namespace rapt
