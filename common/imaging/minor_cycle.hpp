// Where CLEAN's minor cycles run: on the host's threads (hogbom_minor_cycle) or on a GPU, which
// keeps the PSF in its memory from one minor cycle to the next and takes a component in a few
// tens of microseconds where the host scans and updates the whole clean region. Both give the
// same components, model and residual, bit for bit.
#pragma once
#include <memory>
#include <vector>

#include "imaging/hogbom_clean.hpp"

namespace rapt {

class MinorCycleEngine {
 public:
  virtual ~MinorCycleEngine() = default;
  // hogbom_minor_cycle with the factory's PSF.
  virtual MinorCycle run(std::vector<float>& residual, const CleanSettings& settings,
                         int max_components, std::vector<float>& model) = 0;
};

// `threads` >= 1.
std::unique_ptr<MinorCycleEngine> make_cpu_minor_cycle(std::vector<float> psf, int n, int threads);

// On GPU `gpu_index`: UsageError in a build without CUDA or for a GPU that does not exist,
// DataError where the two N x N images do not fit its memory.
std::unique_ptr<MinorCycleEngine> make_gpu_minor_cycle(const std::vector<float>& psf, int n,
                                                       int gpu_index);

#ifdef RAPT_WITH_CUDA
inline constexpr bool kGpuMinorCycleBuilt = true;
// Defined in gpu/imaging/ and linked only in builds with CUDA; make_gpu_minor_cycle calls it.
std::unique_ptr<MinorCycleEngine> make_cuda_minor_cycle(const std::vector<float>& psf, int n,
                                                        int gpu_index);
#else
inline constexpr bool kGpuMinorCycleBuilt = false;
#endif

}  // namespace rapt
