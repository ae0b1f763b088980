// Launchers of the boxcar search kernel (gpu/snr/snr_boxcar_kernels.cu) and of the benchmark's
// noise fill.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "snr_boxcar_params.hpp"

namespace rapt::gpu {

// Bytes of shared memory a block of the tiled kernel (any widths) needs for this widest boxcar.
// The default widths' warp kernel needs none, and its widest box, 30, is always supported.
size_t boxcar_shared_bytes(int max_width);
// The widest boxcar the device's shared memory allows (the tiled kernel's limit).
int max_supported_boxcar_width(int gpu);

void launch_boxcar_search(const BoxcarKernelParams& p, cudaStream_t stream);

// Unit-variance pseudo-random noise (hash-based Box-Muller), reproducible: for the benchmark.
void launch_fill_gaussian(float* x, size_t count, uint32_t seed, cudaStream_t stream);

}  // namespace rapt::gpu
