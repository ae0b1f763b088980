// What the benchmark measures of the GPU IDG engine. No CUDA headers.
#pragma once
#include <functional>
#include <string>

#include "idg/idg_engine.hpp"

namespace rapt::gpu {

struct IdgGpuOpTiming {
  double engine_s = 0;  // the engine call, host arrays to host arrays (wall clock, median)
  double device_s = 0;  // the device's share: subgrid and grid passes (events, median)
  double kernel_s = 0;  // the gridder or degridder kernel alone (median)
  double call_s = 0;    // the GPU engine's own share of engine_s (median)
  double host_s = 0;    // host work in engine_s: the common IdgEngine's passes (engine_s -
                        // call_s) and the GPU engine's packing and unpacking (median)
  double image_s = 0;   // the part of host_s copying whole images (median)
};

// Back-to-back calls of one operation for an external meter (energy): `begin` and `end` are
// called around at least `min_seconds` of calls; op is 0 for grid(), 1 for degrid(), 2 for
// grid_held().
struct IdgGpuSustainedRun {
  double min_seconds = 1.5;
  std::function<void(int op)> begin, end;
};

constexpr int kBenchModelPoints = 1000;  // the idg table's notes name the count

struct IdgGpuBenchTiming {
  IdgGpuOpTiming grid, degrid;
  // Major cycles on held visibilities: hold() (once to warm up, once timed), then
  // subtract_held of the grid() image and grid_held, each timed as the ops above; then
  // CLEAN's calls: subtract_held_points of kBenchModelPoints points in the first and last
  // planes, and grid_held_real of the first plane.
  IdgGpuOpTiming hold, subtract_held, grid_held, subtract_points, grid_real;
  int sustained_runs[3] = {0, 0, 0};  // calls of each op inside begin/end
  IdgImage image;  // the last grid() result, for checks against the CPU engine
};

// grid() and then degrid() of its image, each once to warm up and `repeats` times timed, on
// GPU `gpu` with a plan made beforehand (not timed); then the held cycle's calls alike; then,
// when `sustained`, each op back to back for the meter.
IdgGpuBenchTiming time_gpu_idg(const IdgSettings& settings, const IdgPlan& plan,
                               const IdgVisibilities& vis, int gpu, int repeats,
                               const IdgGpuSustainedRun* sustained = nullptr);

}  // namespace rapt::gpu
