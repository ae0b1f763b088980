// The CUDA folding engine's factory. The engine lives in gpu/ and is linked only in builds with
// RAPT_WITH_CUDA; host code reaches it through make_fold_engine() alone.
// kGpuFoldEngineBuilt is false in builds without CUDA: make_fold_engine then folds on the CPU
// for "auto" and refuses "gpu", and nothing refers to the undefined function. The engine is
// checked against the CPU one by the "gpu" instance of tests/fold_equivalence_test.cpp.
#pragma once
#include <memory>

#include "fold/fold_engine.hpp"

namespace rapt {

#ifdef RAPT_WITH_CUDA
inline constexpr bool kGpuFoldEngineBuilt = true;
#else
inline constexpr bool kGpuFoldEngineBuilt = false;
#endif

std::unique_ptr<FoldEngine> make_gpu_fold_engine(const FoldLayout& layout, int gpu_index);

}  // namespace rapt
