// The CUDA channeliser: ChanneliserEngine on one GPU. A call is worked through in chunks of
// frames (one chunk unless the block is larger than the device budget): each chunk's stretch
// of every input row goes up through page-locked staging (the host copying the next piece while
// the DMA engine moves the last), is channelised by ChanneliserPipeline on the engine's stream,
// and comes back through page-locked staging into its stretch of every output row. The
// filter's history never leaves the device.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "../cuda/device_buffer.hpp"
#include "io/voltage_samples.hpp"
#include "ppf/ppf_gpu_factory.hpp"
#include "ppf_gpu_pipeline.hpp"

namespace rapt::gpu {
namespace {

constexpr size_t kUploadPieceBytes = size_t(16) << 20;
constexpr double kChunkInputBytes = 1024.0 * 1048576.0;  // the default budget: 1 GiB of input
constexpr int64_t kMostChunkFrames = 2000000;            // the post kernel's grid: y < 65536 x 32

template <typename T, typename Memory>
void grow(cuda::OwnedBuffer<T, Memory>& buffer, size_t count) {
  if (buffer.size() >= count) return;
  buffer = cuda::OwnedBuffer<T, Memory>();
  buffer = cuda::OwnedBuffer<T, Memory>(count);
}

class GpuChanneliser final : public ChanneliserEngine {
 public:
  GpuChanneliser(const ChanneliserShape& shape, const std::vector<float>& prototype,
                 const ChanneliserCorrections& corrections, int gpu, int64_t max_chunk_frames)
      : ChanneliserEngine(shape), gpu_(gpu) {
    const cuda::DeviceGuard device(gpu_);
    const ChanneliserShape& s = this->shape();
    pairs_ = int64_t(s.nchan_in) * s.nant;
    input_floats_per_frame_ = pairs_ * s.frame() * s.npol * (s.real_input ? 1 : 2);
    output_floats_per_frame_ = int64_t(s.nchan_out()) * s.nant * s.npol * 2;
    chunk_limit_ = max_chunk_frames > 0
                       ? max_chunk_frames
                       : std::max<int64_t>(1, int64_t(kChunkInputBytes /
                                                      (4.0 * double(input_floats_per_frame_))));
    chunk_limit_ = std::min(chunk_limit_, kMostChunkFrames);
    pipeline_ = std::make_unique<ChanneliserPipeline>(s, prototype, corrections, 1);
  }

  std::string name() const override { return "gpu:" + std::to_string(gpu_); }

 private:
  void channelise(const float* input, int64_t nframes, float* out) override {
    const cuda::DeviceGuard device(gpu_);
    const ChanneliserShape& s = shape();
    const int64_t chunk = std::min(nframes, chunk_limit_);
    pipeline_->reserve(chunk);
    grow(input_staging_, size_t(chunk * input_floats_per_frame_));
    grow(input_, size_t(chunk * input_floats_per_frame_));
    grow(output_staging_, size_t(chunk * output_floats_per_frame_));
    grow(output_, size_t(chunk * output_floats_per_frame_ / 2));
    const cudaStream_t stream = pipeline_->stream();
    const int64_t row_floats = int64_t(s.frame()) * s.npol * (s.real_input ? 1 : 2);  // a frame
    for (int64_t f0 = 0; f0 < nframes; f0 += chunk) {
      const int64_t fc = std::min(chunk, nframes - f0);
      upload(input, nframes * row_floats, f0 * row_floats, fc * row_floats, stream);
      pipeline_->run(input_.get(), fc, output_.get());
      RAPT_CUDA_CHECK(cudaMemcpyAsync(output_staging_.get(), output_.get(),
                                      size_t(fc * output_floats_per_frame_) * sizeof(float),
                                      cudaMemcpyDeviceToHost, stream));
      RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));
      copy_time_range(output_staging_.get(), fc, 0, out, nframes, f0, fc,
                      int64_t(s.nchan_out()) * s.nant, int64_t(s.npol) * 2);
    }
  }

  // Floats [from, from + count) of every input row (rows of row_length floats, one per pair)
  // -> staging -> device, a piece at a time so the host's copying overlaps the transfer.
  void upload(const float* input, int64_t row_length, int64_t from, int64_t count,
              cudaStream_t stream) {
    float* staged = input_staging_.get();
    float* device = input_.get();
    size_t sent = 0, filled = 0;  // floats
    auto send = [&] {
      RAPT_CUDA_CHECK(cudaMemcpyAsync(device + sent, staged + sent, (filled - sent) * sizeof(float),
                                      cudaMemcpyHostToDevice, stream));
      sent = filled;
    };
    const size_t piece = kUploadPieceBytes / sizeof(float);
    for (int64_t pair = 0; pair < pairs_; ++pair) {
      const float* row = input + pair * row_length + from;
      for (int64_t done = 0; done < count;) {
        const size_t n = std::min<size_t>(size_t(count - done), piece - (filled - sent));
        std::memcpy(staged + filled, row + done, n * sizeof(float));
        filled += n;
        done += int64_t(n);
        if (filled - sent >= piece) send();
      }
    }
    if (filled > sent) send();
  }

  int gpu_;
  int64_t pairs_ = 0;
  int64_t input_floats_per_frame_ = 0;
  int64_t output_floats_per_frame_ = 0;
  int64_t chunk_limit_ = 1;
  std::unique_ptr<ChanneliserPipeline> pipeline_;
  cuda::PinnedBuffer<float> input_staging_;
  cuda::PinnedBuffer<float> output_staging_;
  cuda::DeviceBuffer<float> input_;
  cuda::DeviceBuffer<float2> output_;
};

}  // namespace
}  // namespace rapt::gpu

namespace rapt {

std::unique_ptr<ChanneliserEngine> make_cuda_channeliser(const ChanneliserShape& shape,
                                                         const std::vector<float>& prototype,
                                                         const ChanneliserCorrections& corrections,
                                                         int gpu_index, int64_t max_chunk_frames) {
  check_channeliser_inputs(shape, prototype, corrections);
  return std::make_unique<gpu::GpuChanneliser>(shape, prototype, corrections, gpu_index,
                                               max_chunk_frames);
}

std::unique_ptr<ChanneliserEngine> make_cuda_channeliser(const ChanneliserShape& shape,
                                                         const std::vector<float>& prototype,
                                                         const ChanneliserCorrections& corrections,
                                                         int gpu_index) {
  return make_cuda_channeliser(shape, prototype, corrections, gpu_index, 0);
}

}  // namespace rapt
