// The CUDA IDG engine's factory. Defined in gpu/idg/ and linked only in builds with
// RAPT_WITH_CUDA; host code reaches it through make_gpu_idg_engine() alone.
// kGpuIdgBuilt is false in builds without CUDA: nothing may then call the function below.
#pragma once
#include <memory>

#include "idg/idg_engine.hpp"

namespace rapt {

#ifdef RAPT_WITH_CUDA
inline constexpr bool kGpuIdgBuilt = true;
#else
inline constexpr bool kGpuIdgBuilt = false;
#endif

// Throws UsageError for a GPU index that does not exist, DataError when the device cannot be
// used or the grid does not fit its free memory (the message names bytes needed and free).
std::unique_ptr<IdgEngine> make_cuda_idg_engine(const IdgSettings& settings, int gpu_index);

}  // namespace rapt
