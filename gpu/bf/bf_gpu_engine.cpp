// The CUDA beam former: BeamformerEngine on one GPU. A block goes up through page-locked staging
// (copied in chunks, each chunk's transfer overlapping the copy of the next into staging), is
// formed by BeamformerPipeline on the engine's stream, and only the outputs asked for come back
// (complex beams never leave the GPU unless the coherent output is asked for).
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "../cuda/device_buffer.hpp"
#include "bf/bf_gpu_factory.hpp"
#include "bf_gpu_engine_choice.hpp"
#include "bf_gpu_pipeline.hpp"

namespace rapt::gpu {
namespace {

constexpr size_t kUploadChunkBytes = size_t(16) << 20;

// Frees, then allocates, when `buffer` holds fewer than `count` elements (never shrinks).
template <typename T, typename Memory>
void grow(cuda::OwnedBuffer<T, Memory>& buffer, size_t count) {
  if (buffer.size() >= count) return;
  buffer = cuda::OwnedBuffer<T, Memory>();
  buffer = cuda::OwnedBuffer<T, Memory>(count);
}

class GpuBeamformer final : public BeamformerEngine {
 public:
  GpuBeamformer(const BeamformerShape& shape, int gpu, const BfPipelineOptions& options)
      : BeamformerEngine(shape), gpu_(gpu) {
    const cuda::DeviceGuard device(gpu_);
    pipeline_ = std::make_unique<BeamformerPipeline>(this->shape(), options);
  }
  std::string name() const override { return "gpu:" + std::to_string(gpu_); }

 private:
  void load_weights(const BeamWeights& weights) override {
    const cuda::DeviceGuard device(gpu_);
    pipeline_->upload_weights(weights.weights.data(), weights.station_scale.data());
  }

  void compute(const float* voltages, int64_t nsamples, const uint8_t* flags,
               BeamBlockOutput& out) override {
    const cuda::DeviceGuard device(gpu_);
    const BeamformerShape& s = shape();
    const cudaStream_t stream = pipeline_->stream();
    const size_t values = size_t(s.nchan) * s.nant * size_t(nsamples) * s.npol;  // complex
    grow(staging_, values);
    grow(voltages_, values);
    upload(voltages, values * sizeof(float2), stream);
    if (flags) {
      grow(flag_staging_, size_t(nsamples));
      grow(flags_, size_t(nsamples));
      std::memcpy(flag_staging_.get(), flags, size_t(nsamples));
      RAPT_CUDA_CHECK(cudaMemcpyAsync(flags_.get(), flag_staging_.get(), size_t(nsamples),
                                      cudaMemcpyHostToDevice, stream));
    }
    pipeline_->run(voltages_.get(), flags ? flags_.get() : nullptr, nsamples);
    download(out.detected, pipeline_->detected(), stream);
    download(out.coherent, pipeline_->coherent(), stream);
    download(out.incoherent, pipeline_->incoherent(), stream);
    RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  // Host block -> staging -> device, chunk by chunk: the host copies chunk k + 1 while the
  // DMA engine moves chunk k.
  void upload(const float* host, size_t bytes, cudaStream_t stream) {
    const char* src = reinterpret_cast<const char*>(host);
    char* staged = reinterpret_cast<char*>(staging_.get());
    char* dst = reinterpret_cast<char*>(voltages_.get());
    for (size_t at = 0; at < bytes; at += kUploadChunkBytes) {
      const size_t n = std::min(kUploadChunkBytes, bytes - at);
      std::memcpy(staged + at, src + at, n);
      RAPT_CUDA_CHECK(cudaMemcpyAsync(dst + at, staged + at, n, cudaMemcpyHostToDevice, stream));
    }
  }

  static void download(std::vector<float>& host, const float* device, cudaStream_t stream) {
    if (host.empty() || !device) return;
    RAPT_CUDA_CHECK(cudaMemcpyAsync(host.data(), device, host.size() * sizeof(float),
                                    cudaMemcpyDeviceToHost, stream));
  }

  int gpu_;
  std::unique_ptr<BeamformerPipeline> pipeline_;
  cuda::PinnedBuffer<float2> staging_;
  cuda::PinnedBuffer<uint8_t> flag_staging_;
  cuda::DeviceBuffer<float2> voltages_;
  cuda::DeviceBuffer<uint8_t> flags_;
};

}  // namespace
}  // namespace rapt::gpu

namespace rapt {

std::unique_ptr<BeamformerEngine> make_cuda_beamformer(const BeamformerShape& shape,
                                                       int gpu_index) {
  return std::make_unique<gpu::GpuBeamformer>(shape, gpu_index, gpu::BfPipelineOptions{});
}

std::unique_ptr<BeamformerEngine> make_cuda_beamformer(const BeamformerShape& shape,
                                                       int gpu_index, size_t group_bytes) {
  gpu::BfPipelineOptions options;
  options.group_bytes = group_bytes;
  return std::make_unique<gpu::GpuBeamformer>(shape, gpu_index, options);
}

std::unique_ptr<BeamformerEngine> make_cuda_beamformer(const BeamformerShape& shape,
                                                       int gpu_index,
                                                       const CudaBeamformerChoice& choice) {
  gpu::BfPipelineOptions options;
  if (choice.group_bytes > 0) options.group_bytes = choice.group_bytes;
  options.fused_fp16 = choice.fused_fp16;
  return std::make_unique<gpu::GpuBeamformer>(shape, gpu_index, options);
}

}  // namespace rapt
