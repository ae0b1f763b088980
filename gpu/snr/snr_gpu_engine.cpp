// The CUDA boxcar engine: BoxcarEngine on one GPU. Series go up in batches that fit a fixed
// device budget; one kernel launch searches every series and width of a batch; the compacted
// hits come back (snr_device_search.hpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "cli/errors.hpp"
#include "../cuda/device_buffer.hpp"
#include "snr/snr_gpu_factory.hpp"
#include "snr_device_search.hpp"

namespace rapt::gpu {
namespace {

constexpr size_t kBatchBytes = size_t(1) << 30;

// Makes `gpu` current before any member (the stream) is created on it.
int select_device(int gpu) {
  RAPT_CUDA_CHECK(cudaSetDevice(gpu));
  return gpu;
}

class GpuBoxcarEngine final : public BoxcarEngine {
 public:
  GpuBoxcarEngine(std::vector<int> widths, float threshold, int gpu)
      : BoxcarEngine(std::move(widths), threshold),
        gpu_(select_device(gpu)),
        search_(this->widths(), threshold, gpu_) {}
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
      search_.search(input_.get(), length, int(first), int(n), length, stream_.get(), hits);
    }
    sort_boxcar_hits(hits);
    return hits;
  }

  int gpu_;
  cuda::Stream stream_;
  DeviceBoxcarSearch search_;
  cuda::DeviceBuffer<float> input_;
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
