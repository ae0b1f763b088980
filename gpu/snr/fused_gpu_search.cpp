// snr's fused mode on one GPU (common/snr/fused_search.hpp): the dedispersed series never leave
// the device. For each batch of DMs that fits in half the free GPU memory:
//   1. the filterbank is read in gulps (overlapping by the batch's largest delay) and each
//      gulp is dedispersed straight into the batch's rows (DeviceDedispEngine::
//      execute_to_device), the next gulp read while the GPU works on the last; a downsampled
//      plan range's sums become means, as dedisp writes them;
//   2. every detrend block is detrended and its sigma measured (snr_normalise_kernels);
//   3. the host takes each series' bad-block decision from its sigmas and sends back one scale
//      per block; the blocks are scaled (bad ones zeroed);
//   4. the boxcar kernel searches every row and only the hits come back.
// Events are then made on the host, as for series read from files.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../cuda/device_buffer.hpp"
#include "../dedisp/dedisp_gpu_options.hpp"
#include "cli/errors.hpp"
#include "cli/stopwatch.hpp"
#include "dedisp/parallel_for.hpp"
#include "dedisp/spectra_input.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"
#include "snr/series_normaliser.hpp"
#include "snr/single_pulse_search.hpp"
#include "snr/snr_gpu_factory.hpp"
#include "snr_device_search.hpp"
#include "snr_normalise_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr size_t kGulp = 32768;              // new spectra per dedispersion call (4 | kGulp)
constexpr size_t kMaxBatch = 65535;          // rows per kernel launch (grid y)

// Dedisperses `dms` over the first `length` samples (of `downsamp` spectra each: their sums)
// into rows of `stride` floats at `rows`.
void dedisperse_into(const FusedDedispPlan& fused, const std::vector<double>& dms, int downsamp,
                     int gpu, float* rows, size_t stride, int64_t length,
                     FusedSearchTiming& timing) {
  Stopwatch start;
  FusedInput file(fused.input, fused.cleaning);
  const std::unique_ptr<DeviceDedispEngine> engine = make_device_dedisp_engine(
      fused_dedisp_plan(file.info(), dms, file.zapped(), downsamp), gpu, GpuDedispOptions{});
  SpectraInput input(file.source(), file.raw());
  const size_t capacity = kGulp + size_t(engine->max_delay());
  // Samples of a DM trial past its last real one are never searched, so the padding after the
  // end of the data is never seen: zeros will do.
  SpectraBuffer buffer(input, capacity, false);
  timing.setup_s += start.seconds();
  for (int64_t first = 0; first < length * downsamp; first += int64_t(kGulp)) {
    start = Stopwatch();
    if (buffer.fill() < capacity) buffer.pad_with_zeros();
    timing.read_s += start.seconds();
    // Returns before the GPU is done: the next gulp is read meanwhile.
    engine->execute_to_device(buffer.block(), rows + first / downsamp, stride);
    buffer.shift(kGulp);
  }
  engine->synchronize();
  file.report_warnings(fused.reader_warning);
}

template <typename T>
void upload(T* device, const std::vector<T>& host, cudaStream_t stream) {
  RAPT_CUDA_CHECK(cudaMemcpyAsync(device, host.data(), host.size() * sizeof(T),
                                  cudaMemcpyHostToDevice, stream));
}

}  // namespace
}  // namespace rapt::gpu

namespace rapt {

std::vector<std::vector<SinglePulseEvent>> run_fused_search_cuda(
    const FusedDedispPlan& plan, const std::vector<SeriesInput>& series,
    const SnrSettings& settings, int gpu_index, FusedSearchTiming& timing) {
  using namespace rapt::gpu;
  const cuda::DeviceGuard guard(gpu_index);
  const std::vector<DmTrialGroup> groups = fused_groups(plan);
  const std::vector<double> dms = fused_dms(plan);
  if (series.size() != dms.size()) throw std::logic_error("fused search: series and DMs differ");
  // One sampling time a call (snr searches a plan's downsamplings one at a time), a power of
  // two dividing the gulp, so that a gulp's samples are whole and their means exact (below).
  const int downsamp = groups.empty() ? 1 : groups.front().downsamp;
  for (const DmTrialGroup& group : groups)
    if (group.downsamp != downsamp)
      throw std::logic_error("fused search: one downsampling a call");
  if (kGulp % size_t(downsamp) != 0)
    throw UsageError("the fused search on a GPU downsamples by powers of two up to " +
                     std::to_string(kGulp) + ", not " + std::to_string(downsamp) +
                     ": give a smaller --max-downsamp, or --device cpu");
  const int64_t len = settings.detrend_len;
  DetrendParams p = detrend_params(settings);
  const size_t n = series.size();
  std::vector<int64_t> searched(n);
  for (size_t i = 0; i < n; ++i)
    searched[i] = searched_length(series[i], series[i].usable_samples, len);
  const int64_t longest = *std::max_element(searched.begin(), searched.end());
  const size_t stride = (size_t(longest) + kGulp - 1) / kGulp * kGulp;
  const int64_t max_blocks = longest / len;

  size_t free_bytes = 0, total_bytes = 0;
  RAPT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t row_bytes = stride * sizeof(float) + size_t(max_blocks) * 12;
  const size_t fit = size_t(double(free_bytes) * plan.gpu_memory_share) / row_bytes;
  if (fit == 0)
    throw DataError(plan.input + ": one DM trial's series needs " +
                    cuda::byte_size_text(row_bytes) + " of GPU memory and " +
                    cuda::byte_size_text(free_bytes) + " are free; use --device cpu");
  size_t batch = std::min({fit, n, kMaxBatch});
  if (plan.gpu_batch_dms > 0) batch = std::min(batch, plan.gpu_batch_dms);

  cuda::DeviceBuffer<float> rows(batch * stride);
  cuda::DeviceBuffer<int32_t> whole_dev(batch);
  cuda::DeviceBuffer<double> sigma_dev(batch * size_t(max_blocks));
  cuda::DeviceBuffer<float> scale_dev(batch * size_t(max_blocks));
  cuda::Stream stream;
  DeviceBoxcarSearch search(settings.widths, float(settings.threshold), gpu_index);
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));

  std::vector<BoxcarHit> hits;
  std::vector<std::vector<bool>> bad_blocks(n);
  for (size_t first = 0; first < n; first += batch) {
    const size_t count = std::min(batch, n - first);
    const std::vector<double> batch_dms(dms.begin() + int64_t(first),
                                        dms.begin() + int64_t(first + count));
    const int64_t length =
        *std::max_element(searched.begin() + int64_t(first), searched.begin() + int64_t(first + count));
    const int blocks = int(length / len);
    Stopwatch start;
    dedisperse_into(plan, batch_dms, downsamp, gpu_index, rows.get(), stride, length, timing);
    timing.dedisperse_s += start.seconds();
    timing.batches += 1;
    start = Stopwatch();
    launch_sums_to_means(rows.get(), int64_t(stride), int(count), blocks, int(len), downsamp,
                         scale_dev.get(), stream.get());

    std::vector<int32_t> whole(count);
    for (size_t i = 0; i < count; ++i) whole[i] = int32_t(searched[first + i] / len);
    upload(whole_dev.get(), whole, stream.get());
    p.series = rows.get();
    p.row_stride = int64_t(stride);
    p.num_series = int(count);
    p.whole_blocks = whole_dev.get();
    p.max_blocks = blocks;
    p.sigma = sigma_dev.get();
    launch_detrend_blocks(p, stream.get());
    std::vector<double> sigma(count * size_t(blocks));
    RAPT_CUDA_CHECK(cudaMemcpyAsync(sigma.data(), sigma_dev.get(), sigma.size() * sizeof(double),
                                    cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();

    // The bad-block test needs all of a series' sigmas: the one step on the host.
    std::vector<float> scale(sigma.size(), 0.0f);
    parallel_for(threads, count, [&](size_t i, int) {
      const size_t at = i * size_t(blocks);
      bad_blocks[first + i] = block_scales(sigma.data() + at, whole[i], settings, scale.data() + at);
    });
    upload(scale_dev.get(), scale, stream.get());
    launch_scale_blocks(rows.get(), int64_t(stride), int(count), blocks, int(len), scale_dev.get(),
                        stream.get());
    stream.synchronize();
    timing.normalise_s += start.seconds();
    start = Stopwatch();
    search.search(rows.get(), int64_t(stride), int(first), int(count), length, stream.get(), hits);
    timing.search_s += start.seconds();
  }
  const Stopwatch start;
  sort_boxcar_hits(hits);
  auto events = events_of_series(hits, series, searched, bad_blocks, settings.widths, len);
  timing.events_s += start.seconds();
  return events;
}

}  // namespace rapt
