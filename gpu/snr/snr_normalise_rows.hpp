// The normalisation kernel (snr_normalise_kernels) over rows in host memory: copied to the
// current GPU, detrended there, copied back. For the tests, which compare it block by block
// with the CPU's detrend_block. No CUDA headers.
#pragma once
#include <cstdint>
#include <vector>

#include "snr/snr_settings.hpp"

namespace rapt::gpu {

// `rows`: num_series rows of row_stride floats, each with max_blocks blocks of
// settings.detrend_len samples from its start (the rest of a row is left alone). Each series'
// first whole_blocks[s] blocks are detrended in place and their sigmas returned,
// [series * max_blocks + block]; its later blocks are zeroed, sigma 0.
std::vector<double> detrend_rows_on_gpu(std::vector<float>& rows, int64_t row_stride,
                                        const std::vector<int32_t>& whole_blocks, int max_blocks,
                                        const SnrSettings& settings);

}  // namespace rapt::gpu
