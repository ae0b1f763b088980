// What the benchmark program (tests/bench/) measures on a GPU. No CUDA headers.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

#include "dedisp/dedisp_plan.hpp"
#include "../dedisp/dedisp_gpu_options.hpp"

namespace rapt::gpu {

// Ceilings measured on the device, the denominators of the benchmark's "fraction of a limit".
struct DeviceLimits {
  std::string device;                        // gpu_device_description()
  double copy_bytes_per_s = 0.0;             // device-to-device copy, bytes read + bytes written
  double shared_bytes_per_s = 0.0;           // conflict-free 32-bit shared-memory reads, all SMs
  double shared_estimate_bytes_per_s = 0.0;  // SMs x 128 bytes x peak clock (from the driver)
};

DeviceLimits measure_device_limits(int gpu);

struct GpuDedispTiming {
  double kernel_s = 0.0;       // unpack + dedispersion (+ downsampling) kernels, input on the GPU
  double with_upload_s = 0.0;  // the same after copying the packed input from page-locked memory
  std::string kernel;          // "tiled steps=2 dms=4 warps=2x4 stage=8 [tuned]" or "direct ..."
  size_t input_bytes = 0;      // packed input
  size_t output_bytes = 0;     // float output
  size_t checked = 0;          // outputs compared with a CPU sum
  size_t mismatches = 0;       // of those, how many differ (exact for integer, 1e-6 for float)
  size_t tuned = 0;            // candidates the auto-tuner measured (0: cache, default, forced)
  size_t tuned_failures = 0;   // of those, how many failed their check against the direct kernel
  std::string first_failure;   // "steps=.. : 12 outputs differ" for the first of them
  size_t sustained_runs = 0;   // runs of the block in the sustained run (0: none asked for)
  double sustained_s = 0.0;    // wall time from the first of them to the end of the last
};

// A sustained run for an external meter (energy): after the timed repeats, the kernels of the
// block (input on the GPU) run back to back for at least `min_seconds`; `begin` is called just
// before the first run is queued and `end` just after the last has finished.
struct GpuSustainedRun {
  double min_seconds = 1.0;
  std::function<void()> begin;
  std::function<void()> end;
};

// Dedisperses one random block of `nspectra` spectra of `nbits`, `repeats` times; medians.
// The output of the first chunk is spot-checked against the CPU for three DMs. With `sustained`,
// a sustained run follows the timed repeats.
GpuDedispTiming time_gpu_dedisp(const DedispPlan& plan, int nbits, size_t nspectra, int gpu,
                                const GpuDedispOptions& options, int repeats,
                                const GpuSustainedRun* sustained = nullptr);

}  // namespace rapt::gpu
