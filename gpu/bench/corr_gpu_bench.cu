// The benchmark's GPU correlation: a random block made on the GPU directly in the packed layout
// (corr/corr_kernels.hpp), the kernel timed with the block on the GPU and behind its upload
// from page-locked memory, and a spot check of the sums against CPU sums of the same values.
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "../corr/corr_kernels.hpp"
#include "../cuda/device_buffer.hpp"
#include "corr_gpu_bench.hpp"

namespace rapt::gpu {
namespace {

constexpr int kUploadChunks = 8;
constexpr int kCheckedPerChannel = 256;

__device__ inline uint32_t mix(uint64_t i) {
  uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return uint32_t(z >> 32);
}

// int8: -127..127; half and float: uniform in [-1, 1).
__global__ void fill_packed_kernel(void* out, size_t count, int element_bytes) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t h = mix(i);
    const float u = float(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
    if (element_bytes == 1)
      static_cast<int8_t*>(out)[i] = int8_t(int(h % 255u) - 127);
    else if (element_bytes == 2)
      static_cast<__half*>(out)[i] = __float2half_rn(u);
    else
      static_cast<float*>(out)[i] = u;
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Value k of the packed host copy, as the GPU multiplies it.
double packed_value(const void* host, size_t k, int element_bytes) {
  if (element_bytes == 1) return static_cast<const int8_t*>(host)[k];
  if (element_bytes == 2) return __half2float(static_cast<const __half*>(host)[k]);
  return static_cast<const float*>(host)[k];
}

// sum over t of x_r1 conj(x_r2), in long double (exact for int8's integers up to 2^64).
std::complex<double> cpu_product(const void* host, int element_bytes, size_t row1, size_t row2,
                                 int64_t nsamples) {
  long double re = 0, im = 0;
  for (int64_t t = 0; t < nsamples; ++t) {
    const double ar = packed_value(host, row1 + 2 * t, element_bytes);
    const double ai = packed_value(host, row1 + 2 * t + 1, element_bytes);
    const double br = packed_value(host, row2 + 2 * t, element_bytes);
    const double bi = packed_value(host, row2 + 2 * t + 1, element_bytes);
    re += (long double)ar * br + (long double)ai * bi;
    im += (long double)ai * br - (long double)ar * bi;
  }
  return {double(re), double(im)};
}

void check_channel(const CorrelatorShape& s, int64_t nsamples, const void* host,
                   const uint8_t* sums_dev, int c, std::mt19937& rng, GpuCorrelatorTiming& t) {
  const int eb = corr_element_bytes(s.precision), npol = s.npol, nrecv = s.nant * npol;
  const size_t per_channel = size_t(s.nbaselines()) * npol * npol;
  std::vector<uint8_t> sums(per_channel * kCorrSumBytes);
  RAPT_CUDA_CHECK(cudaMemcpy(sums.data(), sums_dev + c * per_channel * kCorrSumBytes, sums.size(),
                             cudaMemcpyDeviceToHost));
  auto gpu_value = [&](size_t k) -> std::complex<double> {
    if (s.precision == CorrPrecision::int8) {
      const auto* v = reinterpret_cast<const int32_t*>(sums.data());
      return {double(v[2 * k]), double(v[2 * k + 1])};
    }
    const auto* v = reinterpret_cast<const float*>(sums.data());
    return {v[2 * k], v[2 * k + 1]};
  };
  auto row = [&](int r) { return (size_t(c) * nrecv + r) * size_t(nsamples) * 2; };
  std::uniform_int_distribution<int> pick(0, nrecv - 1);
  for (int n = 0; n < kCheckedPerChannel; ++n) {
    int r1 = n == 0 ? 0 : n == 1 ? 0 : n == 2 ? nrecv - 1 : pick(rng);
    int r2 = n == 0 ? 0 : n == 1 ? nrecv - 1 : n == 2 ? nrecv - 1 : pick(rng);
    if (r1 / npol > r2 / npol) std::swap(r1, r2);
    const int a1 = r1 / npol, a2 = r2 / npol, p1 = r1 % npol, p2 = r2 % npol;
    const size_t k = (size_t(baseline_index(a1, a2)) * npol + p1) * npol + p2;
    const std::complex<double> want = cpu_product(host, eb, row(r1), row(r2), nsamples);
    const std::complex<double> got = gpu_value(k);
    double error = 0.0;
    if (s.precision == CorrPrecision::int8) {
      error = got == want ? 0.0 : 1.0;
    } else {
      const double p = std::sqrt(cpu_product(host, eb, row(r1), row(r1), nsamples).real() *
                                 cpu_product(host, eb, row(r2), row(r2), nsamples).real());
      error = std::abs(got - want) / p;
    }
    t.max_error = std::max(t.max_error, std::isfinite(error) ? error : 1e30);
    if (!(error <= t.tolerance)) ++t.mismatches;
    ++t.checked;
  }
}

}  // namespace

// Runs the kernel back to back for `seconds`, in batches of launches about 20 ms long (so the
// GPU never idles between them), and returns its mean time over the second half.
double sustained_kernel_seconds(CorrPrecision precision, const CorrChunkArgs& args,
                                const cuda::Stream& stream, double seconds,
                                const std::function<void(bool)>& steady) {
  const cuda::Event start(true), stop(true);
  auto batch_seconds = [&](int launches) {
    start.record(stream.get());
    for (int k = 0; k < launches; ++k) launch_correlator(precision, args, stream.get());
    stop.record(stream.get());
    stop.synchronize();
    return cuda::elapsed_seconds(start, stop);
  };
  const int launches = std::max(1, int(0.02 / std::max(batch_seconds(1), 1e-6)));
  double elapsed = 0.0, timed = 0.0;
  int64_t timed_launches = 0;
  bool second_half = false;
  while (elapsed < seconds) {
    if (!second_half && elapsed >= 0.5 * seconds) {
      second_half = true;
      if (steady) steady(true);
    }
    const double s = batch_seconds(launches);
    elapsed += s;
    if (second_half) {
      timed += s;
      timed_launches += launches;
    }
  }
  if (steady && second_half) steady(false);
  return timed_launches ? timed / double(timed_launches) : 0.0;
}

GpuCorrelatorTiming time_gpu_correlator(const CorrelatorShape& shape, int64_t nsamples, int gpu,
                                        int repeats, double sustain_s,
                                        const std::function<void(bool)>& steady) {
  const cuda::DeviceGuard guard(gpu);
  const int nrecv = shape.nant * shape.npol, eb = corr_element_bytes(shape.precision);
  GpuCorrelatorTiming t;
  t.kernel = correlator_kernel_text(shape.precision, nrecv);
  t.tolerance = shape.precision == CorrPrecision::int8   ? 0.0
                : shape.precision == CorrPrecision::fp16 ? 1e-4
                                                         : 1e-5;
  t.input_bytes = corr_packed_bytes(shape.precision, shape.nchan, nrecv, nsamples);
  const size_t sums_bytes = shape.nvis() * size_t(kCorrSumBytes);

  const cuda::Stream copy, compute;
  cuda::DeviceBuffer<uint8_t> input(t.input_bytes), sums(sums_bytes);
  cuda::PinnedBuffer<uint8_t> host(t.input_bytes);
  const size_t count = t.input_bytes / size_t(eb);
  fill_packed_kernel<<<unsigned(std::min<size_t>((count + 255) / 256, 1 << 16)), 256, 0,
                       compute.get()>>>(input.get(), count, eb);
  RAPT_CUDA_CHECK_LAUNCH("packed input fill");
  RAPT_CUDA_CHECK(cudaMemcpyAsync(host.get(), input.get(), t.input_bytes, cudaMemcpyDeviceToHost,
                                  compute.get()));
  RAPT_CUDA_CHECK(cudaMemsetAsync(sums.get(), 0, sums_bytes, compute.get()));
  // The engine's scratch for the wgmma kernels' split items.
  cuda::DeviceBuffer<uint8_t> split_scratch(corr_split_scratch_bytes(shape.precision, nrecv));
  if (split_scratch.size())
    RAPT_CUDA_CHECK(cudaMemsetAsync(split_scratch.get(), 0, split_scratch.size(), compute.get()));

  CorrChunkArgs all;
  all.packed = input.get();
  all.nchan = shape.nchan;
  all.nant = shape.nant;
  all.npol = shape.npol;
  all.tpad = nsamples;
  all.sums = sums.get();
  all.split_scratch = split_scratch.get();
  all.first = true;  // each launch is a whole integration, as a one-chunk one in the engine

  // The warm-up's sums are the checked ones.
  launch_correlator(shape.precision, all, compute.get());
  compute.synchronize();
  std::mt19937 rng(12345);
  check_channel(shape, nsamples, host.get(), sums.get(), 0, rng, t);
  if (shape.nchan > 1)
    check_channel(shape, nsamples, host.get(), sums.get(), shape.nchan - 1, rng, t);

  const cuda::Event start(true), stop(true);
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    start.record(compute.get());
    launch_correlator(shape.precision, all, compute.get());
    stop.record(compute.get());
    stop.synchronize();
    times.push_back(cuda::elapsed_seconds(start, stop));
  }
  t.kernel_s = median(times);
  if (sustain_s > 0.0) t.sustained_s = sustained_kernel_seconds(shape.precision, all, compute, sustain_s, steady);

  // Upload and correlation in chunks of channels on two streams, as the engine runs them.
  const int per_chunk = (shape.nchan + kUploadChunks - 1) / kUploadChunks;
  const size_t per_channel = corr_packed_bytes(shape.precision, 1, nrecv, nsamples);
  std::vector<cuda::Event> uploaded(kUploadChunks);
  times.clear();
  for (int r = 0; r <= repeats; ++r) {  // the first run warms up
    start.record(copy.get());
    for (int k = 0, c0 = 0; c0 < shape.nchan; ++k, c0 += per_chunk) {
      CorrChunkArgs part = all;
      part.chan0 = c0;
      part.nchan = std::min(per_chunk, shape.nchan - c0);
      part.packed = input.get() + c0 * per_channel;
      RAPT_CUDA_CHECK(cudaMemcpyAsync(input.get() + c0 * per_channel, host.get() + c0 * per_channel,
                                      part.nchan * per_channel, cudaMemcpyHostToDevice,
                                      copy.get()));
      uploaded[size_t(k)].record(copy.get());
      uploaded[size_t(k)].make_wait(compute.get());
      launch_correlator(shape.precision, part, compute.get());
    }
    stop.record(compute.get());
    stop.synchronize();
    if (r > 0) times.push_back(cuda::elapsed_seconds(start, stop));
  }
  t.with_upload_s = median(times);
  return t;
}

}  // namespace rapt::gpu
