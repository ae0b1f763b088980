// What the benchmark measures of the GPU brute-force fold. No CUDA headers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rapt::gpu {

struct GpuBruteForceTiming {
  double kernel_s = 0.0;          // moments + bin counts + fold, series already on the GPU
  double fadd_per_s = 0.0;        // the device's FP32 add ceiling: SMs x lanes x peak clock
  size_t checked = 0;             // S/N values of the first DMs compared with the CPU engine
  size_t mismatches = 0;          // of those, how many differ by more than 1e-3
};

// Folds ndm x nsamples pseudo-random unit-noise samples made on the GPU at every period
// (`steps`, fixed-point phase steps) into nbins bins, `repeats` times (median).
GpuBruteForceTiming time_gpu_brute_force(int ndm, int64_t nsamples,
                                         const std::vector<uint32_t>& steps, int nbins, int gpu,
                                         int repeats);

}  // namespace rapt::gpu
