// What the benchmark measures of the GPU IDG engine. No CUDA headers.
#pragma once
#include <string>

#include "idg/idg_engine.hpp"

namespace rapt::gpu {

struct IdgGpuOpTiming {
  double engine_s = 0;  // the engine call, host arrays to host arrays (wall clock, median)
  double device_s = 0;  // the device's share: subgrid and grid passes (events, median)
  double kernel_s = 0;  // the gridder or degridder kernel alone (median)
};

struct IdgGpuBenchTiming {
  IdgGpuOpTiming grid, degrid;
  IdgImage image;  // the last grid() result, for checks against the CPU engine
};

// grid() and then degrid() of its image, each once to warm up and `repeats` times timed, on
// GPU `gpu` with a plan made beforehand (not timed).
IdgGpuBenchTiming time_gpu_idg(const IdgSettings& settings, const IdgPlan& plan,
                               const IdgVisibilities& vis, int gpu, int repeats);

}  // namespace rapt::gpu
