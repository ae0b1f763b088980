// The CUDA brute-force folding engine: BruteForceFoldEngine on one GPU. The series go up in
// batches of DMs that fit a fixed device budget; the bin counts are made once per call (they do
// not depend on the DM); per batch, one kernel finds each series' moments and one folds every
// (DM, period) and leaves only the S/N map to copy back.
#include <algorithm>
#include <string>

#include "brute_force_fold_kernels.hpp"
#include "../cuda/device_buffer.hpp"
#include "fold/brute_force_gpu_factory.hpp"

namespace rapt::gpu {
namespace {

constexpr size_t kBatchBytes = size_t(1) << 30;

// A stream on `gpu`, leaving the calling thread's current device as it was (engines of
// several GPUs are made on the threads that use them).
cuda::Stream stream_on(int gpu) {
  const cuda::DeviceGuard device(gpu);
  return cuda::Stream();
}

class GpuBruteForceEngine final : public BruteForceFoldEngine {
 public:
  explicit GpuBruteForceEngine(int gpu) : gpu_(gpu), stream_(stream_on(gpu)) {}
  std::string name() const override { return "gpu:" + std::to_string(gpu_); }

 private:
  std::vector<float> compute_snr(const float* series, int ndm, int64_t nsamples,
                                 const BruteForceFoldGrid& grid,
                                 const std::vector<uint32_t>& steps) override {
    const cuda::DeviceGuard device(gpu_);
    const int nperiods = int(steps.size());
    cuda::DeviceBuffer<uint32_t> steps_dev(steps.size());
    RAPT_CUDA_CHECK(cudaMemcpyAsync(steps_dev.get(), steps.data(), steps_dev.bytes(),
                                    cudaMemcpyHostToDevice, stream_.get()));
    cuda::DeviceBuffer<int> counts(size_t(nperiods) * size_t(grid.nbins));
    launch_bin_counts(steps_dev.get(), nperiods, nsamples, grid.nbins, counts.get(),
                      stream_.get());
    // A multiple of 4 DMs per batch keeps the kernel's DM groups whole.
    const int64_t fit = int64_t(kBatchBytes / (sizeof(float) * size_t(nsamples)));
    const int rows = int(std::max<int64_t>(4, std::min<int64_t>(ndm, fit) / 4 * 4));
    const int batch = std::min(rows, ndm);
    cuda::DeviceBuffer<float> input(size_t(batch) * size_t(nsamples));
    cuda::DeviceBuffer<double> means(static_cast<size_t>(batch));
    cuda::DeviceBuffer<float> sigmas(static_cast<size_t>(batch));
    cuda::DeviceBuffer<float> snr_dev(size_t(batch) * size_t(nperiods));
    std::vector<float> snr(size_t(ndm) * size_t(nperiods));
    for (int first = 0; first < ndm; first += batch) {
      const int n = std::min(batch, ndm - first);
      RAPT_CUDA_CHECK(cudaMemcpyAsync(input.get(), series + size_t(first) * size_t(nsamples),
                                      sizeof(float) * size_t(n) * size_t(nsamples),
                                      cudaMemcpyHostToDevice, stream_.get()));
      launch_series_moments(input.get(), n, nsamples, means.get(), sigmas.get(), stream_.get());
      BruteForceFoldParams p;
      p.series = input.get();
      p.ndm = n;
      p.nsamples = nsamples;
      p.steps = steps_dev.get();
      p.nperiods = nperiods;
      p.nbins = grid.nbins;
      p.sigmas = sigmas.get();
      p.counts = counts.get();
      p.snr = snr_dev.get();
      launch_brute_force_fold(p, means.get(), stream_.get());
      RAPT_CUDA_CHECK(cudaMemcpyAsync(snr.data() + size_t(first) * size_t(nperiods), snr_dev.get(),
                                      sizeof(float) * size_t(n) * size_t(nperiods),
                                      cudaMemcpyDeviceToHost, stream_.get()));
      stream_.synchronize();  // the input buffer is reused by the next batch
    }
    return snr;
  }

  int gpu_;
  cuda::Stream stream_;
};

}  // namespace
}  // namespace rapt::gpu

namespace rapt {

std::unique_ptr<BruteForceFoldEngine> make_gpu_brute_force_engine(int device) {
  return std::make_unique<gpu::GpuBruteForceEngine>(device);
}

}  // namespace rapt
