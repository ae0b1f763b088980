#include "accel/rz_maximiser.hpp"

#include <algorithm>

#include "cli/errors.hpp"
#include "dedisp/parallel_for.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "accel/rz_maximiser_gpu_factory.hpp"
#endif

namespace rapt {
namespace {

class CpuRzMaximiser final : public RzMaximiser {
 public:
  explicit CpuRzMaximiser(int threads) : threads_(std::max(1, threads)) {}
  std::string name() const override { return "cpu (" + std::to_string(threads_) + " threads)"; }

 private:
  std::vector<RzPoint> compute(const std::complex<float>* spectrum, int64_t numbins,
                               const std::vector<RzStart>& starts) override {
    std::vector<RzPoint> points(starts.size());
    parallel_for(threads_, starts.size(), [&](size_t i, int) {
      points[i] = maximise_rz_point(spectrum, numbins, starts[i].power_norms, starts[i].r,
                                    starts[i].z);
    });
    return points;
  }

  int threads_;
};

}  // namespace

RzStart harmonic_rz_start(const std::complex<float>* spectrum, int64_t numbins, int numharm,
                          double r, double z) {
  RzStart start;
  start.r = r;
  start.z = z;
  start.power_norms = start_local_powers(spectrum, numbins, numharm, r, z);
  return start;
}

RzStart single_rz_start(double r, double z) {
  RzStart start;
  start.r = r;
  start.z = z;
  start.power_norms = {1.0};
  return start;
}

std::vector<RzPoint> RzMaximiser::maximise(const std::complex<float>* spectrum, int64_t numbins,
                                           const std::vector<RzStart>& starts) {
  for (size_t i = 0; i < starts.size(); ++i) {
    if (starts[i].power_norms.empty()) {
      throw UsageError("rz maximiser: start " + std::to_string(i) + " has no harmonics");
    }
  }
  if (starts.empty()) return {};
  return compute(spectrum, numbins, starts);
}

std::unique_ptr<RzMaximiser> make_cpu_rz_maximiser(int threads) {
  return std::make_unique<CpuRzMaximiser>(threads);
}

std::unique_ptr<RzMaximiser> make_rz_maximiser(const std::string& device, int threads) {
  const DeviceChoice choice = choose_device(device);
  if (!choice.use_gpu) return make_cpu_rz_maximiser(threads);
#ifdef RAPT_WITH_CUDA
  return make_gpu_rz_maximiser(choice.gpu_index);
#else
  throw UsageError("--device " + device + ": this build of rapt has no CUDA support");
#endif
}

}  // namespace rapt
