// The CUDA correlator's factory. Defined in gpu/corr/ and linked only in builds with
// RAPT_WITH_CUDA; host code reaches it through make_gpu_correlator() alone.
// kGpuCorrelatorBuilt is false in builds without CUDA: nothing may then call the function below.
#pragma once
#include <memory>

#include "corr/correlator_engine.hpp"

namespace rapt {

#ifdef RAPT_WITH_CUDA
inline constexpr bool kGpuCorrelatorBuilt = true;
#else
inline constexpr bool kGpuCorrelatorBuilt = false;
#endif

// Throws DataError when the device cannot be used.
std::unique_ptr<CorrelatorEngine> make_cuda_correlator(const CorrelatorShape& shape, int gpu_index);

}  // namespace rapt
