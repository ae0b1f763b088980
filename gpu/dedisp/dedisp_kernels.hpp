// Launchers of the dedispersion kernels (gpu/dedisp/dedisp_kernels.cu). Each computes its grid from the
// launch shape that sits beside the kernel, launches on `stream` and checks the launch.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "dedisp_kernel_params.hpp"
#include "dedisp_tile_config.hpp"

namespace rapt::gpu {

void launch_unpack(const UnpackParams& p, cudaStream_t stream);

// `p` must have been filled from DedispTileTables built for (kind, config).
void launch_tiled_dedisp(const TiledParams& p, DedispSampleKind kind,
                         const DedispTileConfig& config, cudaStream_t stream);

void launch_direct_dedisp(const DirectParams& p, cudaStream_t stream);

void launch_downsample(const DownsampleParams& p, cudaStream_t stream);

// Adds to *count (device memory) the number of entries of the nrows x ncols matrices a and b
// (row stride `stride`) that differ by more than rel_tol * max(1, |b|), NaNs included.
void launch_count_mismatches(const float* a, const float* b, size_t stride, size_t ncols, int nrows,
                             float rel_tol, unsigned long long* count, cudaStream_t stream);

// Fills nwords 32-bit words with random_word(i, seed), or with random_float(i, seed) when
// `floats` (gpu/cuda/random_words.hpp).
void launch_fill_random(uint32_t* words, size_t nwords, uint32_t seed, bool floats,
                        cudaStream_t stream);

// What the compiler made of one tiled kernel.
struct KernelResources {
  int registers = 0;
  size_t local_bytes = 0;  // stack frame and spills: should be 0
  int max_threads = 0;
};
KernelResources tiled_kernel_resources(DedispSampleKind kind, const DedispTileConfig& config);

}  // namespace rapt::gpu
