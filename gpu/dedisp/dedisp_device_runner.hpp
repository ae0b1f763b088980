// The dedispersion of one plan on the current GPU with one kernel choice: the tables on the
// device, and the kernel sequence for a chunk on device buffers. The engine wraps it in its copy
// pipeline; the auto-tuner and the benchmark call it directly.
#pragma once
#include <cuda_runtime.h>

#include <memory>
#include <optional>

#include "dedisp_chunks.hpp"
#include "dedisp_gpu_layout.hpp"
#include "../cuda/device_buffer.hpp"

namespace rapt::gpu {

class DedispDeviceRunner {
 public:
  // `config`: the tiled kernel with these tiles (its shared memory must fit the device);
  // nullopt: the direct kernel. Allocates and uploads the tables (synchronously).
  DedispDeviceRunner(std::shared_ptr<const DedispDelays> delays, DedispSampleKind kind,
                     int downsamp, std::optional<DedispTileConfig> config);

  bool tiled() const { return config_.has_value(); }
  const std::optional<DedispTileConfig>& config() const { return config_; }
  DedispSampleKind kind() const { return kind_; }
  const DedispDelays& delays() const { return *delays_; }
  int dm_units() const;
  int dms_per_unit() const;
  int samples_per_block() const;
  size_t table_bytes() const;
  std::string description() const;  // "tiled steps=2 dms=4 warps=2x4 stage=8" or "direct"

  // Unpacks `nspectra` packed spectra into the rows (row_stride elements apart).
  void unpack(const uint8_t* raw, int nbits, int nchans, size_t nspectra, void* rows,
              size_t row_stride, cudaStream_t stream) const;

  // The chunk's DMs over its samples: rows -> out (float, downsampled, sorted DM order). With
  // downsampling, `full` holds the full-resolution sums (full_stride per row, uint32 for
  // integer input, float otherwise); it may be null when downsamp == 1.
  void dedisperse(const DedispChunk& chunk, const void* rows, size_t row_stride, float* out,
                  size_t out_stride, void* full, size_t full_stride, cudaStream_t stream) const;

 private:
  std::shared_ptr<const DedispDelays> delays_;
  DedispSampleKind kind_;
  int downsamp_;
  std::optional<DedispTileConfig> config_;
  DedispTileTables tables_;  // sizes only; the table vectors live on the device
  cuda::DeviceBuffer<int32_t> active_channels_;
  cuda::DeviceBuffer<int32_t> direct_delays_;
  cuda::DeviceBuffer<int32_t> window_start_;
  cuda::DeviceBuffer<int32_t> window_words_;
  cuda::DeviceBuffer<int32_t> stage_offsets_;
};

// Largest dynamic shared memory a block may use on the current device.
size_t device_shared_memory_limit();

}  // namespace rapt::gpu
