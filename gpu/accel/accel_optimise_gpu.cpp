// The CUDA rz maximiser: uploads the spectrum and the starts, runs one block per start
// (accel_optimise_kernels.cu) and returns the maxima.
#include <string>
#include <vector>

#include "accel/rz_maximiser_gpu_factory.hpp"
#include "accel_optimise_kernels.hpp"
#include "cli/errors.hpp"
#include "../cuda/cuda_check.hpp"
#include "../cuda/device_buffer.hpp"

namespace rapt {
namespace {

using cuda::DeviceBuffer;
using cuda::RzDeviceResult;
using cuda::RzDeviceStart;

template <typename T>
DeviceBuffer<T> upload(const T* values, size_t count, cudaStream_t stream) {
  DeviceBuffer<T> buffer(count);
  if (count) {
    RAPT_CUDA_CHECK(
        cudaMemcpyAsync(buffer.get(), values, buffer.bytes(), cudaMemcpyHostToDevice, stream));
  }
  return buffer;
}

class GpuRzMaximiser final : public RzMaximiser {
 public:
  explicit GpuRzMaximiser(int gpu_index)
      : gpu_index_(gpu_index), stream_([gpu_index] {
          cuda::DeviceGuard guard(gpu_index);
          return cuda::Stream();
        }()) {}

  std::string name() const override { return "gpu:" + std::to_string(gpu_index_); }

 private:
  std::vector<RzPoint> compute(const std::complex<float>* spectrum, int64_t numbins,
                               const std::vector<RzStart>& starts) override {
    if (starts.size() > size_t(0x7fffffff)) throw UsageError("rz maximiser: too many starts");
    cuda::DeviceGuard guard(gpu_index_);
    std::vector<RzDeviceStart> device_starts;
    std::vector<double> norms;
    for (const RzStart& s : starts) {
      device_starts.push_back({s.r, s.z, int(s.power_norms.size()), int(norms.size())});
      norms.insert(norms.end(), s.power_norms.begin(), s.power_norms.end());
    }
    const cudaStream_t stream = stream_.get();
    // std::complex<float> is laid out as float[2] (re, im).
    const DeviceBuffer<float> d_spectrum =
        upload(reinterpret_cast<const float*>(spectrum), size_t(2 * numbins), stream);
    const DeviceBuffer<RzDeviceStart> d_starts =
        upload(device_starts.data(), device_starts.size(), stream);
    const DeviceBuffer<double> d_norms = upload(norms.data(), norms.size(), stream);
    DeviceBuffer<RzDeviceResult> d_results(starts.size());
    cuda::launch_rz_maximise(d_spectrum.get(), numbins, d_starts.get(), int(starts.size()),
                             d_norms.get(), d_results.get(), stream);
    std::vector<RzDeviceResult> results(starts.size());
    RAPT_CUDA_CHECK(cudaMemcpyAsync(results.data(), d_results.get(), d_results.bytes(),
                                    cudaMemcpyDeviceToHost, stream));
    stream_.synchronize();
    std::vector<RzPoint> points(starts.size());
    for (size_t i = 0; i < starts.size(); ++i) {
      points[i].r = results[i].r;
      points[i].z = results[i].z;
      points[i].value = results[i].value;
      points[i].evaluations = results[i].evaluations;
      points[i].halfwidth = results[i].halfwidth;
    }
    return points;
  }

  int gpu_index_;
  cuda::Stream stream_;
};

}  // namespace

std::unique_ptr<RzMaximiser> make_gpu_rz_maximiser(int gpu_index) {
  return std::make_unique<GpuRzMaximiser>(gpu_index);
}

}  // namespace rapt
