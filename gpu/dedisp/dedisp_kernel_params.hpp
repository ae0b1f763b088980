// Arguments of the dedispersion kernels: plain structs, no CUDA headers, so that the engine
// (g++), the kernels (nvcc) and the host emulation of the kernels share them.
#pragma once
#include <cstddef>
#include <cstdint>

namespace rapt::gpu {

// Unpacking a chunk of time-major packed spectra into channel-major rows of active channels:
// uint8 rows for 1/2/4/8-bit input, 32-bit float rows (bit copies) for float input.
struct UnpackParams {
  const uint8_t* raw = nullptr;  // nspectra spectra of spectrum_bytes each
  size_t spectrum_bytes = 0;
  int nbits = 8;
  size_t nspectra = 0;
  const int32_t* active_channels = nullptr;  // channel of each row
  int nactive = 0;
  void* rows = nullptr;   // [k * row_stride + t]
  size_t row_stride = 0;  // elements
};
constexpr int kUnpackTile = 32;        // a block unpacks 32 spectra x 32 rows
constexpr int kUnpackRowsPerPass = 8;  // with 32 x 8 threads

// The tiled kernel: a block computes samples_per_block outputs for dms_per_block DMs.
struct TiledParams {
  const void* rows = nullptr;  // uint8 or float rows, row 0 = first spectrum of the chunk
  size_t row_stride = 0;       // elements; a multiple of 16 (uint8) or 4 (float)
  int nactive = 0;
  const int32_t* window_start = nullptr;  // DedispTileTables, on the device
  const int32_t* window_words = nullptr;
  const int32_t* stage_offsets = nullptr;  // bytes
  int dms_per_block = 0;
  int first_dm_block = 0;  // table block of this launch's first DM block
  int ndm = 0;             // output rows of this launch (sorted DMs); padding not written
  size_t nsamp = 0;        // full-resolution output samples of this launch
  int samples_per_block = 0;
  int warps_time = 0;
  int channels_per_stage = 0;
  int window_capacity = 0;
  int slot_words = 0;
  int offsets_at = 0;
  int stage_words = 0;
  void* out = nullptr;    // [row * out_stride + t]: float, or uint32 when out_u32
  size_t out_stride = 0;  // a multiple of 4
  bool out_u32 = false;   // integer sums kept exact for a downsampling pass
};

// The direct kernel: one thread per output, channel sums straight from the rows. The reference
// the tuner checks every tiled configuration against, and the fallback when no tile fits.
struct DirectParams {
  const void* rows = nullptr;
  size_t row_stride = 0;
  bool rows_u8 = true;
  int nactive = 0;
  const int32_t* delays = nullptr;  // DedispDelays::delays on the device, [j * nactive + k]
  int first_dm = 0;                 // sorted DM of this launch's row 0
  int ndm = 0;
  size_t nsamp = 0;
  void* out = nullptr;
  size_t out_stride = 0;
  bool out_u32 = false;
};
constexpr int kDirectThreads = 256;

// Downsampling: out[row][k] = sum of full[row][k * downsamp + i], i = 0 .. downsamp-1, in order.
struct DownsampleParams {
  const void* full = nullptr;  // uint32 (summed in 64 bits, then rounded once) or float
  bool full_u32 = false;
  size_t full_stride = 0;
  int downsamp = 1;
  int nrows = 0;
  size_t nout = 0;
  float* out = nullptr;
  size_t out_stride = 0;
};
constexpr int kDownsampleThreads = 256;

}  // namespace rapt::gpu
