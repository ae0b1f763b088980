#include "dedisp_autotune.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "cli/errors.hpp"
#include "../cuda/cuda_device_query.hpp"
#include "dedisp_device_runner.hpp"
#include "dedisp_kernels.hpp"
#include "dedisp_tune_cache.hpp"
#include "../cuda/device_buffer.hpp"
#include "../cuda/random_words.hpp"

namespace rapt::gpu {
namespace {

constexpr uint32_t kTuneSeed = 0x5eed7u;

size_t round_up(size_t n, size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

// Enough samples that each run takes milliseconds, few enough that tuning takes seconds.
size_t tuning_samples(const DedispDelays& d) {
  const size_t work = std::max<size_t>(size_t(d.ndm()) * size_t(std::max(d.nactive(), 1)), 1);
  return std::clamp<size_t>(round_up((size_t(1) << 33) / work, 4096), 8192, 65536);
}

// The tuning block's input, as the host sees it (the device filled it with random_words).
float input_value(DedispSampleKind kind, int nchans, size_t t, int c) {
  if (kind == DedispSampleKind::u8)
    return float(random_byte(t * size_t(nchans) + size_t(c), kTuneSeed));
  return random_float(t * size_t(nchans) + size_t(c), kTuneSeed);
}

// The direct kernel against a plain CPU sum for three DMs at both ends of the block.
void check_reference_on_cpu(const DedispPlan& plan, const DedispDelays& d, DedispSampleKind kind,
                            const float* want, size_t out_stride, size_t samples) {
  const int nactive = d.nactive();
  std::vector<float> row(out_stride);
  for (int j : {0, d.ndm() / 2, d.ndm() - 1}) {
    RAPT_CUDA_CHECK(cudaMemcpy(row.data(), want + size_t(j) * out_stride,
                               out_stride * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < samples; t = (t == 31 && samples > 64) ? samples - 32 : t + 1) {
      float sum = 0.0f;
      for (int k = 0; k < nactive; ++k)
        sum += input_value(kind, plan.nchans, t + size_t(d.delays[size_t(j) * nactive + k]),
                           d.active_channels[size_t(k)]);
      if (!(row[t] == sum))
        throw DataError("GPU dedispersion self-check failed: the direct kernel gives " +
                        std::to_string(row[t]) + " for DM " +
                        std::to_string(plan.dms[size_t(d.dm_order[size_t(j)])]) + ", sample " +
                        std::to_string(t) + "; the CPU gives " + std::to_string(sum));
    }
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The candidate's output against the reference, then its median time over three runs.
TunedCandidate measure_one(const std::shared_ptr<const DedispDelays>& delays, DedispSampleKind kind,
                           const DedispTileConfig& config, const DedispChunk& all, const void* rows,
                           size_t row_stride, const float* want, float* got, size_t out_stride,
                           unsigned long long* count, const cuda::Stream& stream) {
  TunedCandidate r;
  r.config = config;
  try {
    DedispDeviceRunner runner(delays, kind, 1, config);
    DedispChunk chunk = all;
    chunk.nunits = runner.dm_units();
    const size_t out_bytes = size_t(delays->ndm()) * out_stride * sizeof(float);
    RAPT_CUDA_CHECK(cudaMemsetAsync(got, 0xFF, out_bytes, stream.get()));  // NaN: unwritten
    runner.dedisperse(chunk, rows, row_stride, got, out_stride, nullptr, 0, stream.get());
    RAPT_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof *count, stream.get()));
    launch_count_mismatches(got, want, out_stride, chunk.nsamp, delays->ndm(),
                            kind == DedispSampleKind::u8 ? 0.0f : 1e-6f, count, stream.get());
    unsigned long long bad = 0;
    RAPT_CUDA_CHECK(cudaMemcpyAsync(&bad, count, sizeof bad, cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
    r.mismatches = size_t(bad);
    r.valid = bad == 0;
    if (!r.valid) return r;
    const cuda::Event start(true), stop(true);
    std::vector<double> times;
    for (int rep = 0; rep < 3; ++rep) {
      start.record(stream.get());
      runner.dedisperse(chunk, rows, row_stride, got, out_stride, nullptr, 0, stream.get());
      stop.record(stream.get());
      stop.synchronize();
      times.push_back(cuda::elapsed_seconds(start, stop));
    }
    r.seconds = median(times);
  } catch (const DataError& e) {
    r.valid = false;
    r.failure = e.what();
  }
  return r;
}

std::vector<DedispTileConfig> fitting_candidates(const DedispDelays& d, DedispSampleKind kind) {
  const size_t limit = device_shared_memory_limit();
  std::map<int, int32_t> spreads;  // by DMs per block: a pass over every delay each
  std::vector<DedispTileConfig> out;
  for (const DedispTileConfig& c : tile_config_candidates(kind)) {
    const int dms = c.dms_per_block();
    if (!spreads.count(dms)) spreads[dms] = max_block_spread(d, dms);
    if (tile_shared_bytes_for_spread(d, kind, c, spreads[dms]) <= limit) out.push_back(c);
  }
  return out;
}

KernelChoice tuned_choice(const std::shared_ptr<const DedispDelays>& delays, const DedispPlan& plan,
                          DedispSampleKind kind, const std::vector<DedispTileConfig>& fitting) {
  KernelChoice choice;
  choice.source = "tuned";
  choice.candidates = measure_tile_configs(delays, plan, kind, fitting);
  const TunedCandidate* best = nullptr;
  for (const TunedCandidate& c : choice.candidates)
    if (c.valid && (!best || c.seconds < best->seconds)) best = &c;
  if (!best) {
    const TunedCandidate& first = choice.candidates.front();
    throw DataError(
        "GPU dedispersion self-check failed: no tiled configuration matches the "
        "direct kernel (" +
        first.config.text() + ": " +
        (first.failure.empty() ? std::to_string(first.mismatches) + " outputs differ"
                               : first.failure) +
        ")");
  }
  choice.config = best->config;
  return choice;
}

}  // namespace

std::vector<TunedCandidate> measure_tile_configs(const std::shared_ptr<const DedispDelays>& delays,
                                                 const DedispPlan& plan, DedispSampleKind kind,
                                                 const std::vector<DedispTileConfig>& configs) {
  const DedispDelays& d = *delays;
  const int nbits = kind == DedispSampleKind::u8 ? 8 : 32;
  const size_t samples = tuning_samples(d);
  const size_t nspectra = samples + size_t(d.max_delay);
  const size_t raw_bytes = nspectra * size_t(plan.nchans) * size_t(nbits) / 8;
  const size_t row_stride = unpacked_row_stride(nspectra, kind);
  const size_t row_bytes =
      size_t(d.nactive()) * row_stride * (kind == DedispSampleKind::u8 ? 1 : 4);
  const size_t out_stride = output_row_stride(samples);
  const cuda::Stream stream;
  cuda::DeviceBuffer<uint32_t> raw((raw_bytes + 3) / 4);
  cuda::DeviceBuffer<uint32_t> rows(row_bytes / 4 + 4);
  cuda::DeviceBuffer<float> want(size_t(d.ndm()) * out_stride), got(want.size());
  cuda::DeviceBuffer<unsigned long long> count(1);
  launch_fill_random(raw.get(), raw.size(), kTuneSeed, kind == DedispSampleKind::f32, stream.get());

  DedispDeviceRunner reference(delays, kind, 1, std::nullopt);
  reference.unpack(reinterpret_cast<const uint8_t*>(raw.get()), nbits, plan.nchans, nspectra,
                   rows.get(), row_stride, stream.get());
  DedispChunk all;
  all.nsamp = samples;
  all.nunits = reference.dm_units();
  all.new_time_chunk = true;
  reference.dedisperse(all, rows.get(), row_stride, want.get(), out_stride, nullptr, 0,
                       stream.get());
  stream.synchronize();
  check_reference_on_cpu(plan, d, kind, want.get(), out_stride, samples);

  std::vector<TunedCandidate> results;
  for (const DedispTileConfig& config : configs)
    results.push_back(measure_one(delays, kind, config, all, rows.get(), row_stride, want.get(),
                                  got.get(), out_stride, count.get(), stream));
  return results;
}

KernelChoice choose_dedisp_kernel(const std::shared_ptr<const DedispDelays>& delays,
                                  const DedispPlan& plan, int nbits, int gpu,
                                  const GpuDedispOptions& options) {
  const cuda::DeviceGuard device(gpu);
  const DedispSampleKind kind = sample_kind_for_nbits(nbits);
  KernelChoice choice;
  if (options.force_direct) {
    choice.source = "direct (asked for)";
    return choice;
  }
  if (options.forced_config) {
    const DedispTileConfig& c = *options.forced_config;
    if (!is_compiled_config(c, kind))
      throw UsageError("dedispersion tile configuration \"" + c.text() + "\" is not compiled for " +
                       sample_kind_name(kind) + " input");
    if (tile_shared_bytes(*delays, kind, c) > device_shared_memory_limit())
      throw UsageError("dedispersion tile configuration \"" + c.text() +
                       "\" needs more shared memory than this GPU has for these DMs");
    choice.config = c;
    choice.source = "forced";
    return choice;
  }
  const std::vector<DedispTileConfig> fitting = fitting_candidates(*delays, kind);
  if (fitting.empty()) {
    choice.source = "direct (the DMs are too far apart for any tile's shared memory)";
    return choice;
  }
  if (options.tuning == TuneMode::off) {
    const DedispTileConfig fallback = default_tile_config(kind);
    const bool fits = std::find(fitting.begin(), fitting.end(), fallback) != fitting.end();
    choice.config = fits ? fallback : fitting.front();
    choice.source = "default";
    return choice;
  }
  const std::string path =
      options.tune_cache_path.empty() ? default_tune_cache_path() : options.tune_cache_path;
  const TuneKey key = make_tune_key(cuda::device_name(gpu), plan, nbits);
  if (options.tuning == TuneMode::cached && !path.empty())
    if (const auto text = find_tuned_config(path, key))
      if (const auto c = parse_tile_config(*text, kind))
        if (std::find(fitting.begin(), fitting.end(), *c) != fitting.end()) {
          choice.config = *c;
          choice.source = "cache";
          return choice;
        }
  choice = tuned_choice(delays, plan, kind, fitting);
  if (!path.empty()) {
    try {
      store_tuned_config(path, key, choice.config->text());
    } catch (const DataError& e) {
      choice.cache_problem = e.what();
    }
  }
  return choice;
}

}  // namespace rapt::gpu
