#include "snr/single_pulse_events.hpp"

#include <algorithm>
#include <cstdlib>

namespace rapt {

std::vector<BoxcarHit> keep_local_maxima(const std::vector<BoxcarHit>& hits, int64_t radius) {
  // PRESTO's prune_related1: walk forward; of two hits within `radius`, the weaker goes
  // (the earlier one on a tie).
  std::vector<bool> removed(hits.size(), false);
  for (size_t i = 0; i + 1 < hits.size(); ++i) {
    if (removed[i]) continue;
    for (size_t j = i + 1; j < hits.size(); ++j) {
      if (std::llabs(hits[j].sample - hits[i].sample) > radius) break;
      if (removed[j]) continue;
      if (hits[i].snr > hits[j].snr) {
        removed[j] = true;
      } else {
        removed[i] = true;
      }
    }
  }
  std::vector<BoxcarHit> kept;
  for (size_t i = 0; i < hits.size(); ++i)
    if (!removed[i]) kept.push_back(hits[i]);
  return kept;
}

std::vector<SinglePulseEvent> prune_across_widths(const std::vector<SinglePulseEvent>& events,
                                                  int max_width) {
  // PRESTO's prune_related2.
  std::vector<bool> removed(events.size(), false);
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    if (removed[i]) continue;
    const SinglePulseEvent& x = events[i];
    for (size_t j = i + 1; j < events.size(); ++j) {
      const SinglePulseEvent& y = events[j];
      const int64_t gap = std::llabs(y.sample - x.sample);
      if (gap > max_width / 2) break;
      if (removed[j]) continue;
      const int proximity = std::max({x.downfact / 2, y.downfact / 2, 1});
      if (gap <= proximity) {
        if (x.sigma > y.sigma) {
          removed[j] = true;
        } else {
          removed[i] = true;
        }
      }
    }
  }
  std::vector<SinglePulseEvent> kept;
  for (size_t i = 0; i < events.size(); ++i)
    if (!removed[i]) kept.push_back(events[i]);
  return kept;
}

namespace {

bool touches_off_region(const SinglePulseEvent& e, const std::vector<BinRange>& off_regions) {
  const double lo = double(e.sample) - e.downfact / 2.0;
  const double hi = double(e.sample) + e.downfact / 2.0;
  for (const BinRange& off : off_regions)
    if (lo < double(off.second) && hi > double(off.first)) return true;
  return false;
}

bool in_bad_block(int64_t sample, const EventContext& context) {
  const size_t block = size_t(sample / context.detrend_len);
  return block < context.bad_blocks.size() && context.bad_blocks[block];
}

}  // namespace

std::vector<SinglePulseEvent> events_from_hits(const std::vector<BoxcarHit>& hits,
                                               const std::vector<int>& widths,
                                               const EventContext& context) {
  std::vector<SinglePulseEvent> events;
  size_t begin = 0;
  while (begin < hits.size()) {
    size_t end = begin;
    while (end < hits.size() && hits[end].width_index == hits[begin].width_index) ++end;
    const int width = widths[size_t(hits[begin].width_index)];
    std::vector<BoxcarHit> group(hits.begin() + begin, hits.begin() + end);
    if (width > 1) group = keep_local_maxima(group, width / 2);
    for (const BoxcarHit& h : group) {
      if (in_bad_block(h.sample, context)) continue;
      SinglePulseEvent e;
      e.dm = context.dm;
      e.sigma = h.snr;
      e.sample = h.sample;
      e.time_s = double(h.sample) * context.dt_s;
      e.downfact = width;
      events.push_back(e);
    }
    begin = end;
  }
  // PRESTO inserts each width's events after equal samples: a stable sort by sample.
  std::stable_sort(events.begin(), events.end(),
                   [](const SinglePulseEvent& a, const SinglePulseEvent& b) {
                     return a.sample < b.sample;
                   });
  const int max_width = widths.empty() ? 1 : widths.back();
  events = prune_across_widths(events, max_width);
  std::vector<SinglePulseEvent> kept;
  for (const SinglePulseEvent& e : events)
    if (!touches_off_region(e, context.off_regions)) kept.push_back(e);
  return kept;
}

}  // namespace rapt
