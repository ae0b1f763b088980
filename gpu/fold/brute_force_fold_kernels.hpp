// Launchers of the brute-force folding kernels (gpu/fold/brute_force_fold_kernels.cu).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace rapt::gpu {

struct BruteForceFoldParams {
  const float* series = nullptr;     // [ndm][nsamples]
  int ndm = 0;
  int64_t nsamples = 0;
  const uint32_t* steps = nullptr;   // [nperiods] fixed-point phase steps
  int nperiods = 0;
  int nbins = 32;
  const float* sigmas = nullptr;     // [ndm]
  const int* counts = nullptr;       // [nperiods][nbins], samples per bin
  float* snr = nullptr;              // [ndm][nperiods]
};

// Mean and standard deviation of each series (one block per series).
void launch_series_moments(const float* series, int ndm, int64_t nsamples, double* means,
                           float* sigmas, cudaStream_t stream);
// Samples per bin for every period (DM-independent).
void launch_bin_counts(const uint32_t* steps, int nperiods, int64_t nsamples, int nbins,
                       int* counts, cudaStream_t stream);
// The fold of every (DM, period) and its S/N; needs the moments and the counts.
// `means` [ndm] from launch_series_moments (double: subtracted before the float sums).
void launch_brute_force_fold(const BruteForceFoldParams& p, const double* means,
                             cudaStream_t stream);

}  // namespace rapt::gpu
