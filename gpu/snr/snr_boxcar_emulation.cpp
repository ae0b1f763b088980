#include "snr_boxcar_emulation.hpp"

#include "snr_boxcar_tile.cuh"

namespace rapt::gpu {
namespace {

struct CollectHits {
  std::vector<DeviceBoxcarHit>* out;
  void operator()(int series, int width_index, int64_t sample, float value) {
    out->push_back(DeviceBoxcarHit{series, width_index, sample, value, 0.0f});
  }
};

}  // namespace

std::vector<DeviceBoxcarHit> emulate_boxcar_search(const BoxcarKernelParams& p) {
  std::vector<DeviceBoxcarHit> hits;
  CollectHits emit{&hits};
  const int span = tile_span(p.max_width);
  std::vector<float> values(static_cast<size_t>(span)), prefix(static_cast<size_t>(span) + 1);
  std::vector<float> totals(kBoxcarThreads), carry(kBoxcarThreads);
  const int64_t tiles = (p.length + kBoxcarTile - 1) / kBoxcarTile;
  for (int64_t tile = 0; tile < tiles; ++tile) {
    const int64_t tile_start = tile * kBoxcarTile;
    for (int series = 0; series < p.num_series; ++series) {
      // Each phase runs for every thread before the next (the kernel's barriers).
      for (int t = 0; t < kBoxcarThreads; ++t) tile_load(p, series, tile_start, t, values.data());
      for (int t = 0; t < kBoxcarThreads; ++t)
        tile_segment_total(p.max_width, t, values.data(), totals.data());
      for (int d = 1; d < kBoxcarThreads; d <<= 1) {
        for (int t = 0; t < kBoxcarThreads; ++t) tile_scan_read(t, d, totals.data(), carry.data());
        for (int t = 0; t < kBoxcarThreads; ++t) tile_scan_add(t, totals.data(), carry.data());
      }
      for (int t = 0; t < kBoxcarThreads; ++t)
        tile_prefix(p.max_width, t, values.data(), totals.data(), prefix.data());
      for (int t = 0; t < kBoxcarThreads; ++t)
        tile_search(p, series, tile_start, t, values.data(), prefix.data(), emit);
    }
  }
  return hits;
}

}  // namespace rapt::gpu
