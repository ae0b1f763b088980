// Tile parameters of the CUDA dedispersion kernel. No CUDA headers: the layout code, the
// auto-tuner's cache and the tests use this on any machine.
//
// A thread block computes a tile of (time x DM) outputs. Its warps are arranged warps_time x
// warps_dm; each thread keeps steps_per_thread x dms_per_thread sums in registers. A time step
// is one sample for float rows and four samples (one 32-bit word of 8-bit samples) for integer
// rows. For each stage of channels_per_stage channels, the block copies every channel's input
// window into shared memory, then each thread adds those channels into its sums.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace rapt::gpu {

// What the kernel reads after unpacking: 8-bit unsigned (input of 1, 2, 4 or 8 bits, summed
// exactly in integers) or float32 (input of 32 bits, summed in float in channel order).
enum class DedispSampleKind { u8, f32 };

// Throws UsageError for nbits other than 1, 2, 4, 8 or 32.
DedispSampleKind sample_kind_for_nbits(int nbits);
const char* sample_kind_name(DedispSampleKind kind);  // "8-bit" or "float"

// Register tiles (steps_per_thread, dms_per_thread) the kernels are compiled for. The kernel
// file, the host emulation and the candidate list all expand these lists, so they cannot
// disagree.
#define RAPT_DEDISP_U8_TILES(X) X(1, 2) X(1, 4) X(1, 8) X(2, 2) X(2, 4) X(4, 2)
#define RAPT_DEDISP_F32_TILES(X) X(2, 4) X(2, 8) X(4, 2) X(4, 4) X(4, 8) X(8, 2) X(8, 4)

constexpr int kDedispMaxThreadsPerBlock = 512;  // the kernels' __launch_bounds__
constexpr int kWarpSize = 32;

struct DedispTileConfig {
  int steps_per_thread = 2;
  int dms_per_thread = 4;
  int warps_time = 2;
  int warps_dm = 4;
  int channels_per_stage = 8;  // a power of two <= 32

  int threads() const { return kWarpSize * warps_time * warps_dm; }
  int dms_per_block() const { return warps_dm * dms_per_thread; }
  int samples_per_block(DedispSampleKind kind) const {
    return warps_time * kWarpSize * steps_per_thread * (kind == DedispSampleKind::u8 ? 4 : 1);
  }
  // "steps=2 dms=4 warps=2x4 stage=8"
  std::string text() const;
};

bool operator==(const DedispTileConfig& a, const DedispTileConfig& b);
inline bool operator!=(const DedispTileConfig& a, const DedispTileConfig& b) { return !(a == b); }

// Parses text(); nullopt for anything malformed or not compiled for `kind`.
std::optional<DedispTileConfig> parse_tile_config(const std::string& text, DedispSampleKind kind);

// True if the kernels exist for this register tile and the block shape is within limits.
bool is_compiled_config(const DedispTileConfig& config, DedispSampleKind kind);

// A reasonable configuration without tuning.
DedispTileConfig default_tile_config(DedispSampleKind kind);

// The configurations the auto-tuner tries (all compiled; shared-memory fit is checked later).
std::vector<DedispTileConfig> tile_config_candidates(DedispSampleKind kind);

}  // namespace rapt::gpu
