#include "accel/accel_engine.hpp"
#include "cli/errors.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "accel/accel_gpu_factory.hpp"
#endif

namespace rapt {

std::unique_ptr<AccelEngine> make_accel_engine(const std::string& device, int threads) {
  const DeviceChoice choice = choose_device(device);
  if (!choice.use_gpu) return make_cpu_accel_engine(threads);
#ifdef RAPT_WITH_CUDA
  return make_gpu_accel_engine(choice.gpu_index);
#else
  throw UsageError("--device " + device + ": this build of rapt has no CUDA support");
#endif
}

}  // namespace rapt
