// How the CUDA dedispersion cuts a block into chunks that fit in GPU memory, the order it runs
// them in, the kernel arguments for each, and the copy of finished rows back into the caller's
// output. No CUDA headers: the engine and the host emulation run the same schedule.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dedisp_gpu_layout.hpp"
#include "dedisp_kernel_params.hpp"

namespace rapt::gpu {

// What sizing the chunks needs to know.
struct DedispGeometry {
  DedispSampleKind kind = DedispSampleKind::u8;
  int nbits = 8;
  int nchans = 0;
  int nactive = 0;
  int32_t max_delay = 0;
  int downsamp = 1;
  int dm_units = 0;  // DM blocks (tiled kernel) or DMs (direct kernel)
  int dms_per_unit = 1;
  int samples_per_block = 4;  // time-chunk lengths are multiples of this (and of downsamp)
  size_t table_bytes = 0;     // device tables, allocated once
};

// A block of n output samples is cut into time chunks of `samples` output samples (full
// resolution; the last may be shorter), each into DM chunks of `dm_units` units.
struct DedispChunking {
  size_t samples = 0;
  int dm_units = 0;
};

struct DedispChunkMemory {
  size_t raw_bytes = 0;   // one packed input chunk
  size_t rows_elems = 0;  // one unpacked chunk: nactive rows
  size_t row_stride = 0;
  size_t out_elems = 0;  // one DM chunk of (downsampled) output
  size_t out_stride = 0;
  size_t full_elems = 0;  // full-resolution sums before downsampling (0 when downsamp == 1)
  size_t full_stride = 0;
  size_t device_bytes = 0;  // everything on the GPU: two input slots, two output slots, tables
  size_t pinned_bytes = 0;  // page-locked staging: two input slots, two output slots
};

DedispChunkMemory chunk_memory(const DedispGeometry& geometry, const DedispChunking& chunking);

// The largest chunks within the budgets, preferring several DM chunks for large blocks so that
// copies out overlap the next chunk's kernels. Throws DataError when even the smallest chunk
// does not fit (the message gives both sizes).
DedispChunking choose_chunking(const DedispGeometry& geometry, size_t n_out,
                               size_t device_budget_bytes, size_t pinned_budget_bytes);

// One unit of work: DM units [first_unit, first_unit + nunits) over output samples
// [first_sample, first_sample + nsamp) (full resolution), reading input spectra
// [first_sample, first_sample + nsamp + max_delay).
struct DedispChunk {
  size_t first_sample = 0;
  size_t nsamp = 0;
  int first_unit = 0;
  int nunits = 0;
  bool new_time_chunk = false;  // first DM chunk of its time chunk: the input must be unpacked
  int time_chunk = 0;           // index of the time chunk
};

// Time chunks outer, DM chunks inner.
std::vector<DedispChunk> chunk_schedule(size_t n_out, int dm_units, const DedispChunking& c);

// Sorted DMs [first, first + count) that a chunk covers.
struct SortedDmRange {
  int first = 0;
  int count = 0;
};
SortedDmRange chunk_dms(const DedispChunk& chunk, int dms_per_unit, int ndm);

// Where the tiled kernel's tables are (device memory for the engine, host for the emulation).
struct TileTablePointers {
  const int32_t* window_start = nullptr;
  const int32_t* window_words = nullptr;
  const int32_t* stage_offsets = nullptr;
};

TiledParams make_tiled_params(const DedispTileTables& tables, const TileTablePointers& at,
                              const DedispChunk& chunk, const void* rows, size_t row_stride,
                              void* out, size_t out_stride, bool out_u32);

DirectParams make_direct_params(const DedispDelays& delays, const int32_t* delays_at,
                                const DedispChunk& chunk, bool rows_u8, const void* rows,
                                size_t row_stride, void* out, size_t out_stride, bool out_u32);

// Copies `ncols` samples of each finished row (sorted DMs `dms`, rows `chunk_stride` apart) to
// out[plan DM * out_stride + first_col ...].
void copy_rows_to_output(const float* chunk, size_t chunk_stride, SortedDmRange dms,
                         const std::vector<int32_t>& dm_order, size_t first_col, size_t ncols,
                         float* out, size_t out_stride);

}  // namespace rapt::gpu
