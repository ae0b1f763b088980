// Launcher for the batched (r, z) maximisation (gpu/accel/accel_optimise_kernels.cu): one thread block
// per start runs rz_optimise's two simplex passes, its threads sharing each objective evaluation.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace rapt::cuda {

struct RzDeviceStart {
  double r;         // fundamental start, spectrum's own bins
  double z;
  int numharm;      // harmonics n = 1 .. numharm
  int norms_first;  // harmonic n's power is divided by norms[norms_first + n - 1]
};

struct RzDeviceResult {
  double r;
  double z;
  double value;     // maximised objective
  int evaluations;  // objective evaluations
  int halfwidth;    // kernel half-width of the last pass
};

// `spectrum`: numbins complex values as interleaved (re, im) floats. Device pointers; results
// are written when the stream reaches the kernel's end.
void launch_rz_maximise(const float* spectrum, int64_t numbins, const RzDeviceStart* starts,
                        int nstarts, const double* norms, RzDeviceResult* results,
                        cudaStream_t stream);

}  // namespace rapt::cuda
