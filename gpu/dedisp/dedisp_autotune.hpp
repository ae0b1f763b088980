// Which dedispersion kernel the engine runs: the tiled kernel with tile parameters chosen per GPU
// and problem by measuring the candidates, each first checked against the direct kernel (which
// is itself spot-checked against the CPU); the result is kept in a cache file. No CUDA headers.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dedisp/dedisp_plan.hpp"
#include "dedisp_gpu_layout.hpp"
#include "dedisp_gpu_options.hpp"
#include "dedisp_tile_config.hpp"

namespace rapt::gpu {

struct TunedCandidate {
  DedispTileConfig config;
  bool valid = false;  // matched the direct kernel on every output
  size_t mismatches = 0;
  double seconds = 0.0;  // median kernel time on the tuning block (valid ones only)
  std::string failure;   // a CUDA error while trying it
};

struct KernelChoice {
  std::optional<DedispTileConfig> config;  // nullopt: the direct kernel
  std::string source;  // "forced", "default", "cache", "tuned", or why the direct kernel
  std::vector<TunedCandidate> candidates;  // when tuned
  std::string cache_problem;               // the cache file could not be written (not fatal)
};

// For input of `nbits` on GPU `gpu` (made current for the call). Throws UsageError for a forced
// configuration that does not exist or does not fit, DataError when the self-checks fail.
KernelChoice choose_dedisp_kernel(const std::shared_ptr<const DedispDelays>& delays,
                                  const DedispPlan& plan, int nbits, int gpu,
                                  const GpuDedispOptions& options);

// Measures `configs` (each must fit the device's shared memory) on a random block.
std::vector<TunedCandidate> measure_tile_configs(const std::shared_ptr<const DedispDelays>& delays,
                                                 const DedispPlan& plan, DedispSampleKind kind,
                                                 const std::vector<DedispTileConfig>& configs);

}  // namespace rapt::gpu
