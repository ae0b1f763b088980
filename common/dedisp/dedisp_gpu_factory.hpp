// The CUDA dedispersion engine's factory. Defined in gpu/ and linked only in builds with
// RAPT_WITH_CUDA; host code reaches the GPU engine through make_dedisp_engine() alone.
#pragma once
#include <memory>

#include "dedisp/dedisp_engine.hpp"

namespace rapt {

std::unique_ptr<DedispEngine> make_gpu_dedisp_engine(const DedispPlan& plan, int gpu_index);

}  // namespace rapt
