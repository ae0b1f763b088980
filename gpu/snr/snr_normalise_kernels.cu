// One thread block per (detrend block, series): the block is loaded into shared memory, sorted
// there (bitonic, padded to a power of two with +inf) where a median is needed, and reduced in
// double where a sum is. Launch shape: grid (max_blocks, num_series), kThreads threads,
// dynamic shared memory 2 x pow2(block_len) floats + the reduction scratch.
#include "snr_normalise_kernels.hpp"

#include <algorithm>
#include <cmath>

#include <string>
#include <vector>

#include "../cuda/cuda_check.hpp"
#include "../cuda/dynamic_shared_memory.hpp"
#include "cli/errors.hpp"

namespace rapt::gpu {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxSortLength = 16384;

__host__ __device__ int sort_length(int len) {
  int p = 1;
  while (p < len) p <<= 1;
  return p;
}

size_t shared_bytes(int len) {
  return 2 * size_t(sort_length(len)) * sizeof(float) + 32 * sizeof(double);
}

// Ascending bitonic sort of b[0, n), n a power of two, by the whole block.
__device__ void sort_block(float* b, int n) {
  for (int k = 2; k <= n; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int partner = i ^ j;
        if (partner > i) {
          const float u = b[i], v = b[partner];
          const bool ascending = (i & k) == 0;
          if ((u > v) == ascending) {
            b[i] = v;
            b[partner] = u;
          }
        }
      }
      __syncthreads();
    }
}

// The sum of every thread's `v`, returned to all threads.
__device__ double block_sum(double v, double* scratch) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < int(blockDim.x / 32) ? scratch[lane] : 0.0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) scratch[0] = v;
  }
  __syncthreads();
  const double total = scratch[0];
  __syncthreads();  // scratch is reused by the next sum
  return total;
}

// Copies a[0, len) into b and pads b to n with +inf.
__device__ void copy_for_sort(const float* a, float* b, int len, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) b[i] = i < len ? a[i] : INFINITY;
  __syncthreads();
}

__global__ void __launch_bounds__(kThreads) detrend_blocks_kernel(DetrendParams p) {
  extern __shared__ double shared_words[];
  const int len = p.block_len;
  const int n = sort_length(len);
  double* scratch = shared_words;
  float* a = reinterpret_cast<float*>(shared_words + 32);
  float* b = a + n;
  const int block = blockIdx.x, series = blockIdx.y;
  float* x = p.series + int64_t(series) * p.row_stride + int64_t(block) * len;
  double* sigma = p.sigma + int64_t(series) * p.max_blocks + block;
  if (block >= p.whole_blocks[series]) {
    for (int i = threadIdx.x; i < len; i += blockDim.x) x[i] = 0.0f;
    if (threadIdx.x == 0) *sigma = 0.0;
    return;
  }
  for (int i = threadIdx.x; i < len; i += blockDim.x) a[i] = x[i];
  __syncthreads();

  if (p.linear_baseline) {
    // Least-squares line through (i, a[i]), as remove_linear_trend().
    const double mean_i = 0.5 * double(len - 1);
    double part = 0.0;
    for (int i = threadIdx.x; i < len; i += blockDim.x) part += a[i];
    const double mean_x = block_sum(part, scratch) / double(len);
    double sxy = 0.0, sxx = 0.0;
    for (int i = threadIdx.x; i < len; i += blockDim.x) {
      const double di = double(i) - mean_i;
      sxy += di * (a[i] - mean_x);
      sxx += di * di;
    }
    sxy = block_sum(sxy, scratch);
    sxx = block_sum(sxx, scratch);
    const double slope = sxx > 0.0 ? sxy / sxx : 0.0;
    for (int i = threadIdx.x; i < len; i += blockDim.x)
      a[i] = float(a[i] - (mean_x + slope * (double(i) - mean_i)));
  } else {
    copy_for_sort(a, b, len, n);
    sort_block(b, n);
    const float median = b[len / 2];
    for (int i = threadIdx.x; i < len; i += blockDim.x) a[i] -= median;
  }
  __syncthreads();

  double block_sigma = 0.0;
  if (p.clipped_rms) {
    copy_for_sort(a, b, len, n);
    sort_block(b, n);
    const int lo = len / 40, hi = len - (len + 39) / 40;
    double part = 0.0;
    for (int i = lo + int(threadIdx.x); i < hi; i += blockDim.x) part += double(b[i]) * b[i];
    block_sigma = sqrt(block_sum(part, scratch) / (0.95 * double(len))) * 1.148;
  } else {
    // After a median baseline the median of the block is exactly 0 (subtracting one value is
    // monotonic, so the middle element stays the middle one); after a line it is sorted for.
    float centre = 0.0f;
    if (p.linear_baseline) {
      copy_for_sort(a, b, len, n);
      sort_block(b, n);
      centre = b[len / 2];
      __syncthreads();
    }
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      b[i] = i < len ? fabsf(a[i] - centre) : INFINITY;
    __syncthreads();
    sort_block(b, n);
    block_sigma = 1.4826 * double(b[len / 2]);
  }
  for (int i = threadIdx.x; i < len; i += blockDim.x) x[i] = a[i];
  if (threadIdx.x == 0) *sigma = block_sigma;
}

__global__ void scale_blocks_kernel(float* series, int64_t row_stride, int max_blocks,
                                    int block_len, const float* scale) {
  const int series_index = blockIdx.y;
  float* row = series + int64_t(series_index) * row_stride;
  const float* row_scale = scale + int64_t(series_index) * max_blocks;
  const int64_t length = int64_t(max_blocks) * block_len;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < length;
       t += int64_t(gridDim.x) * blockDim.x) {
    const float f = row_scale[t / block_len];
    row[t] = f == 0.0f ? 0.0f : row[t] * f;
  }
}

}  // namespace

DetrendParams detrend_params(const SnrSettings& settings) {
  int gpu = 0, optin = 0;
  RAPT_CUDA_CHECK(cudaGetDevice(&gpu));
  RAPT_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, gpu));
  int longest = kMaxSortLength;
  while (longest > 8 && shared_bytes(longest) > size_t(optin)) longest /= 2;
  if (settings.detrend_len > longest)
    throw UsageError("detrend blocks of " + std::to_string(settings.detrend_len) +
                     " samples are longer than the GPU search takes (" + std::to_string(longest) +
                     "); use --device cpu");
  DetrendParams p;
  p.block_len = int(settings.detrend_len);
  p.linear_baseline = settings.baseline == Baseline::kLinear;
  p.clipped_rms = settings.noise == NoiseEstimate::kClippedRms;
  return p;
}

void launch_detrend_blocks(const DetrendParams& p, cudaStream_t stream) {
  if (p.num_series <= 0 || p.max_blocks <= 0) return;
  const size_t bytes = shared_bytes(p.block_len);
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(detrend_blocks_kernel),
                                    size_t(bytes), "detrend_blocks_kernel");
  const dim3 grid(unsigned(p.max_blocks), unsigned(p.num_series));
  detrend_blocks_kernel<<<grid, kThreads, bytes, stream>>>(p);
  RAPT_CUDA_CHECK_LAUNCH("detrend_blocks_kernel");
}

void launch_scale_blocks(float* series, int64_t row_stride, int num_series, int max_blocks,
                         int block_len, const float* scale, cudaStream_t stream) {
  if (num_series <= 0 || max_blocks <= 0) return;
  const int64_t length = int64_t(max_blocks) * block_len;
  const unsigned x = unsigned(std::min<int64_t>((length + 255) / 256, 1024));
  scale_blocks_kernel<<<dim3(x, unsigned(num_series)), 256, 0, stream>>>(series, row_stride,
                                                                         max_blocks, block_len,
                                                                         scale);
  RAPT_CUDA_CHECK_LAUNCH("scale_blocks_kernel");
}

void launch_sums_to_means(float* series, int64_t row_stride, int num_series, int max_blocks,
                          int block_len, int downsamp, float* scale, cudaStream_t stream) {
  if (downsamp <= 1 || num_series <= 0 || max_blocks <= 0) return;
  // (A copy from pageable memory has read the host vector by the time it returns.)
  const std::vector<float> mean(size_t(num_series) * size_t(max_blocks), 1.0f / float(downsamp));
  RAPT_CUDA_CHECK(cudaMemcpyAsync(scale, mean.data(), mean.size() * sizeof(float),
                                  cudaMemcpyHostToDevice, stream));
  launch_scale_blocks(series, row_stride, num_series, max_blocks, block_len, scale, stream);
}

}  // namespace rapt::gpu
