// What the boxcar search kernel is given and what it writes. No CUDA headers: the emulation
// and the tests use these too.
#pragma once
#include <cstdint>

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
  const float* series = nullptr;   // num_series rows of `length` floats
  int64_t length = 0;
  int num_series = 0;
  int first_series = 0;            // added to the series numbers in the hits
  const int* widths = nullptr;     // device, ascending, num_widths of them
  const float* scales = nullptr;   // device, 1/sqrt(width)
  int num_widths = 0;
  int max_width = 1;
  float threshold = 0.0f;
  DeviceBoxcarHit* hits = nullptr; // device, `capacity` slots
  unsigned long long* count = nullptr;  // device: hits found (may exceed capacity)
  unsigned long long capacity = 0;
};

// Samples of one series each thread block handles.
constexpr int kBoxcarTile = 2048;

}  // namespace rapt::gpu
