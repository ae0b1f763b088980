// The CUDA channeliser's factory. Defined in gpu/ppf/ and linked only in builds with
// RAPT_WITH_CUDA; host code reaches it through make_gpu_channeliser() alone (tests may ask for
// small device chunks to reach the chunked path with small blocks).
// kGpuChanneliserBuilt is false in builds without CUDA: nothing may then call the functions below.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "ppf/channeliser.hpp"

namespace rapt {

#ifdef RAPT_WITH_CUDA
inline constexpr bool kGpuChanneliserBuilt = true;
#else
inline constexpr bool kGpuChanneliserBuilt = false;
#endif

// Throws std::invalid_argument as make_cpu_channeliser does, DataError when the device cannot
// be used.
std::unique_ptr<ChanneliserEngine> make_cuda_channeliser(const ChanneliserShape& shape,
                                                         const std::vector<float>& prototype,
                                                         const ChanneliserCorrections& corrections,
                                                         int gpu_index);

// The same, working through each call in chunks of at most `max_chunk_frames` output samples
// (0 = as many as the default device budget of 1 GiB of input holds).
std::unique_ptr<ChanneliserEngine> make_cuda_channeliser(const ChanneliserShape& shape,
                                                         const std::vector<float>& prototype,
                                                         const ChanneliserCorrections& corrections,
                                                         int gpu_index, int64_t max_chunk_frames);

// Shared by the engines' factories: throws std::invalid_argument when the prototype or the
// corrections do not fit the shape (and UsageError from shape.validate()).
void check_channeliser_inputs(const ChanneliserShape& shape, const std::vector<float>& prototype,
                              const ChanneliserCorrections& corrections);

}  // namespace rapt
