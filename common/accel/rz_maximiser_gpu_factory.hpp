// The CUDA rz maximiser's factory. Defined in gpu/ and linked only in builds with
// RAPT_WITH_CUDA; host code reaches it through make_rz_maximiser() alone.
#pragma once
#include <memory>

#include "accel/rz_maximiser.hpp"

namespace rapt {

std::unique_ptr<RzMaximiser> make_gpu_rz_maximiser(int gpu_index);

}  // namespace rapt
