// What the benchmark measures of the GPU channeliser. No CUDA headers.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ppf/channeliser.hpp"

namespace rapt::gpu {

struct GpuChanneliserTiming {
  double kernel_s = 0.0;     // FIR + FFT + post, input and output on the GPU (median)
  double fir_s = 0.0;        // each pass alone (medians)
  double fft_s = 0.0;
  double post_s = 0.0;
  double engine_s = 0.0;     // ChanneliserEngine::process, host memory to host memory
  double input_bytes = 0.0;  // float input of the block
  double output_bytes = 0.0; // complex float output of the block
  double moved_bytes = 0.0;  // bytes the passes read and write in device memory
  size_t checked = 0;        // output values compared with the CPU engine
  size_t mismatches = 0;     // of those, how many differ by more than 1e-5 of the rms
  double max_error = 0.0;    // largest |GPU - CPU| over the rms of the CPU's output
};

// Channelises one block of `nframes` frames of random 8-bit-valued float input (made on the
// GPU) `repeats` times after a warm-up run, Hamming window; then once through the engine from
// host memory. Three (channel, antenna) streams of the output are checked against the CPU
// engine.
GpuChanneliserTiming time_gpu_channeliser(const ChanneliserShape& shape, int64_t nframes, int gpu,
                                          int repeats);

}  // namespace rapt::gpu
