// int8: an integration's int32 sums into its 64-bit sums, each time the int32 sums would
// otherwise pass kInt8SafeSamples samples, and at its end once it has 64-bit sums.
#include <cstdint>

#include "../cuda/cuda_check.hpp"
#include "corr_kernels.hpp"

namespace rapt::gpu {
namespace {

__global__ void widen_int8_sums_kernel(const int2* narrow, longlong2* wide, size_t count,
                                       bool first) {
  for (size_t k = blockIdx.x * size_t(blockDim.x) + threadIdx.x; k < count;
       k += size_t(gridDim.x) * blockDim.x) {
    const int2 n = narrow[k];
    longlong2 w = first ? longlong2{} : wide[k];
    w.x += n.x;
    w.y += n.y;
    wide[k] = w;
  }
}

}  // namespace

void widen_int8_sums(const void* narrow, void* wide, size_t count, bool first,
                     cudaStream_t stream) {
  if (count == 0) return;
  constexpr unsigned kThreads = 256, kMostBlocks = 4096;  // a grid-stride loop past that
  const size_t blocks = (count + kThreads - 1) / kThreads;
  widen_int8_sums_kernel<<<unsigned(blocks < kMostBlocks ? blocks : kMostBlocks), kThreads, 0,
                           stream>>>(static_cast<const int2*>(narrow),
                                     static_cast<longlong2*>(wide), count, first);
  RAPT_CUDA_CHECK_LAUNCH("int8 sums widening");
}

}  // namespace rapt::gpu
