// One thread block per (detrend block, series): the block is loaded into shared memory; a
// median is the element of rank len / 2, found by radix selection (select_rank below), and a
// sum is reduced in double. Only the clipped rms, which sums the middle 95 % of the values in
// order, still sorts the block (bitonic, padded to a power of two with +inf). Launch shape: grid
// (max_blocks, num_series), kThreads threads, dynamic shared memory: the reduction scratch, the
// selection's histogram and state, and 2 x pow2(block_len) floats.
// Selecting instead of sorting twice took the normalisation of make bench's D1 search (2048
// series at 50 us, blocks of 1000) from 4.19 to 1.22 ms per s of data on an H100, and the
// real-time search's processing from 17.6 to 12.8 ms per s.
#include "snr_normalise_kernels.hpp"

#include <algorithm>
#include <cmath>

#include <string>
#include <vector>

#include "../cuda/cuda_check.hpp"
#include "../cuda/device_buffer.hpp"
#include "../cuda/dynamic_shared_memory.hpp"
#include "cli/errors.hpp"
#include "snr_normalise_rows.hpp"

namespace rapt::gpu {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxSortLength = 16384;

__host__ __device__ int sort_length(int len) {
  int p = 1;
  while (p < len) p <<= 1;
  return p;
}

constexpr int kBins = 256;  // a radix digit of 8 bits

// The shared memory's layout: reduction scratch, the selection's histogram and state, then two
// arrays of pow2(len) floats.
struct SharedHead {
  double scratch[32];
  int bins[kBins];
  int warp_sums[kBins / 32];
  uint32_t state[8];  // see select_rank
};
static_assert(kThreads == kBins, "the selection's scan gives each thread one bin");

size_t shared_bytes(int len) {
  return sizeof(SharedHead) + 2 * size_t(sort_length(len)) * sizeof(float);
}

// A float's bits as an unsigned key in the floats' order (-0 just below +0).
__device__ inline uint32_t order_key(float x) {
  const uint32_t u = __float_as_uint(x);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ inline float key_value(uint32_t key) {
  return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

// The element of rank k (0-based, ascending) of value(0) ... value(len - 1), returned to every
// thread: equal to the element std::nth_element puts at k (of zeros of both signs, -0 ranks
// first here, where nth_element may give either). The keys' highest bit where the block's
// smallest and largest keys differ is found first; digits of 8 bits are then taken from there
// down, each by a histogram of the keys that share the digits chosen so far, until one key
// is left or every bit is chosen. About three passes for a block of noise, each a few barriers,
// where a bitonic sort of 1024 values takes 55.
template <class Value>
__device__ float select_rank(Value value, int len, int k, SharedHead& head) {
  // 0, 1: the lowest and highest key; 2, 3, 4: a pass's digit, the rank left in its bin, the
  // bin's count; 5: the one key left.
  uint32_t* state = head.state;
  if (threadIdx.x == 0) {
    state[0] = 0xffffffffu;
    state[1] = 0u;
  }
  __syncthreads();
  uint32_t lo = 0xffffffffu, hi = 0u;
  for (int i = threadIdx.x; i < len; i += blockDim.x) {
    const uint32_t key = order_key(value(i));
    lo = min(lo, key);
    hi = max(hi, key);
  }
  for (int off = 16; off > 0; off >>= 1) {
    lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, off));
    hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, off));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(&state[0], lo);
    atomicMax(&state[1], hi);
  }
  __syncthreads();
  lo = state[0];
  hi = state[1];
  __syncthreads();  // the state is written again below, or by the next selection
  if (lo == hi) return key_value(lo);
  // Bits above `top` are the same in every key: `prefix` under `known`.
  int top = 31 - __clz(lo ^ hi);
  uint32_t known = top == 31 ? 0u : ~((2u << top) - 1u);
  uint32_t prefix = lo & known;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (;;) {
    const int shift = max(top - 7, 0);
    const uint32_t digit_mask = (2u << (top - shift)) - 1u;  // top - shift + 1 bits
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) head.bins[b] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < len; i += blockDim.x) {
      const uint32_t key = order_key(value(i));
      if ((key & known) == prefix) atomicAdd(&head.bins[(key >> shift) & digit_mask], 1);
    }
    __syncthreads();
    // The digit whose bin holds rank k: an inclusive scan of the bins (kThreads == kBins).
    const int count = head.bins[threadIdx.x];
    int sum = count;
    for (int off = 1; off < 32; off <<= 1) {
      const int up = __shfl_up_sync(0xffffffffu, sum, off);
      if (lane >= off) sum += up;
    }
    if (lane == 31) head.warp_sums[warp] = sum;
    __syncthreads();
    for (int w = 0; w < warp; ++w) sum += head.warp_sums[w];
    if (sum - count <= k && k < sum) {
      state[2] = uint32_t(threadIdx.x);
      state[3] = uint32_t(k - (sum - count));
      state[4] = uint32_t(count);
    }
    __syncthreads();
    prefix |= state[2] << shift;
    known |= digit_mask << shift;
    k = int(state[3]);
    const uint32_t left = state[4];
    __syncthreads();  // the state and the sums are written again below
    if (shift == 0) return key_value(prefix);
    if (left == 1) {
      for (int i = threadIdx.x; i < len; i += blockDim.x) {
        const uint32_t key = order_key(value(i));
        if ((key & known) == prefix) state[5] = key;
      }
      __syncthreads();
      const uint32_t key = state[5];
      __syncthreads();
      return key_value(key);
    }
    top = shift - 1;
  }
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
  SharedHead& head = *reinterpret_cast<SharedHead*>(shared_words);
  const int len = p.block_len;
  const int n = sort_length(len);
  double* scratch = head.scratch;
  float* a = reinterpret_cast<float*>(shared_words + sizeof(SharedHead) / sizeof(double));
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
  const auto in_block = [a](int i) { return a[i]; };

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
    const float median = select_rank(in_block, len, len / 2, head);
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
    // monotonic, so the middle element stays the middle one); after a line it is selected.
    const float centre = p.linear_baseline ? select_rank(in_block, len, len / 2, head) : 0.0f;
    const auto deviation = [a, centre](int i) { return fabsf(a[i] - centre); };
    block_sigma = 1.4826 * double(select_rank(deviation, len, len / 2, head));
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

namespace rapt::gpu {

std::vector<double> detrend_rows_on_gpu(std::vector<float>& rows, int64_t row_stride,
                                        const std::vector<int32_t>& whole_blocks, int max_blocks,
                                        const SnrSettings& settings) {
  DetrendParams p = detrend_params(settings);
  const size_t nseries = whole_blocks.size();
  cuda::DeviceBuffer<float> series(rows.size());
  cuda::DeviceBuffer<int32_t> whole(nseries);
  cuda::DeviceBuffer<double> sigma(nseries * size_t(max_blocks));
  RAPT_CUDA_CHECK(cudaMemcpy(series.get(), rows.data(), rows.size() * sizeof(float),
                             cudaMemcpyHostToDevice));
  RAPT_CUDA_CHECK(cudaMemcpy(whole.get(), whole_blocks.data(), nseries * sizeof(int32_t),
                             cudaMemcpyHostToDevice));
  p.series = series.get();
  p.row_stride = row_stride;
  p.num_series = int(nseries);
  p.whole_blocks = whole.get();
  p.max_blocks = max_blocks;
  p.sigma = sigma.get();
  launch_detrend_blocks(p, nullptr);
  std::vector<double> out(sigma.size());
  RAPT_CUDA_CHECK(cudaMemcpy(rows.data(), series.get(), rows.size() * sizeof(float),
                             cudaMemcpyDeviceToHost));
  RAPT_CUDA_CHECK(cudaMemcpy(out.data(), sigma.get(), out.size() * sizeof(double),
                             cudaMemcpyDeviceToHost));
  return out;
}

}  // namespace rapt::gpu
