#include "snr_gpu_bench.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "../cuda/device_buffer.hpp"
#include "snr/boxcar_engine.hpp"
#include "../snr/snr_boxcar_kernels.hpp"

namespace rapt::gpu {
namespace {

// Hits of series 0 on both sides; a hit within 1e-3 of the threshold may be on one side only.
void check_first_series(const std::vector<DeviceBoxcarHit>& device_hits, const float* series0,
                        int64_t length, const std::vector<int>& widths, float threshold,
                        GpuBoxcarTiming& t) {
  std::vector<BoxcarHit> cpu;
  std::vector<double> scratch;
  boxcar_hits_of_series(series0, length, widths, threshold, 0, scratch, cpu);
  std::map<std::tuple<int, int64_t>, float> gpu;
  for (const DeviceBoxcarHit& h : device_hits)
    if (h.series == 0) gpu[{h.width_index, h.sample}] = h.snr;
  for (const BoxcarHit& h : cpu) {
    ++t.checked_hits;
    const auto it = gpu.find({h.width_index, h.sample});
    const bool near_threshold = h.snr - threshold < 1e-3f;
    if (it == gpu.end() ? !near_threshold : std::fabs(it->second - h.snr) > 1e-3f)
      ++t.mismatched_hits;
    if (it != gpu.end()) gpu.erase(it);
  }
  for (const auto& [key, snr] : gpu)
    if (snr - threshold >= 1e-3f) ++t.mismatched_hits;
}

}  // namespace

GpuBoxcarTiming time_gpu_boxcar(int num_series, int64_t length, const std::vector<int>& widths,
                                float threshold, int gpu, int repeats) {
  cuda::DeviceGuard guard(gpu);
  cuda::Stream stream;
  const size_t count = size_t(num_series) * size_t(length);
  cuda::DeviceBuffer<float> series(count);
  launch_fill_gaussian(series.get(), count, 12345u, stream.get());
  std::vector<float> scales;
  for (int w : widths) scales.push_back(float(1.0 / std::sqrt(double(w))));
  cuda::DeviceBuffer<int> widths_dev(widths.size());
  cuda::DeviceBuffer<float> scales_dev(scales.size());
  RAPT_CUDA_CHECK(cudaMemcpy(widths_dev.get(), widths.data(), widths_dev.bytes(),
                             cudaMemcpyHostToDevice));
  RAPT_CUDA_CHECK(cudaMemcpy(scales_dev.get(), scales.data(), scales_dev.bytes(),
                             cudaMemcpyHostToDevice));
  cuda::DeviceBuffer<DeviceBoxcarHit> hits(size_t(1) << 22);
  cuda::DeviceBuffer<unsigned long long> found(1);

  BoxcarKernelParams p;
  p.series = series.get();
  p.length = length;
  p.num_series = num_series;
  p.widths = widths_dev.get();
  p.scales = scales_dev.get();
  p.num_widths = int(widths.size());
  p.max_width = widths.back();
  p.threshold = threshold;
  p.default_widths = uses_default_boxcar_widths(widths.data(), int(widths.size()));
  p.hits = hits.get();
  p.count = found.get();
  p.capacity = hits.size();

  GpuBoxcarTiming t;
  t.input_bytes = count * sizeof(float);
  std::vector<double> times;
  cuda::Event start(true), stop(true);
  for (int r = 0; r <= repeats; ++r) {  // the first run warms up
    RAPT_CUDA_CHECK(cudaMemsetAsync(found.get(), 0, sizeof(unsigned long long), stream.get()));
    start.record(stream.get());
    launch_boxcar_search(p, stream.get());
    stop.record(stream.get());
    stop.synchronize();
    if (r > 0) times.push_back(cuda::elapsed_seconds(start, stop));
  }
  std::sort(times.begin(), times.end());
  t.kernel_s = times[times.size() / 2];
  unsigned long long n = 0;
  RAPT_CUDA_CHECK(cudaMemcpy(&n, found.get(), sizeof n, cudaMemcpyDeviceToHost));
  t.hits = size_t(n);
  std::vector<DeviceBoxcarHit> host_hits(std::min<size_t>(t.hits, hits.size()));
  RAPT_CUDA_CHECK(cudaMemcpy(host_hits.data(), hits.get(),
                             host_hits.size() * sizeof(DeviceBoxcarHit), cudaMemcpyDeviceToHost));
  std::vector<float> first(static_cast<size_t>(length));
  RAPT_CUDA_CHECK(cudaMemcpy(first.data(), series.get(), first.size() * sizeof(float),
                             cudaMemcpyDeviceToHost));
  check_first_series(host_hits, first.data(), length, widths, threshold, t);
  if (t.hits > hits.size()) t.mismatched_hits += t.hits - hits.size();  // list overflowed
  return t;
}

}  // namespace rapt::gpu
