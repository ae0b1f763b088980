#include "snr/realtime_search.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <numeric>
#include <thread>
#include <utility>

#include "cli/errors.hpp"
#include "cli/stopwatch.hpp"
#include "dedisp/parallel_for.hpp"
#include "dedisp/spectra_input.hpp"
#include "gpu_device.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"
#include "snr/fused_search.hpp"
#include "snr/realtime_engine.hpp"
#include "snr/series_normaliser.hpp"
#include "snr/single_pulse_events.hpp"
#include "snr/snr_options.hpp"

namespace rapt {
namespace {

constexpr int64_t kDefaultChunk = int64_t(1) << 16;

// Moves the elements of `from` that `ready` accepts to the end of `to`; keeps the others.
template <typename T, typename Pred>
void move_ready(std::vector<T>& from, std::vector<T>& to, Pred ready) {
  auto rest = std::stable_partition(from.begin(), from.end(), ready);
  to.insert(to.end(), from.begin(), rest);
  from.erase(from.begin(), rest);
}

}  // namespace

int64_t realtime_chunk_length(int64_t requested, int64_t detrend_len) {
  const int64_t unit = std::lcm(detrend_len, int64_t(4));
  if (requested < 0 || requested % unit != 0)
    throw UsageError("--chunk must be a positive multiple of " + std::to_string(unit) +
                     " samples (the detrend length and 4), not " + std::to_string(requested));
  if (requested > 0) return requested;
  return std::max(unit, (kDefaultChunk + unit - 1) / unit * unit);
}

std::string realtime_root(const std::string& input) {
  return input == "-" ? "stdin" : fused_input_root(input);
}

RealtimeResult run_realtime_search(
    const RealtimePlan& plan,
    const std::function<void(const std::vector<PulseCandidate>&)>& on_candidates,
    const std::function<void(const RealtimeProgress&)>& on_chunk) {
  if (plan.dms.empty()) throw UsageError("the real-time search needs --numdms");
  FusedInput file(plan.input, plan.cleaning);
  const ObservationInfo info = file.info();
  SnrSettings settings = plan.settings;
  if (plan.max_width_s > 0.0) settings.widths = widths_for_max_seconds(plan.max_width_s, info.tsamp_s);
  const int64_t len = settings.detrend_len;
  const int max_width = settings.widths.back();
  RealtimeShape shape;
  shape.plan = fused_dedisp_plan(info, plan.dms, file.zapped());
  shape.history = (2 * int64_t(max_width) + 3) / 4 * 4;  // a boxcar's reach on both sides
  shape.chunk = realtime_chunk_length(plan.chunk, len);
  shape.settings = settings;
  if (shape.chunk < shape.history)
    throw UsageError("--chunk " + std::to_string(shape.chunk) + " is shorter than the " +
                     std::to_string(shape.history) + " samples kept across chunks");
  const int threads = plan.threads > 0 ? plan.threads
                                       : int(std::max(1u, std::thread::hardware_concurrency()));
  const DeviceChoice device = choose_device(plan.device);
  std::unique_ptr<RealtimeEngine> engine =
      device.use_gpu ? make_gpu_realtime_engine(shape, device.gpu_index)
                     : make_cpu_realtime_engine(shape, threads);

  RealtimeResult result;
  result.engine = engine->name();
  const size_t ndm = plan.dms.size();
  result.events.resize(ndm);
  const std::string root = realtime_root(plan.input);

  SpectraInput input(file.source(), file.raw());
  const size_t delay = size_t(engine->max_delay());
  const size_t capacity = size_t(shape.chunk) + delay;
  // Samples computed from padding are never searched (the last chunk stops at the last sample
  // every DM trial has data for), so the end is padded with zeros.
  SpectraBuffer buffer(input, capacity, false);
  const int full_blocks = int(shape.chunk / len);
  std::vector<std::vector<BoxcarHit>> pending(ndm);  // hits at series sample numbers
  std::vector<std::vector<bool>> bad_blocks(ndm);
  std::vector<SinglePulseEvent> unclustered;
  RealtimeProgress& progress = result.progress;
  int64_t base = 0;  // series sample of the chunk's first new sample
  const Stopwatch read_start;
  size_t filled = buffer.fill();
  progress.read_s += read_start.seconds();
  double read_s_of_next = 0.0;
  for (bool at_end = false; !at_end;) {
    Stopwatch work_start;
    int blocks = full_blocks;
    if (filled < capacity) {
      at_end = true;
      blocks = filled > delay ? int(int64_t(filled - delay) / len) : 0;
      if (blocks == 0) break;
      buffer.pad_with_zeros();
    }
    engine->dedisperse(buffer.block());
    progress.busy_s += work_start.seconds();
    // The block has gone to the engine: the next chunk is read on another thread while this
    // one is searched (and its candidates handed out, without waiting for the next data).
    std::future<size_t> next;
    if (!at_end)
      next = std::async(std::launch::async, [&] {
        buffer.shift(size_t(shape.chunk));
        const Stopwatch start;
        const size_t n = buffer.fill();
        read_s_of_next = start.seconds();
        return n;
      });
    work_start = Stopwatch();
    const std::vector<double> sigma = engine->detrend(blocks);

    // The bad-block test among this chunk's blocks, as the file search does over a series.
    std::vector<float> scale(sigma.size(), 0.0f);
    parallel_for(threads, ndm, [&](size_t d, int) {
      const size_t at = d * size_t(blocks);
      const std::vector<bool> bad = block_scales(sigma.data() + at, blocks, settings, &scale[at]);
      bad_blocks[d].insert(bad_blocks[d].end(), bad.begin(), bad.end());
    });
    const std::vector<BoxcarHit> hits = engine->search(scale, blocks);

    // A boxcar centred within max_width of the chunk's end waits for the next chunk's samples.
    const int64_t searched_end = base + int64_t(blocks) * len;
    const int64_t accept_begin = std::max<int64_t>(0, base - max_width);
    const int64_t accept_end = at_end ? searched_end : searched_end - max_width;
    for (const BoxcarHit& h : hits) {
      const int64_t sample = base + h.sample - shape.history;
      if (sample >= accept_begin && sample < accept_end)
        pending[size_t(h.series)].push_back({h.series, h.width_index, sample, h.snr});
    }
    // Events, then candidates, a margin short of that: their pruning looks at neighbours.
    constexpr int64_t kLast = std::numeric_limits<int64_t>::max();
    const int64_t event_end = at_end ? kLast : accept_end - 4 * int64_t(max_width);
    std::vector<std::vector<SinglePulseEvent>> fresh(ndm);
    parallel_for(threads, ndm, [&](size_t d, int) {
      std::sort(pending[d].begin(), pending[d].end(), [](const BoxcarHit& a, const BoxcarHit& b) {
        return a.width_index != b.width_index ? a.width_index < b.width_index
                                              : a.sample < b.sample;
      });
      std::vector<BoxcarHit> ready;
      move_ready(pending[d], ready, [&](const BoxcarHit& h) { return h.sample < event_end; });
      if (ready.empty()) return;
      EventContext context;
      context.dm = plan.dms[d];
      context.dt_s = info.tsamp_s;
      context.detrend_len = len;
      context.bad_blocks = std::move(bad_blocks[d]);  // lent, not copied: it grows all run
      fresh[d] = events_from_hits(ready, settings.widths, context);
      bad_blocks[d] = std::move(context.bad_blocks);
    });
    for (size_t d = 0; d < ndm; ++d) {
      result.events[d].insert(result.events[d].end(), fresh[d].begin(), fresh[d].end());
      unclustered.insert(unclustered.end(), fresh[d].begin(), fresh[d].end());
    }
    const int64_t cluster_end =
        at_end ? kLast : event_end - plan.cluster.gap_samples - 2 * int64_t(max_width);
    std::vector<SinglePulseEvent> ready;
    move_ready(unclustered, ready, [&](const SinglePulseEvent& e) { return e.sample < cluster_end; });
    if (!ready.empty()) {
      const std::vector<PulseCandidate> candidates = cluster_events(ready, plan.dms, plan.cluster);
      result.candidates += candidates.size();
      if (!candidates.empty()) on_candidates(candidates);
    }

    progress.busy_s += work_start.seconds();
    progress.chunks += 1;
    progress.data_s = double(searched_end) * info.tsamp_s;
    on_chunk(progress);
    if (!at_end) {
      engine->shift(blocks);
      base += shape.chunk;
      filled = next.get();
      progress.read_s += read_s_of_next;
    }
  }
  if (progress.chunks == 0)
    throw file_error(plan.input, std::to_string(buffer.spectra_read()) +
                                     " spectra: the real-time search needs the largest delay (" +
                                     std::to_string(delay) + ") plus one detrend block (" +
                                     std::to_string(len) + ")");
  file.report_warnings(plan.reader_warning);
  const int64_t searched = int64_t(std::llround(progress.data_s / info.tsamp_s));
  for (double dm : plan.dms)
    result.series.push_back(fused_series(root, dm, info.tsamp_s, searched, searched));
  return result;
}

}  // namespace rapt
