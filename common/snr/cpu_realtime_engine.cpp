// The real-time engine on the CPU: the dedispersion engine writes into host rows, the
// normaliser and the boxcar engine run on them as in the file search.
#include <algorithm>

#include "cli/errors.hpp"
#include "dedisp/parallel_for.hpp"
#include "snr/realtime_engine.hpp"
#include "snr/series_normaliser.hpp"
#include "snr/snr_gpu_factory.hpp"

namespace rapt {
namespace {

class CpuRealtimeEngine final : public RealtimeEngine {
 public:
  CpuRealtimeEngine(const RealtimeShape& shape, int threads)
      : shape_(shape),
        threads_(threads),
        ndm_(shape.plan.dms.size()),
        stride_(size_t(shape.history + shape.chunk)),
        dedisp_(make_cpu_dedisp_engine(shape.plan, threads)),
        boxcar_(make_cpu_boxcar_engine(shape.settings.widths, float(shape.settings.threshold),
                                       threads)),
        rows_(ndm_ * stride_, 0.0f) {}

  void dedisperse(const SpectraBlock& block) override {
    dedisp_->execute(block, rows_.data() + shape_.history, stride_);
  }

  std::vector<double> detrend(int blocks) override {
    const int64_t len = shape_.settings.detrend_len;
    const int ds = shape_.plan.downsamp;
    std::vector<double> sigma(ndm_ * size_t(blocks));
    parallel_for(threads_, ndm_, [&](size_t d, int) {
      float* row = rows_.data() + d * stride_ + shape_.history;
      // The engine sums `ds` spectra a sample; dedisp's series are their mean.
      if (ds > 1)
        for (int64_t i = 0; i < int64_t(blocks) * len; ++i) row[i] /= float(ds);
      for (int b = 0; b < blocks; ++b)
        sigma[d * size_t(blocks) + size_t(b)] = detrend_block(
            row + int64_t(b) * len, len, shape_.settings.baseline, shape_.settings.noise);
    });
    return sigma;
  }

  std::vector<BoxcarHit> search(const std::vector<float>& scale, int blocks) override {
    const int64_t len = shape_.settings.detrend_len;
    const int64_t length = shape_.history + int64_t(blocks) * len;
    std::vector<float> packed(ndm_ * size_t(length));
    parallel_for(threads_, ndm_, [&](size_t d, int) {
      float* row = rows_.data() + d * stride_;
      for (int b = 0; b < blocks; ++b) {
        float* block = row + shape_.history + int64_t(b) * len;
        const float f = scale[d * size_t(blocks) + size_t(b)];
        for (int64_t i = 0; i < len; ++i) block[i] = f == 0.0f ? 0.0f : block[i] * f;
      }
      std::copy(row, row + length, packed.begin() + int64_t(d) * length);
    });
    return boxcar_->find_hits(packed, int64_t(ndm_), length);
  }

  void shift(int blocks) override {
    const int64_t from = int64_t(blocks) * shape_.settings.detrend_len;
    for (size_t d = 0; d < ndm_; ++d) {
      float* row = rows_.data() + d * stride_;
      std::copy(row + from, row + from + shape_.history, row);
    }
  }

  int32_t max_delay() const override { return dedisp_->max_delay(); }
  std::string name() const override { return "cpu x" + std::to_string(threads_); }

 private:
  RealtimeShape shape_;
  int threads_;
  size_t ndm_;
  size_t stride_;
  std::unique_ptr<DedispEngine> dedisp_;
  std::unique_ptr<BoxcarEngine> boxcar_;
  std::vector<float> rows_;
};

}  // namespace

std::unique_ptr<RealtimeEngine> make_cpu_realtime_engine(const RealtimeShape& shape, int threads) {
  return std::make_unique<CpuRealtimeEngine>(shape, threads);
}

std::unique_ptr<RealtimeEngine> make_gpu_realtime_engine(const RealtimeShape& shape, int gpu) {
#ifdef RAPT_WITH_CUDA
  return make_cuda_realtime_engine(shape, gpu);
#else
  (void)shape, (void)gpu;
  throw UsageError("the GPU engine needs a build with CUDA");
#endif
}

}  // namespace rapt
