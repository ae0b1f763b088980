#include "cli/errors.hpp"
#include "dedisp/dedisp_engine.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "dedisp/dedisp_gpu_factory.hpp"
#endif

namespace rapt {

std::unique_ptr<DedispEngine> make_dedisp_engine(const DedispPlan& plan,
                                                 const std::string& device) {
  const DeviceChoice choice = choose_device(device);
  if (!choice.use_gpu) return make_cpu_dedisp_engine(plan);
#ifdef RAPT_WITH_CUDA
  return make_gpu_dedisp_engine(plan, choice.gpu_index);
#else
  // choose_device() already refuses "gpu" in a build without CUDA; this keeps the promise even
  // if it ever changes.
  throw UsageError("--device " + device + ": this build of rapt has no CUDA support");
#endif
}

}  // namespace rapt
