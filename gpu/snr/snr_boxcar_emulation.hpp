// The boxcar search kernel run on the CPU, thread by thread, from the same per-thread code the
// device runs (snr_boxcar_tile.cuh): the tests check its index arithmetic without a GPU.
// Slow; for small problems only. No CUDA headers.
#pragma once
#include <vector>

#include "snr_boxcar_params.hpp"

namespace rapt::gpu {

// One launch on host memory (p.series, p.widths, p.scales on the host; p.hits, p.count and
// p.capacity are ignored): every hit, in the order the emulated blocks find them.
std::vector<DeviceBoxcarHit> emulate_boxcar_search(const BoxcarKernelParams& p);

}  // namespace rapt::gpu
