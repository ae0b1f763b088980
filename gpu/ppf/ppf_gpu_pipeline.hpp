// The channeliser on one GPU, device memory to device memory: FIR kernel, batched cuFFT (R2C
// for real input, C2C for complex), and the post kernel (fine channel order, conjugation,
// corrections, canonical output). The filter's history stays on the device between chunks.
// Used by the engine (gpu/ppf/ppf_gpu_engine.cpp) and the benchmark.
#pragma once
#include <cufft.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "../cuda/device_buffer.hpp"
#include "ppf/channeliser.hpp"

namespace rapt::gpu {

// A cuFFT plan of `batch` transforms of the channeliser's frame; move-only, never-throwing
// destructor.
class PfbFftPlan {
 public:
  PfbFftPlan(const ChanneliserShape& shape, int64_t batch, cudaStream_t stream);
  ~PfbFftPlan();
  PfbFftPlan(const PfbFftPlan&) = delete;
  PfbFftPlan& operator=(const PfbFftPlan&) = delete;
  cufftHandle get() const { return plan_; }
  int64_t batch() const { return batch_; }

 private:
  cufftHandle plan_ = 0;
  int64_t batch_ = 0;
};

// Timing events recorded after each pass of run(): the FIR (with the history update), the FFT
// and the post kernel. The caller records its own start before run().
struct PfbPassEvents {
  cuda::Event fir{true};
  cuda::Event fft{true};
  cuda::Event post{true};
};

class ChanneliserPipeline {
 public:
  // Owns device copies of the prototype and the correction factors; `max_frames` bounds a
  // chunk (its buffers are allocated now).
  ChanneliserPipeline(const ChanneliserShape& shape, const std::vector<float>& prototype,
                      const ChanneliserCorrections& corrections, int64_t max_frames);

  // Grows the chunk buffers to `max_frames` frames (never shrinks; the history stays).
  void reserve(int64_t max_frames);

  // Channelises `nframes` (<= max_frames) frames of `input` (the chunk in canonical order, on
  // the device) into `out` (canonical channelised order, on the device), on stream().
  void run(const float* input, int64_t nframes, float2* out, const PfbPassEvents* events = nullptr);

  cudaStream_t stream() const { return stream_.get(); }
  int64_t max_frames() const { return max_frames_; }
  // Device bytes the chunk buffers take per frame (input, FIR, spectra and output), for sizing.
  static size_t bytes_per_frame(const ChanneliserShape& shape);

 private:
  const PfbFftPlan& plan_for(int64_t nframes);

  ChanneliserShape shape_;
  int64_t max_frames_;
  int factor_rows_ = 0;
  cuda::Stream stream_;
  cuda::DeviceBuffer<float> coefficients_;
  cuda::DeviceBuffer<float2> factors_;
  cuda::DeviceBuffer<float> history_[2];  // the current one and the one the next chunk writes
  int current_history_ = 0;
  cuda::DeviceBuffer<float> fir_;         // FIR output (complex input: FFT'd in place)
  cuda::DeviceBuffer<float2> spectra_;    // real input's R2C output
  std::unique_ptr<PfbFftPlan> plans_[2];  // the last two batch sizes (full and last chunk)
  int next_plan_ = 0;
};

}  // namespace rapt::gpu
