// The CUDA correlator: CorrelatorEngine on one GPU.
//
// A block is cut into chunks (channels x at most kInt8SafeSamples samples, 4096 for fp16,
// bounded in bytes).
// Host threads pack a chunk into one of two page-locked buffers (corr_pack.hpp); the copy
// engine moves it to the GPU on one stream while the kernel of the previous chunk runs on
// another; the kernel adds the chunk's products to the sums, which stay on the GPU until take()
// (the first chunk of an integration stores them instead: its sums need not be read).
// So the host packs chunk k + 1 while chunk k crosses the bus and chunk k - 1 is correlated.
// accumulate() returns once its last chunk is packed and queued; take() waits for the GPU.
// int8 sums are int32 pairs, exact up to kInt8SafeSamples samples: an integration that would
// pass that adds them into 64-bit sums and starts them again. The 64-bit sums (16 bytes a
// visibility, on the GPU) are made the first time an integration needs them.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../cuda/cuda_device_query.hpp"
#include "../cuda/device_buffer.hpp"
#include "cli/errors.hpp"
#include "corr/corr_gpu_factory.hpp"
#include "corr_gpu_engine_options.hpp"
#include "corr_kernels.hpp"
#include "corr_pack.hpp"

namespace rapt::gpu {
namespace {

// fp16: the tensor cores sum a launch's products in FP32 but align each step's addends to the
// largest and truncate, a bias of a few 2^-24 per 8 samples that grows with the launch's length
// (5e-5 of sqrt(P1 P2) after 4096 samples on an H100). Launches of at most this many samples,
// added to the sums in IEEE FP32, keep the error at that level for any integration.
constexpr int64_t kHalfLaunchSamples = 4096;

int packing_threads() { return int(std::clamp(std::thread::hardware_concurrency(), 1u, 16u)); }

// One of the two chunks in flight: its page-locked staging, its copy on the GPU, and the events
// that say when the staging may be refilled (uploaded) and the copy overwritten (consumed).
struct ChunkSlot {
  cuda::PinnedBuffer<uint8_t> staging;
  cuda::DeviceBuffer<uint8_t> input;
  cuda::Event uploaded, consumed;
  bool in_use = false;
};

class CudaCorrelator final : public CorrelatorEngine {
 public:
  CudaCorrelator(const CorrelatorShape& shape, int gpu, size_t chunk_bytes)
      : CorrelatorEngine(shape), gpu_(gpu), chunk_bytes_(chunk_bytes) {
    const cuda::DeviceGuard device(gpu_);
    copy_stream_ = std::make_unique<cuda::Stream>();
    compute_stream_ = std::make_unique<cuda::Stream>();
    for (auto& slot : slots_) slot = std::make_unique<ChunkSlot>();
    const CorrelatorShape& s = this->shape();
    sums_ = cuda::DeviceBuffer<uint8_t>(s.nvis() * size_t(kCorrSumBytes));
    const size_t scratch_bytes = corr_split_scratch_bytes(s.precision, s.nant * s.npol);
    if (scratch_bytes) {
      split_scratch_ = cuda::DeviceBuffer<uint8_t>(scratch_bytes);
      RAPT_CUDA_CHECK(cudaMemset(split_scratch_.get(), 0, scratch_bytes));
    }
  }

  // Queued copies may still read the staging: let them finish before it is freed.
  ~CudaCorrelator() override {
    cudaStreamSynchronize(copy_stream_->get());
    cudaStreamSynchronize(compute_stream_->get());
  }
  CudaCorrelator(const CudaCorrelator&) = delete;
  CudaCorrelator& operator=(const CudaCorrelator&) = delete;

  std::string name() const override { return "gpu:" + std::to_string(gpu_); }
  int64_t clamped_values() const override { return clamped_; }

 private:
  void add(const float* voltages, int64_t nsamples) override {
    const cuda::DeviceGuard device(gpu_);
    const CorrelatorShape& s = shape();
    const int nrecv = s.nant * s.npol;
    const int64_t quantum = corr_time_quantum(s.precision);
    // Samples per chunk: int32 sums must not overflow, fp16's truncation must stay small, and
    // one channel must fit the budget.
    const size_t per_sample = corr_packed_bytes(s.precision, 1, nrecv, 1);
    const int64_t fit = int64_t(chunk_bytes_ / per_sample) / quantum * quantum;
    const int64_t most = s.precision == CorrPrecision::fp16 ? kHalfLaunchSamples : kInt8SafeSamples;
    const int64_t span = std::min<int64_t>(most, std::max(fit, quantum));
    for (int64_t t0 = 0; t0 < nsamples; t0 += span) {
      CorrChunk chunk;
      chunk.t0 = t0;
      chunk.nt = std::min(span, nsamples - t0);
      chunk.tpad = (chunk.nt + quantum - 1) / quantum * quantum;
      const size_t per_channel = corr_packed_bytes(s.precision, 1, nrecv, chunk.tpad);
      const int channels = int(std::clamp<size_t>(chunk_bytes_ / per_channel, 1,
                                                  size_t(std::min(s.nchan, kMaxLaunchChannels))));
      if (s.precision == CorrPrecision::int8 && sums_samples_ + chunk.nt > kInt8SafeSamples)
        widen_sums();
      for (chunk.chan0 = 0; chunk.chan0 < s.nchan; chunk.chan0 += channels) {
        chunk.nchan = std::min(channels, s.nchan - chunk.chan0);
        correlate_chunk(voltages, nsamples, chunk, sums_samples_ == 0);
      }
      sums_samples_ += chunk.nt;
    }
  }

  // int8: the int32 sums into the 64-bit sums (made on first use), and the int32 sums start
  // again.
  void widen_sums() {
    if (sums_samples_ == 0) return;
    if (!wide_sums_.size()) wide_sums_ = cuda::DeviceBuffer<uint8_t>(shape().nvis() * 16);
    widen_int8_sums(sums_.get(), wide_sums_.get(), shape().nvis(), !widened_,
                    compute_stream_->get());
    widened_ = true;
    sums_samples_ = 0;
  }

  // The sums (pairs of T: re, im) from the device into `visibilities`.
  template <typename T>
  void read_sums(const void* device, std::complex<double>* visibilities) {
    const size_t n = shape().nvis();
    std::vector<T> sums(2 * n);
    RAPT_CUDA_CHECK(cudaMemcpyAsync(sums.data(), device, sums.size() * sizeof(T),
                                    cudaMemcpyDeviceToHost, compute_stream_->get()));
    compute_stream_->synchronize();
    for (size_t k = 0; k < n; ++k)
      visibilities[k] = {double(sums[2 * k]), double(sums[2 * k + 1])};
  }

  // FIRST: the chunk's channels have no sums yet in this integration.
  void correlate_chunk(const float* voltages, int64_t nsamples, const CorrChunk& chunk,
                       bool first) {
    const CorrelatorShape& s = shape();
    ChunkSlot& slot = *slots_[next_slot_];
    next_slot_ ^= 1;
    const int nrecv = s.nant * s.npol;
    const size_t bytes = corr_packed_bytes(s.precision, chunk.nchan, nrecv, chunk.tpad);
    if (slot.in_use) slot.uploaded.synchronize();  // its staging is free again
    if (slot.staging.size() < bytes) {
      slot.staging = cuda::PinnedBuffer<uint8_t>();
      slot.staging = cuda::PinnedBuffer<uint8_t>(bytes);
    }
    if (slot.input.size() < bytes) {
      if (slot.in_use) slot.consumed.synchronize();  // its kernel no longer reads it
      slot.input = cuda::DeviceBuffer<uint8_t>();
      slot.input = cuda::DeviceBuffer<uint8_t>(bytes);
    }
    clamped_ += pack_correlator_chunk(s, voltages, nsamples, chunk, slot.staging.get(),
                                      packing_threads());

    const cudaStream_t copy = copy_stream_->get(), compute = compute_stream_->get();
    if (slot.in_use) slot.consumed.make_wait(copy);
    RAPT_CUDA_CHECK(
        cudaMemcpyAsync(slot.input.get(), slot.staging.get(), bytes, cudaMemcpyHostToDevice, copy));
    slot.uploaded.record(copy);
    slot.uploaded.make_wait(compute);
    CorrChunkArgs args;
    args.packed = slot.input.get();
    args.nchan = chunk.nchan;
    args.nant = s.nant;
    args.npol = s.npol;
    args.tpad = chunk.tpad;
    args.sums = sums_.get();
    args.chan0 = chunk.chan0;
    args.split_scratch = split_scratch_.get();
    args.first = first;
    launch_correlator(s.precision, args, compute);
    slot.consumed.record(compute);
    slot.in_use = true;
  }

  void read_and_reset(std::complex<double>* visibilities) override {
    const cuda::DeviceGuard device(gpu_);
    if (widened_) widen_sums();
    // With nothing added since the last reset, no launch has written the sums.
    if (sums_samples_ == 0 && !widened_)
      RAPT_CUDA_CHECK(cudaMemsetAsync(sums_.get(), 0, sums_.size(), compute_stream_->get()));
    if (widened_)
      read_sums<long long>(wide_sums_.get(), visibilities);
    else if (shape().precision == CorrPrecision::int8)
      read_sums<int32_t>(sums_.get(), visibilities);
    else
      read_sums<float>(sums_.get(), visibilities);
    widened_ = false;
    sums_samples_ = 0;
  }

  int gpu_;
  size_t chunk_bytes_;
  // Made after the device is chosen, so they belong to it.
  std::unique_ptr<cuda::Stream> copy_stream_, compute_stream_;
  std::unique_ptr<ChunkSlot> slots_[2];
  int next_slot_ = 0;
  cuda::DeviceBuffer<uint8_t> sums_;  // [chan][baseline][p1][p2], int2 (int8) or float2
  cuda::DeviceBuffer<uint8_t> split_scratch_;  // CorrChunkArgs::split_scratch, or empty
  // Samples in the sums since the last reset (or widening). While 0, no launch has written
  // them: the next launch of each chunk of channels writes them rather than adding to them
  // (CorrChunkArgs::first).
  int64_t sums_samples_ = 0;
  // int8: the 64-bit sums (longlong2), which hold the integration's earlier samples if
  // `widened_`.
  cuda::DeviceBuffer<uint8_t> wide_sums_;
  bool widened_ = false;
  int64_t clamped_ = 0;
};

}  // namespace

std::unique_ptr<CorrelatorEngine> make_cuda_correlator(const CorrelatorShape& shape, int gpu_index,
                                                       size_t chunk_bytes) {
  shape.validate();
  std::string why;
  const int count = cuda::device_count(&why);
  if (gpu_index < 0 || gpu_index >= count)
    throw DataError("GPU " + std::to_string(gpu_index) + ": no such device (" +
                    (count ? std::to_string(count) + " found" : why) + ")");
  return std::make_unique<CudaCorrelator>(shape, gpu_index, std::max<size_t>(chunk_bytes, 1));
}

}  // namespace rapt::gpu

namespace rapt {

std::unique_ptr<CorrelatorEngine> make_cuda_correlator(const CorrelatorShape& shape,
                                                       int gpu_index) {
  return gpu::make_cuda_correlator(shape, gpu_index, gpu::kCorrChunkBytes);
}

}  // namespace rapt
