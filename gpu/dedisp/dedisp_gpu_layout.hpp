// Host-side layout of the CUDA dedispersion: which channels and DMs the kernels see, in what
// order, and the tables the tiled kernel reads. No CUDA headers: the engine, the host emulation
// of the kernels, the auto-tuner and the tests all build the same layout from this code.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dedisp/dedisp_plan.hpp"
#include "dedisp_tile_config.hpp"

namespace rapt::gpu {

// The plan as the kernels see it. DMs are sorted by DM so that a block of neighbouring DMs has
// similar delays (short shared windows) whatever order the plan lists them in; outputs go back
// to the plan's order when they are copied out.
struct DedispDelays {
  std::vector<int32_t> active_channels;  // unzapped channels, ascending: the summation order
  std::vector<int32_t> dm_order;         // dm_order[j]: plan DM index at sorted position j
  std::vector<int32_t> delays;           // [j * nactive + k], input samples
  int32_t max_delay = 0;                 // over active channels (the engine's max_delay())

  int nactive() const { return int(active_channels.size()); }
  int ndm() const { return int(dm_order.size()); }
};

DedispDelays make_dedisp_delays(const DedispPlan& plan);

// What the tiled kernel reads for one configuration. DMs (in sorted order) are grouped in blocks
// of dms_per_block; the last block is padded with copies of the last DM, never written out.
struct DedispTileTables {
  DedispSampleKind kind = DedispSampleKind::u8;
  DedispTileConfig config;
  int nactive = 0;
  int ndm = 0;
  int dms_per_block = 0;
  int ndm_blocks = 0;
  int samples_per_block = 0;
  // Per (DM block b, active channel k): the window of input samples the block needs, starting
  // window_start[b * nactive + k] samples after the tile's first output sample.
  std::vector<int32_t> window_start;
  // Per (b, k): 32-bit words to stage per copy (8-bit rows: four copies shifted by 0..3 bytes)
  // or floats to stage (float rows).
  std::vector<int32_t> window_words;
  // Per (b, k, DM i of the block): where DM i's samples start within the channel's staged slot,
  // in bytes (so the kernel adds it to a pointer as it is): word copy * window_capacity + word
  // for 8-bit rows, float o for float rows, o being the DM's delay minus window_start.
  std::vector<int32_t> stage_offsets;
  int window_capacity = 0;  // words per copy (8-bit) or floats (float) of one channel slot
  int slot_words = 0;       // 32-bit words of one channel slot
  int offsets_at = 0;       // word where a stage buffer's DM offsets begin (16-byte aligned)
  int stage_words = 0;      // 32-bit words of one stage buffer; the kernel keeps two

  size_t shared_bytes() const { return size_t(2) * size_t(stage_words) * 4; }
};

// Dynamic shared memory per block for `config`, computed without building the tables.
size_t tile_shared_bytes(const DedispDelays& delays, DedispSampleKind kind,
                         const DedispTileConfig& config);

// The same from the largest delay spread within a block of config.dms_per_block() DMs
// (max_block_spread), which many configurations share.
int32_t max_block_spread(const DedispDelays& delays, int dms_per_block);
size_t tile_shared_bytes_for_spread(const DedispDelays& delays, DedispSampleKind kind,
                                    const DedispTileConfig& config, int32_t spread);

DedispTileTables make_tile_tables(const DedispDelays& delays, DedispSampleKind kind,
                                  const DedispTileConfig& config);

// Elements (bytes or floats) between the starts of two unpacked channel rows holding `nspectra`
// samples: padded so that 16-byte loads past the last sample stay inside the row.
size_t unpacked_row_stride(size_t nspectra, DedispSampleKind kind);

// Floats between output rows holding `nsamples` samples (a multiple of 32: aligned rows).
size_t output_row_stride(size_t nsamples);

}  // namespace rapt::gpu
