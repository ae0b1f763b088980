// What the benchmark measures of the GPU boxcar search. No CUDA headers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rapt::gpu {

struct GpuBoxcarTiming {
  double kernel_s = 0.0;     // one launch over every series and width, input already on the GPU
  size_t input_bytes = 0;    // float samples read
  size_t hits = 0;           // values above the threshold
  size_t checked_hits = 0;   // hits of the first series compared with the CPU engine
  size_t mismatched_hits = 0;
};

// Searches num_series x length pseudo-random unit-noise samples made on the GPU, `repeats`
// times (median); the first series is copied back and searched by the CPU engine for the check.
GpuBoxcarTiming time_gpu_boxcar(int num_series, int64_t length, const std::vector<int>& widths,
                                float threshold, int gpu, int repeats);

}  // namespace rapt::gpu
