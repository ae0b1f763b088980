#include "imaging/minor_cycle.hpp"

#include <utility>

#include "cli/errors.hpp"

namespace rapt {
namespace {

class CpuMinorCycle final : public MinorCycleEngine {
 public:
  CpuMinorCycle(std::vector<float> psf, int n, int threads)
      : psf_(std::move(psf)), n_(n), threads_(threads) {}
  MinorCycle run(std::vector<float>& residual, const CleanSettings& settings, int max_components,
                 std::vector<float>& model) override {
    return hogbom_minor_cycle(residual, psf_, n_, settings, max_components, model, threads_);
  }

 private:
  std::vector<float> psf_;
  int n_, threads_;
};

}  // namespace

std::unique_ptr<MinorCycleEngine> make_cpu_minor_cycle(std::vector<float> psf, int n, int threads) {
  return std::make_unique<CpuMinorCycle>(std::move(psf), n, threads);
}

std::unique_ptr<MinorCycleEngine> make_gpu_minor_cycle(const std::vector<float>& psf, int n,
                                                       int gpu_index) {
#ifdef RAPT_WITH_CUDA
  return make_cuda_minor_cycle(psf, n, gpu_index);
#else
  (void)psf, (void)n, (void)gpu_index;
  throw UsageError("CLEAN on the GPU needs a build with CUDA");
#endif
}

}  // namespace rapt
