// The CUDA acceleration-search engine's factory. Defined in gpu/ and linked only in builds with
// RAPT_WITH_CUDA; host code reaches it through make_accel_engine() alone.
#pragma once
#include <memory>

#include "accel/accel_engine.hpp"

namespace rapt {

std::unique_ptr<AccelEngine> make_gpu_accel_engine(int gpu_index);

}  // namespace rapt
