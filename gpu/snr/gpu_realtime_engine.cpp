// The real-time engine on one GPU: the rows live in device memory; dedispersion writes into
// them, the normalisation and boxcar kernels of the fused search run on them, and only the
// sigmas (a few numbers per row) and the hits come back. The history is moved to the front of
// each row with one strided device copy.
#include <algorithm>
#include <string>
#include <vector>

#include "../cuda/device_buffer.hpp"
#include "../dedisp/dedisp_gpu_options.hpp"
#include "cli/errors.hpp"
#include "snr/snr_gpu_factory.hpp"
#include "snr_device_search.hpp"
#include "snr_normalise_kernels.hpp"

namespace rapt::gpu {
namespace {

class GpuRealtimeEngine final : public RealtimeEngine {
 public:
  GpuRealtimeEngine(const RealtimeShape& shape, int gpu)
      : shape_(shape),
        gpu_(gpu),
        guard_(gpu),
        ndm_(shape.plan.dms.size()),
        stride_(size_t(shape.history + shape.chunk)),
        dedisp_(make_device_dedisp_engine(shape.plan, gpu, GpuDedispOptions{})),
        search_(shape.settings.widths, float(shape.settings.threshold), gpu),
        detrend_(detrend_params(shape.settings)) {
    const int ds = shape.plan.downsamp;
    if (ds < 1 || (ds & (ds - 1)) != 0)
      throw UsageError("the real-time search on a GPU downsamples by powers of two, not " +
                       std::to_string(ds));
    const size_t max_blocks = size_t(shape.chunk / shape.settings.detrend_len);
    rows_ = cuda::DeviceBuffer<float>(ndm_ * stride_);
    RAPT_CUDA_CHECK(cudaMemsetAsync(rows_.get(), 0, rows_.bytes(), stream_.get()));
    whole_ = cuda::DeviceBuffer<int32_t>(ndm_);
    sigma_ = cuda::DeviceBuffer<double>(ndm_ * max_blocks);
    scale_ = cuda::DeviceBuffer<float>(ndm_ * max_blocks);
    stream_.synchronize();
  }

  void dedisperse(const SpectraBlock& block) override {
    const cuda::DeviceGuard device(gpu_);
    dedisp_->execute_to_device(block, rows_.get() + shape_.history, stride_);
  }

  std::vector<double> detrend(int blocks) override {
    const cuda::DeviceGuard device(gpu_);
    dedisp_->synchronize();  // the rows are written on the engine's streams
    launch_sums_to_means(rows_.get() + shape_.history, int64_t(stride_), int(ndm_), blocks,
                         int(shape_.settings.detrend_len), shape_.plan.downsamp, scale_.get(),
                         stream_.get());
    const std::vector<int32_t> whole(ndm_, blocks);
    RAPT_CUDA_CHECK(cudaMemcpyAsync(whole_.get(), whole.data(), whole.size() * sizeof(int32_t),
                                    cudaMemcpyHostToDevice, stream_.get()));
    DetrendParams p = detrend_;
    p.series = rows_.get() + shape_.history;
    p.row_stride = int64_t(stride_);
    p.num_series = int(ndm_);
    p.whole_blocks = whole_.get();
    p.max_blocks = blocks;
    p.sigma = sigma_.get();
    launch_detrend_blocks(p, stream_.get());
    std::vector<double> sigma(ndm_ * size_t(blocks));
    RAPT_CUDA_CHECK(cudaMemcpyAsync(sigma.data(), sigma_.get(), sigma.size() * sizeof(double),
                                    cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
    return sigma;
  }

  std::vector<BoxcarHit> search(const std::vector<float>& scale, int blocks) override {
    const cuda::DeviceGuard device(gpu_);
    if (blocks > 0) {  // none at the end of the data, when only the history is searched
      RAPT_CUDA_CHECK(cudaMemcpyAsync(scale_.get(), scale.data(), scale.size() * sizeof(float),
                                      cudaMemcpyHostToDevice, stream_.get()));
      launch_scale_blocks(rows_.get() + shape_.history, int64_t(stride_), int(ndm_), blocks,
                          int(shape_.settings.detrend_len), scale_.get(), stream_.get());
    }
    std::vector<BoxcarHit> hits;
    const int64_t length = shape_.history + int64_t(blocks) * shape_.settings.detrend_len;
    search_.search(rows_.get(), int64_t(stride_), 0, int(ndm_), length, stream_.get(), hits);
    sort_boxcar_hits(hits);
    return hits;
  }

  void shift(int blocks) override {
    const cuda::DeviceGuard device(gpu_);
    const int64_t from = int64_t(blocks) * shape_.settings.detrend_len;  // >= history
    RAPT_CUDA_CHECK(cudaMemcpy2DAsync(rows_.get(), stride_ * sizeof(float), rows_.get() + from,
                                      stride_ * sizeof(float),
                                      size_t(shape_.history) * sizeof(float), ndm_,
                                      cudaMemcpyDeviceToDevice, stream_.get()));
    stream_.synchronize();
  }

  int32_t max_delay() const override { return dedisp_->max_delay(); }
  std::string name() const override { return dedisp_->name(); }

 private:
  RealtimeShape shape_;
  int gpu_;
  cuda::DeviceGuard guard_;  // members below are made on this GPU
  size_t ndm_;
  size_t stride_;
  std::unique_ptr<DeviceDedispEngine> dedisp_;
  DeviceBoxcarSearch search_;
  DetrendParams detrend_;  // from the settings; rows filled in per call
  cuda::Stream stream_;
  cuda::DeviceBuffer<float> rows_;
  cuda::DeviceBuffer<int32_t> whole_;
  cuda::DeviceBuffer<double> sigma_;
  cuda::DeviceBuffer<float> scale_;
};

}  // namespace
}  // namespace rapt::gpu

namespace rapt {

std::unique_ptr<RealtimeEngine> make_cuda_realtime_engine(const RealtimeShape& shape, int gpu) {
  return std::make_unique<gpu::GpuRealtimeEngine>(shape, gpu);
}

}  // namespace rapt
