// The CUDA correlator with a chosen chunk size, for tests that make a small block take the
// paths a large one takes (several chunks of channels, several of time). No CUDA headers.
#pragma once
#include <cstddef>
#include <memory>

#include "corr/correlator_engine.hpp"

namespace rapt::gpu {

// Packed input bytes per chunk by default: two chunks are staged in page-locked memory and two
// on the GPU, so the engine holds 4 x this beside the sums.
inline constexpr size_t kCorrChunkBytes = size_t(64) << 20;

// A chunk holds as many channels of as many samples (at most kInt8SafeSamples, at least one
// kernel stage) as fit in `chunk_bytes`, and at least one channel.
std::unique_ptr<CorrelatorEngine> make_cuda_correlator(const CorrelatorShape& shape, int gpu_index,
                                                       size_t chunk_bytes);

}  // namespace rapt::gpu
