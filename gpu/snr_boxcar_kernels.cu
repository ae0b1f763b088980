// The boxcar search kernel: every series and every width in one pass.
//
// Launch shape: blocks of 256 threads; grid (ceil(length / kBoxcarTile), num_series). A block
// loads kBoxcarTile + max_width samples of one series (from max_width/2 before its tile; zeros
// outside the series) into shared memory, forms their prefix sums there, and for each of its
// samples and each width takes one difference of two prefix sums. Prefix sums are local to the
// tile, so float keeps them accurate (they grow only over a few thousand unit-noise samples).
// Values above the threshold are appended to a global list with one atomic each (hits are
// rare: the list is a compaction, not a dense output).
#include <cmath>

#include "cuda_check.hpp"
#include "random_words.hpp"
#include "snr_boxcar_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr int kThreads = 256;

__device__ float block_exclusive_offset(float total, float* warp_sums) {
  // Inclusive scan of per-thread totals across the block; returns this thread's exclusive sum.
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float inclusive = total;
  for (int d = 1; d < 32; d <<= 1) {
    const float up = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= d) inclusive += up;
  }
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    float w = lane < kThreads / 32 ? warp_sums[lane] : 0.0f;
    for (int d = 1; d < 32; d <<= 1) {
      const float up = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += up;
    }
    if (lane < kThreads / 32) warp_sums[lane] = w;
  }
  __syncthreads();
  const float before_warp = warp > 0 ? warp_sums[warp - 1] : 0.0f;
  return before_warp + inclusive - total;
}

__global__ void __launch_bounds__(kThreads) boxcar_search_kernel(BoxcarKernelParams p) {
  extern __shared__ float shared[];
  __shared__ float warp_sums[kThreads / 32];
  const int halo = p.max_width;
  const int span = kBoxcarTile + halo;  // samples loaded
  float* values = shared;               // span
  float* prefix = shared + span;        // span + 1
  const int64_t tile_start = int64_t(blockIdx.x) * kBoxcarTile;
  const int64_t load_start = tile_start - p.max_width / 2;

  for (int series = blockIdx.y; series < p.num_series; series += gridDim.y) {
    const float* x = p.series + int64_t(series) * p.length;
    for (int k = threadIdx.x; k < span; k += kThreads) {
      const int64_t g = load_start + k;
      values[k] = (g >= 0 && g < p.length) ? x[g] : 0.0f;
    }
    __syncthreads();
    // Each thread sums a contiguous segment, the block scans the segment totals, each thread
    // then writes its segment's inclusive prefix sums.
    const int segment = (span + kThreads - 1) / kThreads;
    const int first = threadIdx.x * segment;
    const int last = min(first + segment, span);
    float total = 0.0f;
    for (int k = first; k < last; ++k) total += values[k];
    float running = block_exclusive_offset(total, warp_sums);
    for (int k = first; k < last; ++k) {
      running += values[k];
      prefix[k + 1] = running;
    }
    if (threadIdx.x == 0) prefix[0] = 0.0f;
    __syncthreads();

    const int half_max = p.max_width / 2;
    for (int i = threadIdx.x; i < kBoxcarTile; i += kThreads) {
      const int64_t g = tile_start + i;
      if (g >= p.length) break;
      for (int wi = 0; wi < p.num_widths; ++wi) {
        const int w = p.widths[wi];
        float value;
        if (w == 1) {
          value = values[i + half_max];
        } else {
          const int start = i + half_max - w / 2;
          value = (prefix[start + w] - prefix[start]) * p.scales[wi];
        }
        if (value > p.threshold) {
          const unsigned long long slot = atomicAdd(p.count, 1ull);
          if (slot < p.capacity)
            p.hits[slot] = DeviceBoxcarHit{p.first_series + series, wi, g, value, 0.0f};
        }
      }
    }
    __syncthreads();
  }
}

__global__ void fill_gaussian_kernel(float* x, size_t count, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    const float u1 = (float(random_word(2 * i, seed) >> 8) + 0.5f) * (1.0f / 16777216.0f);
    const float u2 = float(random_word(2 * i + 1, seed) >> 8) * (1.0f / 16777216.0f);
    x[i] = sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);
  }
}

}  // namespace

size_t boxcar_shared_bytes(int max_width) {
  return sizeof(float) * (2 * size_t(kBoxcarTile + max_width) + 1);
}

int max_supported_boxcar_width(int gpu) {
  int optin = 0;
  RAPT_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, gpu));
  const size_t usable = size_t(optin) - 1024;  // the static warp sums and some slack
  return int(usable / (2 * sizeof(float))) - kBoxcarTile - 1;
}

void launch_boxcar_search(const BoxcarKernelParams& p, cudaStream_t stream) {
  const size_t shared = boxcar_shared_bytes(p.max_width);
  RAPT_CUDA_CHECK(cudaFuncSetAttribute(boxcar_search_kernel,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  const dim3 grid(unsigned((p.length + kBoxcarTile - 1) / kBoxcarTile),
                  unsigned(std::min(p.num_series, 65535)));
  boxcar_search_kernel<<<grid, kThreads, shared, stream>>>(p);
  RAPT_CUDA_CHECK_LAUNCH("boxcar_search_kernel");
}

void launch_fill_gaussian(float* x, size_t count, uint32_t seed, cudaStream_t stream) {
  const unsigned blocks = unsigned(std::min<size_t>((count + 255) / 256, 65535));
  fill_gaussian_kernel<<<blocks, 256, 0, stream>>>(x, count, seed);
  RAPT_CUDA_CHECK_LAUNCH("fill_gaussian_kernel");
}

}  // namespace rapt::gpu
