#include "dedisp_tile_config.hpp"

#include <cstdio>
#include <iterator>

#include "cli/errors.hpp"

namespace rapt::gpu {
namespace {

struct RegisterTile {
  int steps;
  int dms;
};

#define RAPT_TILE_ENTRY(steps, dms) RegisterTile{steps, dms},
constexpr RegisterTile kU8Tiles[] = {RAPT_DEDISP_U8_TILES(RAPT_TILE_ENTRY)};
constexpr RegisterTile kF32Tiles[] = {RAPT_DEDISP_F32_TILES(RAPT_TILE_ENTRY)};
#undef RAPT_TILE_ENTRY

std::vector<RegisterTile> register_tiles(DedispSampleKind kind) {
  if (kind == DedispSampleKind::u8) return {std::begin(kU8Tiles), std::end(kU8Tiles)};
  return {std::begin(kF32Tiles), std::end(kF32Tiles)};
}

bool is_power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace

DedispSampleKind sample_kind_for_nbits(int nbits) {
  if (nbits == 1 || nbits == 2 || nbits == 4 || nbits == 8) return DedispSampleKind::u8;
  if (nbits == 32) return DedispSampleKind::f32;
  throw UsageError("dedispersion engine: " + std::to_string(nbits) +
                   "-bit samples; supported: 1, 2, 4, 8 (unsigned) and 32 (float)");
}

const char* sample_kind_name(DedispSampleKind kind) {
  return kind == DedispSampleKind::u8 ? "8-bit" : "float";
}

std::string DedispTileConfig::text() const {
  char text[96];
  std::snprintf(text, sizeof text, "steps=%d dms=%d warps=%dx%d stage=%d", steps_per_thread,
                dms_per_thread, warps_time, warps_dm, channels_per_stage);
  return text;
}

bool operator==(const DedispTileConfig& a, const DedispTileConfig& b) {
  return a.steps_per_thread == b.steps_per_thread && a.dms_per_thread == b.dms_per_thread &&
         a.warps_time == b.warps_time && a.warps_dm == b.warps_dm &&
         a.channels_per_stage == b.channels_per_stage;
}

bool is_compiled_config(const DedispTileConfig& config, DedispSampleKind kind) {
  bool tile_ok = false;
  for (const RegisterTile& tile : register_tiles(kind))
    if (tile.steps == config.steps_per_thread && tile.dms == config.dms_per_thread) tile_ok = true;
  return tile_ok && config.warps_time >= 1 && config.warps_dm >= 1 &&
         config.threads() <= kDedispMaxThreadsPerBlock && config.channels_per_stage <= 32 &&
         is_power_of_two(config.channels_per_stage);
}

std::optional<DedispTileConfig> parse_tile_config(const std::string& text, DedispSampleKind kind) {
  DedispTileConfig c;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "steps=%d dms=%d warps=%dx%d stage=%d%n", &c.steps_per_thread,
                  &c.dms_per_thread, &c.warps_time, &c.warps_dm, &c.channels_per_stage,
                  &consumed) != 5 ||
      size_t(consumed) != text.size())
    return std::nullopt;
  if (!is_compiled_config(c, kind)) return std::nullopt;
  return c;
}

DedispTileConfig default_tile_config(DedispSampleKind kind) {
  DedispTileConfig c;
  c.steps_per_thread = kind == DedispSampleKind::u8 ? 2 : 4;
  c.dms_per_thread = 4;
  c.warps_time = 2;
  c.warps_dm = 4;
  c.channels_per_stage = 8;
  return c;
}

std::vector<DedispTileConfig> tile_config_candidates(DedispSampleKind kind) {
  // Block shapes of 128 to 512 threads; DMs per block from 8 to 64 (fewer wastes the staged
  // window, more makes the window long at low frequencies); time tiles of 256 to 4096 samples.
  const int warp_shapes[][2] = {{4, 1}, {2, 2}, {1, 4}, {8, 1}, {4, 2},
                                {2, 4}, {1, 8}, {8, 2}, {4, 4}, {2, 8}};
  std::vector<DedispTileConfig> out;
  for (const RegisterTile& tile : register_tiles(kind))
    for (const auto& shape : warp_shapes)
      for (int stage : {4, 8}) {
        DedispTileConfig c;
        c.steps_per_thread = tile.steps;
        c.dms_per_thread = tile.dms;
        c.warps_time = shape[0];
        c.warps_dm = shape[1];
        c.channels_per_stage = stage;
        const int dms = c.dms_per_block(), samples = c.samples_per_block(kind);
        if (dms < 8 || dms > 64 || samples < 256 || samples > 4096) continue;
        if (is_compiled_config(c, kind)) out.push_back(c);
      }
  return out;
}

}  // namespace rapt::gpu
