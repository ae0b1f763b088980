// Turns a raw time series into one of unit noise: per detrend block, remove a baseline (median
// or least-squares line) and divide by a robust sigma (1.4826 x MAD, or PRESTO's rms of the
// central 95 % of sorted values x 1.148). Blocks whose sigma lies outside median +- 4 sigma of
// the block sigmas (PRESTO's bad-block test) are zeroed and flagged, so the search skips them.
#pragma once
#include <cstdint>
#include <vector>

#include "snr/snr_settings.hpp"

namespace rapt {

struct NormalisedSeries {
  std::vector<float> samples;     // whole blocks only: floor(N / detrend_len) * detrend_len
  std::vector<bool> bad_blocks;   // one flag per detrend block
  std::vector<double> block_sigma;  // before bad-block replacement (diagnostics, tests)
};

// `samples` holds the usable part of a series (padding already left out).
NormalisedSeries normalise_series(const std::vector<float>& samples, const SnrSettings& settings);

// The sigma of one block after the baseline is removed (values are detrended in place).
double detrend_block(float* block, int64_t len, Baseline baseline, NoiseEstimate noise);

// PRESTO's bad-block test on block sigmas; true = bad. Blocks with a sigma of 0 or not finite
// are always bad. Fewer than 4 blocks: only those. The spread of the sigmas is taken as at
// least what estimating a sigma from `block_len` samples gives by itself, so that chance
// agreement among a few blocks cannot make good blocks look bad.
std::vector<bool> find_bad_blocks(const std::vector<double>& block_sigma, bool reject_outliers,
                                  int64_t block_len, double* median_sigma);

// The bad-block test on one series' `nblocks` block sigmas, and the factor each block is then
// multiplied by: 1/sigma, or 0 for a bad block (it becomes zeros). Returns the bad flags.
std::vector<bool> block_scales(const double* block_sigma, int64_t nblocks,
                               const SnrSettings& settings, float* scale);

}  // namespace rapt
