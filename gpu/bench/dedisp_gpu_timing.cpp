// Kernel-level timing of the GPU dedispersion for the benchmark: the block's packed input sits
// in GPU memory (and in page-locked host memory for the timing with the upload), the kernels
// run chunk by chunk as in the engine, and device events time them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "cli/errors.hpp"
#include "../dedisp/dedisp_autotune.hpp"
#include "../dedisp/dedisp_chunks.hpp"
#include "../dedisp/dedisp_device_runner.hpp"
#include "../dedisp/dedisp_kernels.hpp"
#include "../cuda/device_buffer.hpp"
#include "gpu_bench.hpp"
#include "../cuda/random_words.hpp"

namespace rapt::gpu {
namespace {

constexpr uint32_t kBenchSeed = 0xbe7c4u;

// Sample (t, c) of the random block, as the unpack kernel reads it.
float block_value(const DedispPlan& plan, int nbits, size_t t, int c) {
  if (nbits == 32) return random_float(t * size_t(plan.nchans) + size_t(c), kBenchSeed);
  const size_t spectrum_bytes = size_t(plan.nchans) * size_t(nbits) / 8;
  const size_t bit = size_t(c) * size_t(nbits);
  const uint32_t byte = random_byte(t * spectrum_bytes + bit / 8, kBenchSeed);
  return float((byte >> (bit % 8)) & ((1u << nbits) - 1u));
}

// Output k of sorted DM j, summed on the CPU in the engines' order.
float cpu_output(const DedispPlan& plan, const DedispDelays& d, int nbits, int j, size_t k) {
  float total = 0.0f;
  for (int i = 0; i < plan.downsamp; ++i) {
    const size_t t = k * size_t(plan.downsamp) + size_t(i);
    float sum = 0.0f;
    for (int a = 0; a < d.nactive(); ++a)
      sum += block_value(plan, nbits, t + size_t(d.delays[size_t(j) * d.nactive() + a]),
                         d.active_channels[size_t(a)]);
    total += sum;
  }
  return total;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Compares the first 16 and last 16 outputs of three DMs of the first chunk with the CPU.
void spot_check(const DedispPlan& plan, const DedispDelays& d, int nbits, const float* out,
                size_t out_stride, size_t nout, int ndm, GpuDedispTiming& timing) {
  std::vector<float> row(nout);
  for (int j : {0, ndm / 2, ndm - 1}) {
    RAPT_CUDA_CHECK(cudaMemcpy(row.data(), out + size_t(j) * out_stride, nout * sizeof(float),
                               cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < nout; k = (k == 15 && nout > 32) ? nout - 16 : k + 1) {
      const float want = cpu_output(plan, d, nbits, j, k);
      const double tol = nbits == 32 ? 1e-6 * std::max(1.0, std::fabs(double(want))) : 0.0;
      ++timing.checked;
      if (!(std::fabs(double(row[k]) - double(want)) <= tol)) ++timing.mismatches;
    }
  }
}

// Batches sized from the measured time of one run, so the host syncs (and leaves the GPU idle)
// only once per `min_seconds` or so.
template <typename RunBlock>
void run_sustained(const GpuSustainedRun& request, const cuda::Stream& stream, RunBlock run_block,
                   GpuDedispTiming& timing) {
  const double batch_runs = std::ceil(request.min_seconds / std::max(timing.kernel_s, 1e-6));
  const size_t batch = size_t(std::clamp(batch_runs, 1.0, 1e6));
  stream.synchronize();
  if (request.begin) request.begin();
  const auto start = std::chrono::steady_clock::now();
  do {
    for (size_t i = 0; i < batch; ++i) run_block();
    stream.synchronize();
    timing.sustained_runs += batch;
    timing.sustained_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (timing.sustained_s < request.min_seconds);
  if (request.end) request.end();
}

}  // namespace

GpuDedispTiming time_gpu_dedisp(const DedispPlan& plan, int nbits, size_t nspectra, int gpu,
                                const GpuDedispOptions& options, int repeats,
                                const GpuSustainedRun* sustained) {
  plan.validate();
  const cuda::DeviceGuard device(gpu);
  auto delays = std::make_shared<const DedispDelays>(make_dedisp_delays(plan));
  const DedispSampleKind kind = sample_kind_for_nbits(nbits);
  const KernelChoice choice = choose_dedisp_kernel(delays, plan, nbits, gpu, options);
  const DedispDeviceRunner runner(delays, kind, plan.downsamp, choice.config);
  const size_t max_delay = size_t(delays->max_delay), ds = size_t(plan.downsamp);
  if (nspectra <= max_delay + ds)
    throw UsageError("benchmark block of " + std::to_string(nspectra) +
                     " spectra is not longer than the maximum delay");
  const size_t n_out = (nspectra - max_delay) / ds * ds;
  const size_t spectrum_bytes = size_t(plan.nchans) * size_t(nbits) / 8;
  GpuDedispTiming timing;
  timing.kernel = runner.description() + " [" + choice.source + "]";
  for (const TunedCandidate& c : choice.candidates) {
    ++timing.tuned;
    if (c.valid) continue;
    if (timing.tuned_failures++ == 0)
      timing.first_failure =
          c.config.text() + ": " +
          (c.failure.empty() ? std::to_string(c.mismatches) + " outputs differ" : c.failure);
  }
  if (choice.config) {
    const KernelResources r = tiled_kernel_resources(kind, *choice.config);
    timing.kernel += ", " + std::to_string(r.registers) + " registers" +
                     (r.local_bytes ? ", " + std::to_string(r.local_bytes) + " bytes spilled" : "");
  }
  timing.input_bytes = (n_out + max_delay) * spectrum_bytes;
  timing.output_bytes = size_t(delays->ndm()) * (n_out / ds) * sizeof(float);

  const cuda::Stream stream;
  cuda::DeviceBuffer<uint32_t> raw((timing.input_bytes + 3) / 4);
  cuda::PinnedBuffer<uint8_t> pinned(timing.input_bytes);
  launch_fill_random(raw.get(), raw.size(), kBenchSeed, nbits == 32, stream.get());
  RAPT_CUDA_CHECK(cudaMemcpyAsync(pinned.get(), raw.get(), timing.input_bytes,
                                  cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();

  DedispGeometry g;
  g.kind = kind, g.nbits = nbits, g.nchans = plan.nchans, g.nactive = delays->nactive();
  g.max_delay = delays->max_delay, g.downsamp = plan.downsamp, g.dm_units = runner.dm_units();
  g.dms_per_unit = runner.dms_per_unit(), g.samples_per_block = runner.samples_per_block();
  size_t free_bytes = 0, total_bytes = 0;
  RAPT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t budget =
      options.device_memory_bytes ? options.device_memory_bytes : free_bytes / 10 * 8;
  const DedispChunking chunking = choose_chunking(g, n_out, budget, ~size_t(0));
  const DedispChunkMemory m = chunk_memory(g, chunking);
  cuda::DeviceBuffer<uint32_t> rows(
      (m.rows_elems * (kind == DedispSampleKind::u8 ? 1 : 4) + 3) / 4 + 4);
  cuda::DeviceBuffer<float> out(m.out_elems);
  cuda::DeviceBuffer<uint32_t> full(m.full_elems);
  const std::vector<DedispChunk> schedule = chunk_schedule(n_out, runner.dm_units(), chunking);
  const auto* raw_bytes = reinterpret_cast<const uint8_t*>(raw.get());
  auto run_chunk = [&](const DedispChunk& chunk) {
    if (chunk.new_time_chunk)
      runner.unpack(raw_bytes + chunk.first_sample * spectrum_bytes, nbits, plan.nchans,
                    chunk.nsamp + max_delay, rows.get(), m.row_stride, stream.get());
    runner.dedisperse(chunk, rows.get(), m.row_stride, out.get(), m.out_stride, full.get(),
                      m.full_stride, stream.get());
  };

  const cuda::Event start(true), stop(true);
  std::vector<double> kernel_times, upload_times;
  for (int rep = 0; rep <= repeats; ++rep) {  // the first of each is a warm-up
    start.record(stream.get());
    for (const DedispChunk& chunk : schedule) run_chunk(chunk);
    stop.record(stream.get());
    stop.synchronize();
    if (rep > 0) kernel_times.push_back(cuda::elapsed_seconds(start, stop));
    start.record(stream.get());
    RAPT_CUDA_CHECK(cudaMemcpyAsync(raw.get(), pinned.get(), timing.input_bytes,
                                    cudaMemcpyHostToDevice, stream.get()));
    for (const DedispChunk& chunk : schedule) run_chunk(chunk);
    stop.record(stream.get());
    stop.synchronize();
    if (rep > 0) upload_times.push_back(cuda::elapsed_seconds(start, stop));
  }
  timing.kernel_s = median(kernel_times);
  timing.with_upload_s = median(upload_times);
  if (sustained)
    run_sustained(*sustained, stream, [&] { for (const DedispChunk& c : schedule) run_chunk(c); },
                  timing);

  const DedispChunk& first = schedule.front();
  RAPT_CUDA_CHECK(cudaMemsetAsync(out.get(), 0xFF, out.bytes(), stream.get()));
  run_chunk(first);
  stream.synchronize();
  spot_check(plan, *delays, nbits, out.get(), m.out_stride, first.nsamp / ds,
             chunk_dms(first, runner.dms_per_unit(), delays->ndm()).count, timing);
  return timing;
}

}  // namespace rapt::gpu
