#include "snr_gpu_bench.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "../cuda/device_buffer.hpp"
#include "snr/boxcar_engine.hpp"
#include "../snr/snr_boxcar_kernels.hpp"
#include "../snr/snr_device_search.hpp"

namespace rapt::gpu {
namespace {

// Hits of series 0 on both sides; a hit within 1e-3 of the threshold may be on one side only.
void check_first_series(const std::vector<BoxcarHit>& device_hits, const float* series0,
                        int64_t length, const std::vector<int>& widths, float threshold,
                        GpuBoxcarTiming& t) {
  std::vector<BoxcarHit> cpu;
  std::vector<double> scratch;
  boxcar_hits_of_series(series0, length, widths, threshold, 0, scratch, cpu);
  std::map<std::tuple<int, int64_t>, float> gpu;
  for (const BoxcarHit& h : device_hits)
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
  DeviceBoxcarSearch search(widths, threshold, gpu);

  GpuBoxcarTiming t;
  t.input_bytes = count * sizeof(float);
  std::vector<double> times;
  std::vector<BoxcarHit> hits;
  cuda::Event start(true), stop(true);
  for (int r = 0; r <= repeats; ++r) {  // the first run warms up (and sizes the hit list)
    hits.clear();
    start.record(stream.get());
    search.launch(series.get(), length, 0, num_series, length, stream.get());
    stop.record(stream.get());
    stop.synchronize();
    if (!search.collect(stream.get(), hits)) {
      --r;  // the list overflowed and has grown: this run is not a measurement
      continue;
    }
    if (r > 0) times.push_back(cuda::elapsed_seconds(start, stop));
  }
  std::sort(times.begin(), times.end());
  t.kernel_s = times[times.size() / 2];
  t.hits = hits.size();
  std::vector<float> first(static_cast<size_t>(length));
  RAPT_CUDA_CHECK(cudaMemcpy(first.data(), series.get(), first.size() * sizeof(float),
                             cudaMemcpyDeviceToHost));
  check_first_series(hits, first.data(), length, widths, threshold, t);
  return t;
}

}  // namespace rapt::gpu
