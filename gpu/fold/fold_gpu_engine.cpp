// The CUDA folding engine: each block of samples is copied to the device once and folded there
// into a double-precision cube that stays on the device until cube() asks for it.
#include <algorithm>
#include <vector>

#include "../cuda/cuda_check.hpp"
#include "../cuda/device_buffer.hpp"
#include "fold/fold_gpu_factory.hpp"
#include "fold_kernels.hpp"

namespace rapt {
namespace {

using cuda::DeviceBuffer;
using cuda::FoldChunk;

constexpr int64_t kSamplesPerChunk = 8192;

class GpuFoldEngine final : public FoldEngine {
 public:
  GpuFoldEngine(const FoldLayout& layout, int gpu_index)
      : FoldEngine(layout), gpu_index_(gpu_index), count_(layout.cells(), 0) {
    cuda::DeviceGuard guard(gpu_index_);
    stream_ = std::make_unique<cuda::Stream>();
    const size_t cells = layout.cells();
    sums_ = DeviceBuffer<double>(cells * size_t(layout.nbins));
    weights_ = DeviceBuffer<double>(size_t(layout.npart) * size_t(layout.nbins));
    data_sum_ = DeviceBuffer<double>(cells);
    data_sumsq_ = DeviceBuffer<double>(cells);
    for (const auto* buffer : {&sums_, &weights_, &data_sum_, &data_sumsq_}) {
      RAPT_CUDA_CHECK(cudaMemsetAsync(buffer->get(), 0, buffer->bytes(), stream_->get()));
    }
  }

  std::string name() const override { return "gpu:" + std::to_string(gpu_index_); }

 private:
  void do_fold(const float* in, size_t stride, int64_t first, size_t n) override {
    cuda::DeviceGuard guard(gpu_index_);
    const FoldLayout& l = layout();
    const size_t nsub = size_t(l.nsub);
    const size_t row = l.nsub > 1 ? stride : n;
    if (staging_.size() < nsub * n) staging_ = cuda::PinnedBuffer<float>(nsub * n);
    for (size_t sub = 0; sub < nsub; ++sub) {
      std::copy_n(in + sub * row, n, staging_.get() + sub * n);
    }
    if (block_.size() < nsub * n) block_ = DeviceBuffer<float>(nsub * n);
    const std::vector<FoldChunk> chunks = chunks_of(first, n);
    if (chunks_.size() < chunks.size()) chunks_ = DeviceBuffer<FoldChunk>(chunks.size());
    const cudaStream_t stream = stream_->get();
    RAPT_CUDA_CHECK(cudaMemcpyAsync(block_.get(), staging_.get(), nsub * n * sizeof(float),
                                    cudaMemcpyHostToDevice, stream));
    RAPT_CUDA_CHECK(cudaMemcpyAsync(chunks_.get(), chunks.data(),
                                    chunks.size() * sizeof(FoldChunk), cudaMemcpyHostToDevice,
                                    stream));
    const cuda::FoldKernelLayout kernel_layout{l.dt_s, l.spin.f_hz, l.spin.fdot, l.spin.fddot,
                                               l.nsub, l.nbins};
    cuda::launch_fold_chunks(block_.get(), n, chunks_.get(), int(chunks.size()), kernel_layout,
                             sums_.get(), weights_.get(), data_sum_.get(), data_sumsq_.get(),
                             stream);
    // The staging buffer and the chunk table are reused by the next block.
    stream_->synchronize();
  }

  // The block cut at part boundaries and into pieces of at most kSamplesPerChunk samples.
  std::vector<FoldChunk> chunks_of(int64_t first, size_t n) {
    const FoldLayout& l = layout();
    std::vector<FoldChunk> chunks;
    const int64_t end = first + int64_t(n);
    for (int64_t start = first; start < end;) {
      const int part = l.part_of(start);
      const int64_t part_end = part + 1 < l.npart ? l.part_start(part + 1) : l.total_samples;
      const int64_t stop = std::min(end, part_end);
      for (int64_t a = start; a < stop; a += kSamplesPerChunk) {
        chunks.push_back({a, std::min(stop, a + kSamplesPerChunk), a - first, part});
      }
      for (int sub = 0; sub < l.nsub; ++sub) {
        count_[size_t(part) * l.nsub + sub] += stop - start;
      }
      start = stop;
    }
    return chunks;
  }

  FoldCube do_cube() const override {
    cuda::DeviceGuard guard(gpu_index_);
    const FoldLayout& l = layout();
    std::vector<double> sums(sums_.size()), weights(weights_.size());
    FoldCube cube;
    cube.npart = l.npart;
    cube.nsub = l.nsub;
    cube.nbins = l.nbins;
    cube.data_sum.resize(data_sum_.size());
    cube.data_sumsq.resize(data_sumsq_.size());
    RAPT_CUDA_CHECK(cudaMemcpy(sums.data(), sums_.get(), sums_.bytes(), cudaMemcpyDeviceToHost));
    RAPT_CUDA_CHECK(cudaMemcpy(weights.data(), weights_.get(), weights_.bytes(),
                               cudaMemcpyDeviceToHost));
    RAPT_CUDA_CHECK(cudaMemcpy(cube.data_sum.data(), data_sum_.get(), data_sum_.bytes(),
                               cudaMemcpyDeviceToHost));
    RAPT_CUDA_CHECK(cudaMemcpy(cube.data_sumsq.data(), data_sumsq_.get(), data_sumsq_.bytes(),
                               cudaMemcpyDeviceToHost));
    cube.sums.assign(sums.begin(), sums.end());
    cube.weights.resize(cube.sums.size());
    for (int part = 0; part < l.npart; ++part) {
      for (int sub = 0; sub < l.nsub; ++sub) {
        std::copy_n(&weights[size_t(part) * l.nbins], l.nbins,
                    &cube.weights[cube.cell(part, sub) * l.nbins]);
      }
    }
    cube.count = count_;
    return cube;
  }

  int gpu_index_;
  std::unique_ptr<cuda::Stream> stream_;
  DeviceBuffer<double> sums_, weights_, data_sum_, data_sumsq_;
  DeviceBuffer<float> block_;
  DeviceBuffer<FoldChunk> chunks_;
  cuda::PinnedBuffer<float> staging_;
  std::vector<int64_t> count_;
};

}  // namespace

std::unique_ptr<FoldEngine> make_gpu_fold_engine(const FoldLayout& layout, int gpu_index) {
  return std::make_unique<GpuFoldEngine>(layout, gpu_index);
}

}  // namespace rapt
