// The CUDA beam former's factory. Defined in gpu/bf/ and linked only in builds with
// RAPT_WITH_CUDA; host code reaches it through make_gpu_beamformer() alone (tests may ask for a
// channel-group size to reach the multi-group path with small blocks).
// kGpuBeamformerBuilt is false in builds without CUDA: nothing may then call the functions below.
#pragma once
#include <cstddef>
#include <memory>

#include "bf/beamformer_engine.hpp"

namespace rapt {

#ifdef RAPT_WITH_CUDA
inline constexpr bool kGpuBeamformerBuilt = true;
#else
inline constexpr bool kGpuBeamformerBuilt = false;
#endif

// Throws UsageError for a shape the GPU engine does not take (npol other than 1 or 2, on top of
// BeamformerShape::validate), DataError when the device cannot be used.
std::unique_ptr<BeamformerEngine> make_cuda_beamformer(const BeamformerShape& shape,
                                                       int gpu_index);

// The same with the channel groups sized for `group_bytes` of beam scratch (product output and,
// in FP16, converted input) instead of the default 1 GiB.
std::unique_ptr<BeamformerEngine> make_cuda_beamformer(const BeamformerShape& shape,
                                                       int gpu_index, size_t group_bytes);

}  // namespace rapt
