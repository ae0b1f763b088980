#include "dedisp_gpu_layout.hpp"

#include <algorithm>
#include <numeric>

namespace rapt::gpu {
namespace {

size_t round_up(size_t n, size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

// Smallest and largest delay of a channel over the DMs of a block (padding DMs repeat the last).
struct DelayRange {
  int32_t lo;
  int32_t hi;
};

// Every block's ranges, [b * nactive + k], in one pass over the delays in their own order (a
// DM's delays are contiguous; taking a channel's down the DMs instead jumps a row each time).
std::vector<DelayRange> block_delay_ranges(const DedispDelays& d, int dms_per_block) {
  const size_t nactive = size_t(d.nactive());
  const int nblocks = (d.ndm() + dms_per_block - 1) / dms_per_block;
  std::vector<DelayRange> ranges(size_t(nblocks) * nactive);
  for (int b = 0; b < nblocks; ++b) {
    const int first = b * dms_per_block;
    const int last = std::min(d.ndm(), first + dms_per_block) - 1;
    DelayRange* out = ranges.data() + size_t(b) * nactive;
    const int32_t* row = d.delays.data() + size_t(first) * nactive;
    for (size_t k = 0; k < nactive; ++k) out[k] = {row[k], row[k]};
    for (int j = first + 1; j <= last; ++j) {
      row = d.delays.data() + size_t(j) * nactive;
      for (size_t k = 0; k < nactive; ++k) {
        out[k].lo = std::min(out[k].lo, row[k]);
        out[k].hi = std::max(out[k].hi, row[k]);
      }
    }
  }
  return ranges;
}

int32_t largest_spread(const std::vector<DelayRange>& ranges) {
  int32_t spread = 0;
  for (const DelayRange& r : ranges) spread = std::max(spread, r.hi - r.lo);
  return spread;
}

int32_t window_words_for(DedispSampleKind kind, int samples_per_block, int32_t spread) {
  return kind == DedispSampleKind::u8 ? samples_per_block / 4 + spread / 4
                                      : samples_per_block + spread;
}

// Fills the layout sizes of `t` from the largest delay spread within any block.
void set_stage_sizes(DedispTileTables& t, int32_t max_spread) {
  const int capacity = window_words_for(t.kind, t.samples_per_block, max_spread);
  t.window_capacity = capacity;
  t.slot_words = t.kind == DedispSampleKind::u8 ? 4 * capacity : capacity;
  const size_t slots = size_t(t.config.channels_per_stage) * size_t(t.slot_words);
  t.offsets_at = int(round_up(slots, 4));
  t.stage_words =
      t.offsets_at + int(round_up(size_t(t.config.channels_per_stage) * t.dms_per_block, 4));
}

DedispTileTables empty_tables(const DedispDelays& d, DedispSampleKind kind,
                              const DedispTileConfig& config) {
  DedispTileTables t;
  t.kind = kind;
  t.config = config;
  t.nactive = d.nactive();
  t.ndm = d.ndm();
  t.dms_per_block = config.dms_per_block();
  t.ndm_blocks = (t.ndm + t.dms_per_block - 1) / t.dms_per_block;
  t.samples_per_block = config.samples_per_block(kind);
  return t;
}

}  // namespace

DedispDelays make_dedisp_delays(const DedispPlan& plan) {
  DedispDelays d;
  for (int c = 0; c < plan.nchans; ++c)
    if (plan.zapped.empty() || !plan.zapped[c]) d.active_channels.push_back(c);
  d.dm_order.resize(plan.dms.size());
  std::iota(d.dm_order.begin(), d.dm_order.end(), 0);
  std::stable_sort(d.dm_order.begin(), d.dm_order.end(),
                   [&](int32_t a, int32_t b) { return plan.dms[a] < plan.dms[b]; });
  const std::vector<int32_t> table = plan.delay_table();
  const size_t nactive = d.active_channels.size();
  d.delays.resize(d.dm_order.size() * nactive);
  for (size_t j = 0; j < d.dm_order.size(); ++j)
    for (size_t k = 0; k < nactive; ++k) {
      const int32_t v = table[size_t(d.dm_order[j]) * plan.nchans + d.active_channels[k]];
      d.delays[j * nactive + k] = v;
      d.max_delay = std::max(d.max_delay, v);
    }
  return d;
}

int32_t max_block_spread(const DedispDelays& d, int dms_per_block) {
  return largest_spread(block_delay_ranges(d, dms_per_block));
}

size_t tile_shared_bytes_for_spread(const DedispDelays& delays, DedispSampleKind kind,
                                    const DedispTileConfig& config, int32_t spread) {
  DedispTileTables t = empty_tables(delays, kind, config);
  set_stage_sizes(t, spread);
  return t.shared_bytes();
}

size_t tile_shared_bytes(const DedispDelays& delays, DedispSampleKind kind,
                         const DedispTileConfig& config) {
  return tile_shared_bytes_for_spread(delays, kind, config,
                                      max_block_spread(delays, config.dms_per_block()));
}

DedispTileTables make_tile_tables(const DedispDelays& d, DedispSampleKind kind,
                                  const DedispTileConfig& config) {
  DedispTileTables t = empty_tables(d, kind, config);
  const std::vector<DelayRange> ranges = block_delay_ranges(d, t.dms_per_block);
  set_stage_sizes(t, largest_spread(ranges));
  const size_t nactive = size_t(t.nactive), per_block = size_t(t.dms_per_block);
  t.window_start.resize(size_t(t.ndm_blocks) * nactive);
  t.window_words.resize(t.window_start.size());
  t.stage_offsets.resize(t.window_start.size() * per_block);
  for (size_t at = 0; at < ranges.size(); ++at) {
    t.window_start[at] = ranges[at].lo;
    t.window_words[at] = window_words_for(kind, t.samples_per_block, ranges[at].hi - ranges[at].lo);
  }
  // Offsets [(b * nactive + k) * per_block + i], filled DM row by DM row.
  for (int b = 0; b < t.ndm_blocks; ++b)
    for (size_t i = 0; i < per_block; ++i) {
      const size_t j = std::min(size_t(b) * per_block + i, size_t(t.ndm) - 1);
      const int32_t* row = d.delays.data() + j * nactive;
      const DelayRange* block_ranges = ranges.data() + size_t(b) * nactive;
      int32_t* offsets = t.stage_offsets.data() + size_t(b) * nactive * per_block + i;
      for (size_t k = 0; k < nactive; ++k) {
        const int32_t o = row[k] - block_ranges[k].lo;
        const int32_t word =
            kind == DedispSampleKind::u8 ? (o & 3) * t.window_capacity + (o >> 2) : o;
        offsets[k * per_block] = 4 * word;
      }
    }
  return t;
}

size_t unpacked_row_stride(size_t nspectra, DedispSampleKind kind) {
  return kind == DedispSampleKind::u8 ? round_up(nspectra + 16, 16) : round_up(nspectra + 4, 4);
}

size_t output_row_stride(size_t nsamples) { return round_up(std::max<size_t>(nsamples, 1), 32); }

}  // namespace rapt::gpu
