#include "brute_force_fold_bench.hpp"

#include <algorithm>
#include <cmath>

#include "../fold/brute_force_fold_kernels.hpp"
#include "../cuda/device_buffer.hpp"
#include "fold/brute_force_fold.hpp"
#include "../snr/snr_boxcar_kernels.hpp"

namespace rapt::gpu {
namespace {

// FP32 lanes per SM: 64 on sm_80 (A100), 128 on the other Ampere, Ada and Hopper parts.
double fp32_lanes_per_sm(int major, int minor) { return major == 8 && minor == 0 ? 64.0 : 128.0; }

double fadd_ceiling(int gpu) {
  int sms = 0, clock_khz = 0, major = 0, minor = 0;
  RAPT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu));
  RAPT_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, gpu));
  RAPT_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, gpu));
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, gpu) != cudaSuccess) {
    cudaGetLastError();
    clock_khz = 0;
  }
  return double(sms) * fp32_lanes_per_sm(major, minor) * double(clock_khz) * 1e3;
}

// The first `ndm` series copied back and folded by the CPU engine.
void check_first_dms(const cuda::DeviceBuffer<float>& series, const cuda::DeviceBuffer<float>& snr,
                     int ndm, int64_t nsamples, const std::vector<uint32_t>& steps, int nbins,
                     GpuBruteForceTiming& t) {
  std::vector<float> host(size_t(ndm) * size_t(nsamples));
  std::vector<float> gpu_snr(size_t(ndm) * steps.size());
  RAPT_CUDA_CHECK(cudaMemcpy(host.data(), series.get(), host.size() * sizeof(float),
                             cudaMemcpyDeviceToHost));
  RAPT_CUDA_CHECK(cudaMemcpy(gpu_snr.data(), snr.get(), gpu_snr.size() * sizeof(float),
                             cudaMemcpyDeviceToHost));
  std::vector<double> sums;
  std::vector<int64_t> counts;
  for (int d = 0; d < ndm; ++d) {
    const float* x = host.data() + size_t(d) * size_t(nsamples);
    double s = 0.0, s2 = 0.0;
    for (int64_t n = 0; n < nsamples; ++n) s += x[n];
    const double mean = s / double(nsamples);
    for (int64_t n = 0; n < nsamples; ++n) s2 += (x[n] - mean) * (x[n] - mean);
    const double sigma = std::sqrt(s2 / double(nsamples));
    for (size_t p = 0; p < steps.size(); p += 7) {
      fold_series(x, nsamples, mean, steps[p], nbins, sums, counts);
      const double cpu = folded_profile_snr(sums.data(), counts.data(), nbins, sigma);
      ++t.checked;
      if (std::fabs(cpu - gpu_snr[size_t(d) * steps.size() + p]) > 1e-3) ++t.mismatches;
    }
  }
}

}  // namespace

GpuBruteForceTiming time_gpu_brute_force(int ndm, int64_t nsamples,
                                         const std::vector<uint32_t>& steps, int nbins, int gpu,
                                         int repeats) {
  const cuda::DeviceGuard guard(gpu);
  const cuda::Stream stream;
  const int nperiods = int(steps.size());
  cuda::DeviceBuffer<float> series(size_t(ndm) * size_t(nsamples));
  launch_fill_gaussian(series.get(), series.size(), 4242u, stream.get());
  cuda::DeviceBuffer<uint32_t> steps_dev(steps.size());
  RAPT_CUDA_CHECK(cudaMemcpy(steps_dev.get(), steps.data(), steps_dev.bytes(),
                             cudaMemcpyHostToDevice));
  cuda::DeviceBuffer<int> counts(size_t(nperiods) * size_t(nbins));
  cuda::DeviceBuffer<double> means(static_cast<size_t>(ndm));
  cuda::DeviceBuffer<float> sigmas(static_cast<size_t>(ndm));
  cuda::DeviceBuffer<float> snr(size_t(ndm) * size_t(nperiods));
  BruteForceFoldParams p;
  p.series = series.get();
  p.ndm = ndm;
  p.nsamples = nsamples;
  p.steps = steps_dev.get();
  p.nperiods = nperiods;
  p.nbins = nbins;
  p.sigmas = sigmas.get();
  p.counts = counts.get();
  p.snr = snr.get();
  const cuda::Event start(true), stop(true);
  std::vector<double> times;
  for (int r = 0; r <= repeats; ++r) {  // the first run warms up
    start.record(stream.get());
    launch_bin_counts(steps_dev.get(), nperiods, nsamples, nbins, counts.get(), stream.get());
    launch_series_moments(series.get(), ndm, nsamples, means.get(), sigmas.get(), stream.get());
    launch_brute_force_fold(p, means.get(), stream.get());
    stop.record(stream.get());
    stop.synchronize();
    if (r > 0) times.push_back(cuda::elapsed_seconds(start, stop));
  }
  std::sort(times.begin(), times.end());
  GpuBruteForceTiming t;
  t.kernel_s = times[times.size() / 2];
  t.fadd_per_s = fadd_ceiling(gpu);
  check_first_dms(series, snr, std::min(ndm, 4), nsamples, steps, nbins, t);
  return t;
}

}  // namespace rapt::gpu
