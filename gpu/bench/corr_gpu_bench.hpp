// What the benchmark measures of the GPU correlator. No CUDA headers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "corr/correlator_engine.hpp"

namespace rapt::gpu {

struct GpuCorrelatorTiming {
  double kernel_s = 0.0;       // the kernel alone, packed input already on the GPU
  double with_upload_s = 0.0;  // the packed input copied from page-locked memory in 8 chunks of
                               // channels, each chunk's kernel overlapping the next one's copy
  size_t input_bytes = 0;      // packed input: chans x receivers x samples x 2 x 1, 2 or 4 bytes
  std::string kernel;          // correlator_kernel_text()
  size_t checked = 0;          // visibilities compared with a CPU sum
  size_t mismatches = 0;       // of those, how many differ (int8: at all; else by > tolerance)
  double max_error = 0.0;      // largest |GPU - CPU| over sqrt(P1 P2) (0 for int8 when exact)
  double tolerance = 0.0;      // 0 (int8), 1e-4 (fp16), 1e-5 (fp32)
  double sustained_s = 0.0;    // the kernel alone, mean over the second half of a run of
                               // `sustain_s` seconds back to back (0: not run)
};

// Correlates one random packed block of `nsamples` samples (a multiple of the kernel's time
// quantum) `repeats` times each way (medians after a warm-up). The warm-up's sums of the first
// and last channel are checked against CPU sums of the same packed values, 256 visibilities
// (the corners of the matrix and random ones) per channel.
// With `sustain_s` > 0 the kernel then runs back to back for that long, as a long observation
// keeps the GPU busy (its clock falls where it reaches its power limit); `steady(true)` is
// called as the run's second half (the one timed) begins, `steady(false)` as it ends.
GpuCorrelatorTiming time_gpu_correlator(const CorrelatorShape& shape, int64_t nsamples, int gpu,
                                        int repeats, double sustain_s = 0.0,
                                        const std::function<void(bool)>& steady = {});

}  // namespace rapt::gpu
