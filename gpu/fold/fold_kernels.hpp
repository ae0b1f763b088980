// Launcher for the folding kernel (gpu/fold/fold_kernels.cu). Pointers are device pointers.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace rapt::cuda {

// A run of samples [first, last) of the observation that lies in one part; `offset` is the
// index of `first` in the uploaded block.
struct FoldChunk {
  int64_t first;
  int64_t last;
  int64_t offset;
  int part;
};

// The spin and the cube's shape, as the kernel needs them.
struct FoldKernelLayout {
  double dt_s;
  double f_hz, fdot, fddot;
  int nsub, nbins;
};

// Folds every chunk of every subband: sample values block[sub * stride + offset + k] are
// shared among the bins their phase span overlaps (as the CPU engine does), and added to
// sums[part][sub][bin]; sub 0 also adds the shares to weights[part][bin]; data_sum and
// data_sumsq[part][sub] get the sample sums. All accumulators are double.
void launch_fold_chunks(const float* block, size_t stride, const FoldChunk* chunks, int nchunks,
                        const FoldKernelLayout& layout, double* sums, double* weights,
                        double* data_sum, double* data_sumsq, cudaStream_t stream);

}  // namespace rapt::cuda
