// The single-pulse search's normalisation on the GPU, for series that never leave it (snr's
// fused mode): the same per-block arithmetic as common/snr/series_normaliser.cpp. One kernel
// removes each detrend block's baseline and measures its sigma; the host then makes the
// bad-block decision of each series from the sigmas (a few numbers per series); a second kernel
// scales each block by 1/sigma, or zeroes it when it is bad.
//
// Median baseline with the MAD sigma (the default) gives the CPU's values exactly: a median is
// the element of rank len / 2 (equal to the one std::nth_element picks; of a run of zeros of
// both signs either may be taken, so a detrended zero's sign may differ), and the rest is float
// arithmetic in the same order. The linear baseline and the clipped rms sum in double in another
// order, so their values may differ from the CPU's in the last bit.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "snr/snr_settings.hpp"

namespace rapt::gpu {

struct DetrendParams {
  float* series = nullptr;              // num_series rows, row_stride floats apart
  int64_t row_stride = 0;
  int num_series = 0;
  const int32_t* whole_blocks = nullptr;  // device, per series: its blocks; the rest of its
                                          // max_blocks are zeroed (sigma 0)
  int max_blocks = 0;
  int block_len = 0;
  bool linear_baseline = false;         // else the median
  bool clipped_rms = false;             // else 1.4826 x MAD
  double* sigma = nullptr;              // device, [series * max_blocks + block]
};

// The parameters that follow from the search settings (block length, baseline, noise
// estimate); the caller fills in the rows. Throws UsageError when the block is longer than the
// kernel takes on the current device (shared memory holds two power-of-two copies of a block).
DetrendParams detrend_params(const SnrSettings& settings);

void launch_detrend_blocks(const DetrendParams& p, cudaStream_t stream);

// x *= scale[series * max_blocks + block] over every block of every row; a scale of 0 writes 0
// (bad blocks, and blocks past a series' end).
void launch_scale_blocks(float* series, int64_t row_stride, int num_series, int max_blocks,
                         int block_len, const float* scale, cudaStream_t stream);

// Series whose samples are sums of `downsamp` spectra (the dedispersion engine's) made means, as
// dedisp writes them: every block times 1 / downsamp, exact for a power of two. `scale` is
// scratch of num_series x max_blocks floats on the device. Nothing for a downsamp of 1.
void launch_sums_to_means(float* series, int64_t row_stride, int num_series, int max_blocks,
                          int block_len, int downsamp, float* scale, cudaStream_t stream);

}  // namespace rapt::gpu
