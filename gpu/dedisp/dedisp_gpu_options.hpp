// Options of the CUDA dedispersion engine, and the factory that takes them. No CUDA headers:
// programs, tests and the benchmark include this. make_gpu_dedisp_engine(plan, gpu_index)
// (dedisp/dedisp_gpu_factory.hpp) uses the defaults.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "dedisp/dedisp_engine.hpp"
#include "dedisp_tile_config.hpp"

namespace rapt::gpu {

enum class TuneMode {
  off,     // the default configuration, no measurement, no cache file
  cached,  // the cache file's configuration for this GPU and problem; on a miss, tune and save
  retune,  // tune and replace the cache file's entry
};

struct GpuDedispOptions {
  TuneMode tuning = TuneMode::cached;
  std::string tune_cache_path;                    // "": default_tune_cache_path()
  std::optional<DedispTileConfig> forced_config;  // this tile configuration; no tuning
  bool force_direct = false;                      // the direct (reference) kernel; no tuning
  size_t device_memory_bytes = 0;                 // 0: 80% of the GPU memory free at the start
  size_t pinned_memory_bytes = 0;                 // 0: 2 GiB of page-locked staging at most
  int host_threads = 0;                           // for copies to and from staging; 0: up to 8
  bool self_check = true;  // recompute four outputs of every block on the CPU (DataError if off)
};

// $XDG_CACHE_HOME/rapt/dedisp-tune.txt, else $HOME/.cache/rapt/dedisp-tune.txt, else "".
std::string default_tune_cache_path();

// Throws UsageError for a bad GPU index, DataError for CUDA failures.
std::unique_ptr<DedispEngine> make_gpu_dedisp_engine(const DedispPlan& plan, int gpu_index,
                                                     const GpuDedispOptions& options);

// The CUDA engine with a second entry point whose output stays on the GPU, for searches that
// run on the dedispersed block where it was made (snr's fused mode).
class DeviceDedispEngine : public DedispEngine {
 public:
  // As execute(), into device memory of the engine's GPU: out_device[dm * out_stride + t], plan
  // DM order. Returns once `in` has been copied to page-locked staging (the caller may refill
  // it) and the kernels are queued: call synchronize() before reading the output. There is no
  // CPU self-check on this path (the output never reaches the host); the equivalence tests
  // cover it.
  virtual void execute_to_device(const SpectraBlock& in, float* out_device,
                                 size_t out_stride) = 0;
  // Waits for the work of every execute_to_device() so far.
  virtual void synchronize() = 0;
  virtual int gpu() const = 0;

 protected:
  using DedispEngine::DedispEngine;
};

std::unique_ptr<DeviceDedispEngine> make_device_dedisp_engine(const DedispPlan& plan,
                                                              int gpu_index,
                                                              const GpuDedispOptions& options);

}  // namespace rapt::gpu
