#include "dedisp_chunks.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "cli/errors.hpp"

namespace rapt::gpu {

DedispChunkMemory chunk_memory(const DedispGeometry& g, const DedispChunking& c) {
  DedispChunkMemory m;
  const size_t in_spectra = c.samples + size_t(g.max_delay);
  const size_t elem = g.kind == DedispSampleKind::u8 ? 1 : 4;
  const size_t dms = size_t(c.dm_units) * size_t(g.dms_per_unit);
  m.raw_bytes = in_spectra * (size_t(g.nchans) * size_t(g.nbits) / 8);
  m.row_stride = unpacked_row_stride(in_spectra, g.kind);
  m.rows_elems = size_t(g.nactive) * m.row_stride;
  m.out_stride = output_row_stride(c.samples / size_t(g.downsamp));
  m.out_elems = dms * m.out_stride;
  m.full_stride = g.downsamp > 1 ? output_row_stride(c.samples) : 0;
  m.full_elems = dms * m.full_stride;
  m.device_bytes = 2 * m.raw_bytes + 2 * m.rows_elems * elem + 2 * m.out_elems * 4 +
                   m.full_elems * 4 + g.table_bytes;
  m.pinned_bytes = 2 * m.raw_bytes + 2 * m.out_elems * 4;
  return m;
}

DedispChunking choose_chunking(const DedispGeometry& g, size_t n_out, size_t device_budget,
                               size_t pinned_budget) {
  const size_t ds = size_t(g.downsamp);
  const size_t fine = std::lcm(ds, size_t(32));
  const size_t coarse = std::lcm(ds, size_t(std::max(g.samples_per_block, 4)));
  // Long blocks go in chunks of at least four maximum delays, so that re-reading the overlap
  // costs at most a quarter more input.
  const size_t cap = std::max<size_t>(size_t(1) << 18, 4 * size_t(g.max_delay));
  DedispChunking c;
  c.samples = n_out <= cap ? n_out : std::max(cap / coarse * coarse, coarse);
  c.dm_units = std::max(1, g.dm_units);
  const size_t all_outputs = size_t(c.dm_units) * size_t(g.dms_per_unit) * c.samples;
  if (c.dm_units >= 4 && all_outputs >= (size_t(1) << 24)) c.dm_units = (c.dm_units + 3) / 4;
  c.dm_units = std::min(c.dm_units, 65535);  // grid y limit
  for (;;) {
    const DedispChunkMemory m = chunk_memory(g, c);
    if (m.device_bytes <= device_budget && m.pinned_bytes <= pinned_budget) return c;
    if (c.dm_units > 1) {
      c.dm_units = (c.dm_units + 1) / 2;
    } else if (c.samples > fine) {
      c.samples = std::max(c.samples / 2 / fine * fine, fine);
    } else {
      throw DataError("not enough memory for GPU dedispersion: the smallest chunk (" +
                      std::to_string(c.samples) + " samples x " + std::to_string(g.dms_per_unit) +
                      " DMs, maximum delay " + std::to_string(g.max_delay) + ") needs " +
                      std::to_string(m.device_bytes >> 20) + " MiB of GPU memory and " +
                      std::to_string(m.pinned_bytes >> 20) +
                      " MiB of page-locked memory; the budget is " +
                      std::to_string(device_budget >> 20) + " MiB and " +
                      std::to_string(pinned_budget >> 20) + " MiB");
    }
  }
}

std::vector<DedispChunk> chunk_schedule(size_t n_out, int dm_units, const DedispChunking& c) {
  std::vector<DedispChunk> schedule;
  const size_t step = std::max<size_t>(c.samples, 1);
  const int units = std::max(c.dm_units, 1);
  int time_chunk = 0;
  for (size_t first = 0; first < n_out; first += step, ++time_chunk)
    for (int unit = 0; unit < dm_units; unit += units) {
      DedispChunk chunk;
      chunk.first_sample = first;
      chunk.nsamp = std::min(step, n_out - first);
      chunk.first_unit = unit;
      chunk.nunits = std::min(units, dm_units - unit);
      chunk.new_time_chunk = unit == 0;
      chunk.time_chunk = time_chunk;
      schedule.push_back(chunk);
    }
  return schedule;
}

SortedDmRange chunk_dms(const DedispChunk& chunk, int dms_per_unit, int ndm) {
  SortedDmRange r;
  r.first = chunk.first_unit * dms_per_unit;
  r.count = std::max(0, std::min(chunk.nunits * dms_per_unit, ndm - r.first));
  return r;
}

TiledParams make_tiled_params(const DedispTileTables& t, const TileTablePointers& at,
                              const DedispChunk& chunk, const void* rows, size_t row_stride,
                              void* out, size_t out_stride, bool out_u32) {
  TiledParams p;
  p.rows = rows;
  p.row_stride = row_stride;
  p.nactive = t.nactive;
  p.window_start = at.window_start;
  p.window_words = at.window_words;
  p.stage_offsets = at.stage_offsets;
  p.dms_per_block = t.dms_per_block;
  p.first_dm_block = chunk.first_unit;
  p.ndm = chunk_dms(chunk, t.dms_per_block, t.ndm).count;
  p.nsamp = chunk.nsamp;
  p.samples_per_block = t.samples_per_block;
  p.warps_time = t.config.warps_time;
  p.channels_per_stage = t.config.channels_per_stage;
  p.window_capacity = t.window_capacity;
  p.slot_words = t.slot_words;
  p.offsets_at = t.offsets_at;
  p.stage_words = t.stage_words;
  p.out = out;
  p.out_stride = out_stride;
  p.out_u32 = out_u32;
  return p;
}

DirectParams make_direct_params(const DedispDelays& delays, const int32_t* delays_at,
                                const DedispChunk& chunk, bool rows_u8, const void* rows,
                                size_t row_stride, void* out, size_t out_stride, bool out_u32) {
  DirectParams p;
  p.rows = rows;
  p.row_stride = row_stride;
  p.rows_u8 = rows_u8;
  p.nactive = delays.nactive();
  p.delays = delays_at;
  const SortedDmRange dms = chunk_dms(chunk, 1, delays.ndm());
  p.first_dm = dms.first;
  p.ndm = dms.count;
  p.nsamp = chunk.nsamp;
  p.out = out;
  p.out_stride = out_stride;
  p.out_u32 = out_u32;
  return p;
}

void copy_rows_to_output(const float* chunk, size_t chunk_stride, SortedDmRange dms,
                         const std::vector<int32_t>& dm_order, size_t first_col, size_t ncols,
                         float* out, size_t out_stride) {
  for (int r = 0; r < dms.count; ++r)
    std::memcpy(out + size_t(dm_order[size_t(dms.first + r)]) * out_stride + first_col,
                chunk + size_t(r) * chunk_stride, ncols * sizeof(float));
}

}  // namespace rapt::gpu
