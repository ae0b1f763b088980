// The dedispersion kernels run on the CPU, thread by thread, from the same per-thread code the
// device runs (dedisp_kernels.cuh): the tests check their index arithmetic on machines without
// a GPU. Slow; for small problems only. No CUDA headers.
#pragma once
#include <optional>
#include <vector>

#include "dedisp/dedisp_engine.hpp"
#include "dedisp_chunks.hpp"
#include "dedisp_kernel_params.hpp"
#include "dedisp_tile_config.hpp"

namespace rapt::gpu {

// One launch each, on host memory. A block's threads run one after another between barriers.
void emulate_unpack(const UnpackParams& p);
void emulate_tiled_dedisp(const TiledParams& p, DedispSampleKind kind,
                          const DedispTileConfig& config);
void emulate_direct_dedisp(const DirectParams& p);
void emulate_downsample(const DownsampleParams& p);

struct EmulationOptions {
  std::optional<DedispTileConfig> config;  // the tiled kernel; nullopt: the direct kernel
  DedispChunking chunking;                 // samples == 0: the whole block in one chunk
};

// The GPU engine's whole computation (unpack, kernels per chunk, downsampling, copy-out in plan
// order) on the host. `out` as DedispEngine::execute: [plan DM][out_stride].
void emulate_gpu_dedisp(const DedispPlan& plan, const SpectraBlock& in, float* out,
                        size_t out_stride, const EmulationOptions& options);

}  // namespace rapt::gpu
