// Host emulation of the dedispersion kernels: every block's threads run one after another
// between the kernel's barriers, on the per-thread code of dedisp_kernels.cuh.
#include <cstring>
#include <stdexcept>

#include "dedisp_chunks.hpp"
#include "dedisp_emulation.hpp"
#include "dedisp_kernels.cuh"

namespace rapt::gpu {
namespace {

size_t blocks_for(size_t n, size_t per_block) { return (n + per_block - 1) / per_block; }

template <class Sums>
void emulate_tiled_with(const TiledParams& p, const DedispTileConfig& config) {
  const int nthreads = config.threads();
  const size_t grid_x = blocks_for(p.nsamp, size_t(p.samples_per_block));
  const size_t grid_y = blocks_for(size_t(p.ndm), size_t(p.dms_per_block));
  // Poisoned shared memory: a read of a word nothing staged gives a wrong sum, not a lucky 0.
  std::vector<uint32_t> smem(size_t(2) * size_t(p.stage_words));
  std::vector<Sums> sums(static_cast<size_t>(nthreads));
  for (size_t by = 0; by < grid_y; ++by)
    for (size_t bx = 0; bx < grid_x; ++bx) {
      std::fill(smem.begin(), smem.end(), 0xA5A5A5A5u);
      // Recomputed at each use: what the thread's registers hold for the whole kernel.
      const auto where = [&](int tid) {
        return tiled_thread_pos(p, tid, nthreads, unsigned(bx), unsigned(by));
      };
      for (int tid = 0; tid < nthreads; ++tid) sums[size_t(tid)].clear();
      const int nstages = tiled_stage_count(p);
      for (int s = 0; s < nstages; ++s) {
        uint32_t* buffer = smem.data() + size_t(s & 1) * size_t(p.stage_words);
        for (int tid = 0; tid < nthreads; ++tid) sums[size_t(tid)].stage(p, buffer, s, where(tid));
        for (int tid = 0; tid < nthreads; ++tid)
          sums[size_t(tid)].add(p, buffer, tiled_stage_channels(p, s), where(tid));
        if (tiled_flush_due(p, s))
          for (int tid = 0; tid < nthreads; ++tid) sums[size_t(tid)].flush();
      }
      for (int tid = 0; tid < nthreads; ++tid) {
        sums[size_t(tid)].flush();
        sums[size_t(tid)].store(p, where(tid));
      }
    }
}

}  // namespace

void emulate_unpack(const UnpackParams& p) {
  UnpackTile tile;
  for (size_t by = 0; by < blocks_for(size_t(p.nactive), kUnpackTile); ++by)
    for (size_t bx = 0; bx < blocks_for(p.nspectra, kUnpackTile); ++bx) {
      const size_t s0 = bx * kUnpackTile;
      const int k0 = int(by) * kUnpackTile;
      for (int ty = 0; ty < kUnpackRowsPerPass; ++ty)
        for (int tx = 0; tx < kUnpackTile; ++tx) unpack_load(p, tile, tx, ty, s0, k0);
      for (int ty = 0; ty < kUnpackRowsPerPass; ++ty)
        for (int tx = 0; tx < kUnpackTile; ++tx) unpack_store(p, tile, tx, ty, s0, k0);
    }
}

void emulate_tiled_dedisp(const TiledParams& p, DedispSampleKind kind,
                          const DedispTileConfig& config) {
  if (p.nsamp == 0 || p.ndm == 0) return;
#define RAPT_U8_CASE(NQ, ND)                                           \
  if (kind == DedispSampleKind::u8 && config.steps_per_thread == NQ && \
      config.dms_per_thread == ND)                                     \
    return emulate_tiled_with<U8Sums<NQ, ND>>(p, config);
#define RAPT_F32_CASE(NT, ND)                                           \
  if (kind == DedispSampleKind::f32 && config.steps_per_thread == NT && \
      config.dms_per_thread == ND)                                      \
    return emulate_tiled_with<F32Sums<NT, ND>>(p, config);
  RAPT_DEDISP_U8_TILES(RAPT_U8_CASE)
  RAPT_DEDISP_F32_TILES(RAPT_F32_CASE)
#undef RAPT_U8_CASE
#undef RAPT_F32_CASE
  throw std::logic_error("no dedispersion kernel compiled for " + config.text());
}

void emulate_direct_dedisp(const DirectParams& p) {
  for (int row = 0; row < p.ndm; ++row)
    for (size_t t = 0; t < p.nsamp; ++t) direct_output(p, t, row);
}

void emulate_downsample(const DownsampleParams& p) {
  for (int row = 0; row < p.nrows; ++row)
    for (size_t k = 0; k < p.nout; ++k) downsample_output(p, row, k);
}

void emulate_gpu_dedisp(const DedispPlan& plan, const SpectraBlock& in, float* out,
                        size_t out_stride, const EmulationOptions& options) {
  plan.validate();
  const DedispDelays delays = make_dedisp_delays(plan);
  const DedispSampleKind kind = sample_kind_for_nbits(in.nbits);
  const bool tiled = options.config.has_value();
  DedispTileTables tables;
  if (tiled) tables = make_tile_tables(delays, kind, *options.config);
  const TileTablePointers table_at{tables.window_start.data(), tables.window_words.data(),
                                   tables.stage_offsets.data()};
  const int dms_per_unit = tiled ? tables.dms_per_block : 1;
  const int dm_units = tiled ? tables.ndm_blocks : delays.ndm();
  const size_t n_out = in.nspectra - size_t(delays.max_delay);
  const size_t ds = size_t(plan.downsamp);
  DedispChunking chunking = options.chunking;
  if (chunking.samples == 0) chunking = {n_out, dm_units};

  const size_t spectrum_bytes = size_t(plan.nchans) * size_t(in.nbits) / 8;
  std::vector<uint32_t> rows;  // 32-bit words; uint8 rows use it as bytes
  size_t row_stride = 0;
  for (const DedispChunk& chunk : chunk_schedule(n_out, dm_units, chunking)) {
    if (chunk.new_time_chunk) {
      const size_t nspectra = chunk.nsamp + size_t(delays.max_delay);
      row_stride = unpacked_row_stride(nspectra, kind);
      rows.assign(size_t(delays.nactive()) * row_stride + 4, 0u);
      UnpackParams u;
      u.raw = static_cast<const uint8_t*>(in.data) + chunk.first_sample * spectrum_bytes;
      u.spectrum_bytes = spectrum_bytes;
      u.nbits = in.nbits;
      u.nspectra = nspectra;
      u.active_channels = delays.active_channels.data();
      u.nactive = delays.nactive();
      u.rows = rows.data();
      u.row_stride = row_stride;
      emulate_unpack(u);
    }
    const SortedDmRange dms = chunk_dms(chunk, dms_per_unit, delays.ndm());
    const size_t nout = chunk.nsamp / ds;
    const size_t out_chunk_stride = output_row_stride(nout);
    // Poisoned outputs: every sample the kernels should write is checked by the caller.
    std::vector<float> chunk_out(size_t(dms.count) * out_chunk_stride, -1.0e30f);
    const size_t full_stride = output_row_stride(chunk.nsamp);
    std::vector<uint32_t> full(ds > 1 ? size_t(dms.count) * full_stride : 0, 0xDEADBEEFu);
    const bool out_u32 = ds > 1 && kind == DedispSampleKind::u8;
    void* dest = ds > 1 ? static_cast<void*>(full.data()) : static_cast<void*>(chunk_out.data());
    const size_t dest_stride = ds > 1 ? full_stride : out_chunk_stride;
    if (tiled)
      emulate_tiled_dedisp(make_tiled_params(tables, table_at, chunk, rows.data(), row_stride, dest,
                                             dest_stride, out_u32),
                           kind, *options.config);
    else
      emulate_direct_dedisp(make_direct_params(delays, delays.delays.data(), chunk,
                                               kind == DedispSampleKind::u8, rows.data(),
                                               row_stride, dest, dest_stride, out_u32));
    if (ds > 1) {
      DownsampleParams d;
      d.full = full.data();
      d.full_u32 = out_u32;
      d.full_stride = full_stride;
      d.downsamp = int(ds);
      d.nrows = dms.count;
      d.nout = nout;
      d.out = chunk_out.data();
      d.out_stride = out_chunk_stride;
      emulate_downsample(d);
    }
    copy_rows_to_output(chunk_out.data(), out_chunk_stride, dms, delays.dm_order,
                        chunk.first_sample / ds, nout, out, out_stride);
  }
}

}  // namespace rapt::gpu
