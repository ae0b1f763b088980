// The CUDA brute-force folding engine's factory. Defined in gpu/ and linked only in builds with
// RAPT_WITH_CUDA; host code reaches the GPU engine through make_brute_force_engine() alone.
#pragma once
#include <memory>

#include "fold/brute_force_fold.hpp"

namespace rapt {

std::unique_ptr<BruteForceFoldEngine> make_gpu_brute_force_engine(int device);

}  // namespace rapt
