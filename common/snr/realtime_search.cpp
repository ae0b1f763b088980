#include "snr/realtime_search.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <memory>
#include <numeric>
#include <thread>
#include <utility>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/stop_request.hpp"
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

int64_t realtime_chunk_length(int64_t requested, int64_t detrend_len, int max_downsamp) {
  const int64_t unit = std::lcm(detrend_len, int64_t(4)) * max_downsamp;
  if (requested < 0 || requested % unit != 0)
    throw UsageError("--chunk must be a positive multiple of " + std::to_string(unit) +
                     " spectra (the detrend length and 4" +
                     (max_downsamp > 1 ? ", times the plan's largest downsampling, " +
                                             std::to_string(max_downsamp)
                                       : std::string()) +
                     "), not " + std::to_string(requested));
  if (requested > 0) return requested;
  return std::max(unit, (kDefaultChunk + unit - 1) / unit * unit);
}

size_t clusters_to_hand_out(const std::vector<int64_t>& earliest,
                            const std::vector<int64_t>& latest, int64_t line, int64_t open_longest) {
  size_t count = 0;
  while (count < latest.size() &&
         (latest[count] < line ||
          (line != std::numeric_limits<int64_t>::max() && earliest[count] < line - open_longest)))
    ++count;
  return count;
}

std::string realtime_root(const std::string& input) {
  return input == "-" ? "stdin" : fused_input_root(input);
}

namespace {

// One sampling time of the search (the DM grid, or the DM plan's ranges of one downsampling)
// with its engine, its widths and what waits for the next chunk.
struct Range {
  int downsamp = 1;
  int scale = 1;        // its sampling time in samples of the finest range
  size_t first = 0;     // its first DM's index among all the search's DMs
  std::vector<double> dms;
  SnrSettings settings;  // widths in its own samples
  int max_width = 0;
  RealtimeShape shape;
  std::unique_ptr<RealtimeEngine> engine;
  std::vector<std::vector<BoxcarHit>> pending;  // hits at series sample numbers
  std::vector<std::vector<bool>> bad_blocks;
  int blocks = 0;              // detrend blocks of this chunk
  int64_t searched_end = 0;    // samples searched so far
};

// An event waiting for clustering, with its range's scale.
struct ScaledEvent {
  SinglePulseEvent event;
  int scale = 1;
};

// The line before which one series' waiting hits (sorted by width, then sample) become events
// now: `nominal`, or lower where hits no more than `radius` apart straddle it, since the pruning
// (PRESTO's, within half the widest boxcar) compares those as the file search does; but no
// further below `nominal` than `longest`, where a run of hits that long is cut.
int64_t release_line(const std::vector<BoxcarHit>& hits, int64_t nominal, int64_t radius,
                     int64_t longest) {
  std::vector<int64_t> samples;
  for (const BoxcarHit& h : hits) samples.push_back(h.sample);
  std::sort(samples.begin(), samples.end());
  int64_t line = nominal;
  auto above = std::lower_bound(samples.begin(), samples.end(), line);  // the first held
  while (above != samples.begin()) {
    const int64_t below = *(above - 1);  // the last released
    if (above == samples.end() || *above - below > radius) return line;
    line = below;
    --above;
    if (nominal - line > longest) return nominal;
  }
  return line;
}

// The search's DM trials by downsampling: the plan's ranges (consecutive ones of one
// downsampling together), or the DM grid at full resolution.
std::vector<DmTrialGroup> trial_groups(const RealtimePlan& plan, const ObservationInfo& info) {
  if (!plan.dm_plan.enabled) {
    if (plan.dms.empty()) throw UsageError("the real-time search needs --numdms");
    return {{plan.dms, 1}};
  }
  std::string table;
  std::vector<DmTrialGroup> groups;
  for (DmTrialGroup& range : plan_trial_groups(plan.dm_plan, info, plan.lodm,
                                               kDispersionConstantPresto, 1, &table)) {
    if (!groups.empty() && groups.back().downsamp == range.downsamp)
      groups.back().dms.insert(groups.back().dms.end(), range.dms.begin(), range.dms.end());
    else
      groups.push_back(std::move(range));
  }
  if (plan.plan_table) plan.plan_table(table.substr(0, table.size() - 1));
  return groups;
}

}  // namespace

RealtimeResult run_realtime_search(
    const RealtimePlan& plan,
    const std::function<void(const std::vector<PulseCandidate>&)>& on_candidates,
    const std::function<void(const RealtimeProgress&)>& on_chunk) {
  // A stop before the header and a first spectrum have come leaves nothing to search.
  std::unique_ptr<FusedInput> opened;
  try {
    const StopWakesReads waking;
    opened = std::make_unique<FusedInput>(plan.input, plan.cleaning);
  } catch (const DataError&) {
    if (stop_requested())
      throw file_error(plan.input, "stopped before its header and a first spectrum came");
    throw;
  }
  FusedInput& file = *opened;
  const ObservationInfo info = file.info();
  const std::vector<DmTrialGroup> groups = trial_groups(plan, info);
  int finest = groups.front().downsamp, coarsest = groups.front().downsamp;
  for (const DmTrialGroup& g : groups) {
    finest = std::min(finest, g.downsamp);
    coarsest = std::max(coarsest, g.downsamp);
  }
  const int64_t len = plan.settings.detrend_len;
  const int64_t chunk = realtime_chunk_length(plan.chunk, len, coarsest);  // spectra
  const int threads = plan.threads > 0 ? plan.threads
                                       : int(std::max(1u, std::thread::hardware_concurrency()));
  const DeviceChoice device = choose_device(plan.device);
  const std::string root = realtime_root(plan.input);

  RealtimeResult result;
  std::vector<Range> ranges;
  std::vector<SeriesInput> described;
  for (const DmTrialGroup& g : groups) {
    Range r;
    r.downsamp = g.downsamp;
    r.scale = g.downsamp / finest;
    r.first = result.dms.size();
    r.dms = g.dms;
    result.dms.insert(result.dms.end(), g.dms.begin(), g.dms.end());
    r.settings = plan.settings;
    const double dt_s = info.tsamp_s * g.downsamp;
    if (plan.max_width_s > 0.0) r.settings.widths = widths_for_max_seconds(plan.max_width_s, dt_s);
    r.max_width = r.settings.widths.back();
    r.shape.plan = fused_dedisp_plan(info, g.dms, file.zapped(), g.downsamp);
    r.shape.history = (2 * int64_t(r.max_width) + 3) / 4 * 4;  // a boxcar's reach on both sides
    r.shape.chunk = chunk / g.downsamp;
    r.shape.settings = r.settings;
    if (r.shape.chunk < r.shape.history)
      throw UsageError("--chunk " + std::to_string(chunk) + " leaves " +
                       std::to_string(r.shape.chunk) + " samples a chunk at a downsampling of " +
                       std::to_string(g.downsamp) + ", fewer than the " +
                       std::to_string(r.shape.history) + " kept across chunks");
    r.pending.resize(g.dms.size());
    r.bad_blocks.resize(g.dms.size());
    for (double dm : g.dms) {
      SeriesInput s;
      s.root = dm_trial_root(root, dm);
      s.dm = dm;
      s.dt_s = dt_s;
      described.push_back(s);
    }
    ranges.push_back(std::move(r));
  }
  if (plan.on_start) plan.on_start(described);
  for (Range& r : ranges) {
    r.engine = device.use_gpu ? make_gpu_realtime_engine(r.shape, device.gpu_index)
                              : make_cpu_realtime_engine(r.shape, threads);
    if (result.engine.find(r.engine->name()) == std::string::npos)
      result.engine += (result.engine.empty() ? "" : "; ") + r.engine->name();
  }
  result.events.resize(result.dms.size());

  SpectraInput input(file.source(), file.raw());
  size_t delay = 0;
  for (const Range& r : ranges) delay = std::max(delay, size_t(r.engine->max_delay()));
  const size_t capacity = size_t(chunk) + delay;
  // Samples computed from padding are never searched (the last chunk stops at the last sample
  // every DM trial has data for), so the end is padded with zeros.
  SpectraBuffer buffer(input, capacity, false);
  std::vector<ScaledEvent> unclustered;
  RealtimeProgress& progress = result.progress;
  // Chunks are read on a thread of their own (the next while this one is searched). A stop
  // wakes a read that waits for data which may never come (a stalled recorder, tail -f): the
  // data read until then are the last.
  double read_s_of_next = 0.0;
  const auto read_chunk = [&](bool shift_first) {
    return std::async(std::launch::async, [&, shift_first] {
      const StopWakesReads waking;
      if (shift_first) buffer.shift(size_t(chunk));
      const Stopwatch start;
      const size_t n = buffer.fill();
      read_s_of_next = start.seconds();
      return n;
    });
  };
  size_t filled = read_chunk(false).get();
  progress.read_s += read_s_of_next;
  for (bool at_end = false; !at_end;) {
    Stopwatch work_start;
    bool any = false;
    // A stop (a signal, or standard output closed: cli/stop_request) ends the data here.
    if (filled < capacity || stop_requested()) {
      at_end = true;
      buffer.pad_with_zeros();
      result.stopped_by_signal = stop_signal();
    }
    for (Range& r : ranges) {
      const int64_t samples = at_end ? (filled > delay ? int64_t(filled - delay) / r.downsamp : 0)
                                     : r.shape.chunk;
      r.blocks = int(samples / len);
      any = any || r.blocks > 0;
    }
    // Nothing at all to search: the error below. (Once some chunk was searched, an end without
    // a whole block still turns the hits and events that waited for more data into events and
    // candidates.)
    if (!any && progress.chunks == 0) break;
    // Each engine takes the chunk and its own delay's spectra.
    const SpectraBlock whole = buffer.block();
    for (Range& r : ranges)
      if (r.blocks > 0)
        r.engine->dedisperse({whole.data, whole.nbits, size_t(chunk) + size_t(r.engine->max_delay())});
    progress.busy_s += work_start.seconds();
    // The block has gone to the engines: the next chunk is read on another thread while this
    // one is searched (and its candidates handed out, without waiting for the next data).
    std::future<size_t> next;
    if (!at_end) next = read_chunk(true);
    work_start = Stopwatch();

    constexpr int64_t kLast = std::numeric_limits<int64_t>::max();
    int64_t cluster_end = kLast;  // in samples of the finest range
    int64_t reach = 0;            // the widest boxcar, in those samples
    for (Range& r : ranges) {
      const size_t ndm = r.dms.size();
      const int64_t base = r.searched_end;  // series sample of the chunk's first new sample
      reach = std::max(reach, int64_t(r.max_width) * r.scale);
      const int64_t searched_end = base + int64_t(r.blocks) * len;
      // A boxcar centred within max_width of the chunk's end waits for the next chunk's samples;
      // at the end of the data (with no new block, on the history alone) it is taken as it is.
      const int64_t accept_end = at_end ? searched_end : searched_end - r.max_width;
      if (r.blocks > 0 || (at_end && base > 0)) {
        std::vector<float> scale;
        if (r.blocks > 0) {
          const std::vector<double> sigma = r.engine->detrend(r.blocks);
          // The bad-block test among this chunk's blocks, as the file search does over a series.
          scale.assign(sigma.size(), 0.0f);
          parallel_for(threads, ndm, [&](size_t d, int) {
            const size_t at = d * size_t(r.blocks);
            const std::vector<bool> bad =
                block_scales(sigma.data() + at, r.blocks, r.settings, &scale[at]);
            r.bad_blocks[d].insert(r.bad_blocks[d].end(), bad.begin(), bad.end());
          });
        }
        const std::vector<BoxcarHit> hits = r.engine->search(scale, r.blocks);
        const int64_t accept_begin = std::max<int64_t>(0, base - r.max_width);
        for (const BoxcarHit& h : hits) {
          const int64_t sample = base + h.sample - r.shape.history;
          if (sample >= accept_begin && sample < accept_end)
            r.pending[size_t(h.series)].push_back({h.series, h.width_index, sample, h.snr});
        }
      }
      // Events, then candidates, a margin short of that: their pruning looks at neighbours.
      const int64_t event_end = at_end ? kLast : accept_end - 4 * int64_t(r.max_width);
      std::vector<std::vector<SinglePulseEvent>> fresh(ndm);
      std::vector<int64_t> line(ndm, event_end);  // each series' hits before it become events
      parallel_for(threads, ndm, [&](size_t d, int) {
        std::vector<BoxcarHit>& pending = r.pending[d];
        std::sort(pending.begin(), pending.end(), [](const BoxcarHit& a, const BoxcarHit& b) {
          return a.width_index != b.width_index ? a.width_index < b.width_index
                                                : a.sample < b.sample;
        });
        if (!at_end) line[d] = release_line(pending, event_end, r.max_width / 2, r.shape.chunk);
        std::vector<BoxcarHit> ready;
        move_ready(pending, ready, [&](const BoxcarHit& h) { return h.sample < line[d]; });
        if (ready.empty()) return;
        EventContext context;
        context.dm = r.dms[d];
        context.dt_s = info.tsamp_s * r.downsamp;
        context.detrend_len = len;
        context.bad_blocks = std::move(r.bad_blocks[d]);  // lent, not copied: it grows all run
        fresh[d] = events_from_hits(ready, r.settings.widths, context);
        r.bad_blocks[d] = std::move(context.bad_blocks);
      });
      for (size_t d = 0; d < ndm; ++d) {
        std::vector<SinglePulseEvent>& events = result.events[r.first + d];
        events.insert(events.end(), fresh[d].begin(), fresh[d].end());
        for (const SinglePulseEvent& e : fresh[d]) unclustered.push_back({e, r.scale});
      }
      r.searched_end = searched_end;
      if (!at_end) {
        const int64_t first_to_come = *std::min_element(line.begin(), line.end());
        cluster_end = std::min(cluster_end, (first_to_come - int64_t(r.max_width)) * r.scale);
      }
    }
    // The waiting events are clustered; a cluster is final once no event still to come can
    // join it: all its members before every range's events so far, less the widest boxcar and
    // the gap. Final ones go out in time order up to the first that is not. A cluster that has
    // stayed open over more than a chunk of data (interference, a run of events without a gap)
    // goes out as it is, so that the candidates after it are not held for as long as it lasts.
    if (cluster_end != kLast) cluster_end -= reach + plan.cluster.gap_samples;
    if (!unclustered.empty()) {
      std::vector<SinglePulseEvent> events;
      std::vector<int> scales;
      for (const ScaledEvent& e : unclustered) {
        events.push_back(e.event);
        scales.push_back(e.scale);
      }
      std::vector<size_t> cluster_of;
      const std::vector<PulseCandidate> clusters =
          cluster_events(events, result.dms, plan.cluster, scales, &cluster_of);
      std::vector<int64_t> latest(clusters.size(), std::numeric_limits<int64_t>::min());
      std::vector<int64_t> earliest(clusters.size(), kLast);
      for (size_t i = 0; i < events.size(); ++i) {
        const int64_t fine = events[i].sample * scales[i];
        latest[cluster_of[i]] = std::max(latest[cluster_of[i]], fine);
        earliest[cluster_of[i]] = std::min(earliest[cluster_of[i]], fine);
      }
      // Open longest: a chunk, in samples of the finest range.
      const size_t final_count = clusters_to_hand_out(earliest, latest, cluster_end, chunk / finest);
      if (final_count > 0) {
        std::vector<ScaledEvent> waiting;
        for (size_t i = 0; i < events.size(); ++i)
          if (cluster_of[i] >= final_count) waiting.push_back(unclustered[i]);
        unclustered = std::move(waiting);
        const std::vector<PulseCandidate> out(clusters.begin(), clusters.begin() + final_count);
        result.candidates += out.size();
        on_candidates(out);
      }
    }

    progress.busy_s += work_start.seconds();
    if (!any) break;  // the end, its waiting events handed out
    progress.chunks += 1;
    for (const Range& r : ranges)
      progress.data_s = std::max(progress.data_s, double(r.searched_end) * info.tsamp_s * r.downsamp);
    on_chunk(progress);
    if (!at_end) {
      for (Range& r : ranges) r.engine->shift(r.blocks);
      filled = next.get();
      progress.read_s += read_s_of_next;
    }
  }
  if (progress.chunks == 0 && result.stopped_by_signal != 0)
    throw file_error(plan.input, "stopped after " + std::to_string(buffer.spectra_read()) +
                                     " spectra, before one chunk could be searched");
  if (progress.chunks == 0)
    throw file_error(plan.input, std::to_string(buffer.spectra_read()) +
                                     " spectra: the real-time search needs the largest delay (" +
                                     std::to_string(delay) + ") plus one detrend block (" +
                                     std::to_string(len) + (finest > 1 ? " samples of the "
                                     "finest downsampling, " + std::to_string(finest) : "") +
                                     ")");
  file.report_warnings(plan.reader_warning);
  // Ranges the data ended too soon for (their candidates may be out already) are said, and
  // left out of what is written.
  std::vector<std::vector<SinglePulseEvent>> events;
  std::vector<double> dms;
  for (const Range& r : ranges) {
    if (r.searched_end == 0) {
      result.warnings.push_back(
          format_string("%s: DMs %g to %g (downsampled by %d) not searched: the data end before "
                        "one detrend block of theirs (%lld spectra after the largest delay)",
                        plan.input.c_str(), r.dms.front(), r.dms.back(), r.downsamp,
                        static_cast<long long>(len) * r.downsamp));
      continue;
    }
    for (size_t d = 0; d < r.dms.size(); ++d) {
      result.series.push_back(fused_series(root, r.dms[d], info.tsamp_s * r.downsamp,
                                           r.searched_end, r.searched_end));
      events.push_back(std::move(result.events[r.first + d]));
      dms.push_back(r.dms[d]);
    }
  }
  result.events = std::move(events);
  result.dms = std::move(dms);
  return result;
}

}  // namespace rapt
