// The CUDA boxcar engine's factory. Defined in gpu/ and linked only in builds with
// RAPT_WITH_CUDA; host code reaches it through make_gpu_boxcar_engine() alone.
#pragma once
#include <memory>
#include <vector>

#include "snr/boxcar_engine.hpp"

namespace rapt {

std::unique_ptr<BoxcarEngine> make_cuda_boxcar_engine(std::vector<int> widths, float threshold,
                                                      int gpu_index);

}  // namespace rapt
