// What the boxcar search kernel is given and what it writes. No CUDA headers: the emulation
// and the tests use these too.
#pragma once
#include <cstdint>

#include "../cuda/random_words.hpp"  // RAPT_HOST_DEVICE

namespace rapt::gpu {

// One hit as the kernel writes it (converted to rapt::BoxcarHit on the host).
struct DeviceBoxcarHit {
  int32_t series;
  int32_t width_index;
  int64_t sample;
  float snr;
  float unused;
};

struct BoxcarKernelParams {
  const float* series = nullptr;   // num_series rows of `length` floats, `row_stride` apart
  int64_t length = 0;
  int64_t row_stride = 0;          // 0: `length` (rows packed)
  int num_series = 0;
  int first_series = 0;            // added to the series numbers in the hits
  const int* widths = nullptr;     // device, ascending, num_widths of them
  const float* scales = nullptr;   // device, 1/sqrt(width)
  int num_widths = 0;
  int max_width = 1;
  float threshold = 0.0f;
  // The widths are exactly kDefaultBoxcarWidths: the device runs the warp kernel
  // (snr_boxcar_warp.cuh), the CPU emulation the tiled kernel's register path. Set with
  // uses_default_boxcar_widths().
  bool default_widths = false;
  DeviceBoxcarHit* hits = nullptr; // device, `capacity` slots
  unsigned long long* count = nullptr;  // device: hits found (may exceed capacity)
  unsigned long long capacity = 0;
};

RAPT_HOST_DEVICE inline int64_t boxcar_row_stride(const BoxcarKernelParams& p) {
  return p.row_stride > 0 ? p.row_stride : p.length;
}

// Threads per block, samples of one series each thread handles in the register path, and
// samples each block handles (kBoxcarThreads x kBoxcarRun: 9 keeps the threads' shared-memory
// reads free of bank conflicts).
constexpr int kBoxcarThreads = 256;
constexpr int kBoxcarRun = 9;
constexpr int kBoxcarTile = kBoxcarThreads * kBoxcarRun;

// PRESTO's default widths, the register path's.
constexpr int kNumDefaultBoxcarWidths = 9;
inline bool uses_default_boxcar_widths(const int* widths, int count) {
  static constexpr int kDefault[kNumDefaultBoxcarWidths] = {1, 2, 3, 4, 6, 9, 14, 20, 30};
  if (count != kNumDefaultBoxcarWidths) return false;
  for (int i = 0; i < count; ++i)
    if (widths[i] != kDefault[i]) return false;
  return true;
}

}  // namespace rapt::gpu
