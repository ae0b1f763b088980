// The boxcar search kernels: every series and every width in one pass. PRESTO's default widths
// go to the warp kernel of snr_boxcar_warp.cuh (registers and shuffles only); any other set of
// widths to the tiled kernel below.
//
// Tiled kernel's launch shape: blocks of kBoxcarThreads threads; grid (ceil(length / kBoxcarTile),
// min(num_series, 65535)), each block looping over series in steps of gridDim.y. The
// per-thread phases are in snr_boxcar_tile.cuh. Values above the threshold are appended to a
// global list with one atomic each (hits are rare: the list is a compaction, not an output).
#include <algorithm>
#include <cmath>

#include "../cuda/cuda_check.hpp"
#include "../cuda/cuda_device_query.hpp"
#include "../cuda/dynamic_shared_memory.hpp"
#include "../cuda/random_words.hpp"
#include "snr_boxcar_kernels.hpp"
#include "snr_boxcar_tile.cuh"
#include "snr_boxcar_warp.cuh"

namespace rapt::gpu {
namespace {

struct AppendHit {
  DeviceBoxcarHit* hits;
  unsigned long long* count;
  unsigned long long capacity;
  // Host-callable in name only (tile_search is __host__ __device__); it runs on the device.
  __host__ __device__ void operator()(int series, int width_index, int64_t sample, float value) {
#ifdef __CUDA_ARCH__
    const unsigned long long slot = atomicAdd(count, 1ull);
    if (slot < capacity) hits[slot] = DeviceBoxcarHit{series, width_index, sample, value, 0.0f};
#else
    (void)series, (void)width_index, (void)sample, (void)value;
#endif
  }
};

__global__ void __launch_bounds__(kBoxcarThreads) boxcar_search_kernel(BoxcarKernelParams p) {
  extern __shared__ float shared[];
  __shared__ float totals[kBoxcarThreads];
  __shared__ float carry[kBoxcarThreads];
  const int span = tile_span(p.max_width);
  float* values = shared;          // span
  float* prefix = shared + span;   // span + 1
  const int tid = threadIdx.x;
  const int64_t tile_start = int64_t(blockIdx.x) * kBoxcarTile;
  AppendHit emit{p.hits, p.count, p.capacity};

  for (int series = blockIdx.y; series < p.num_series; series += gridDim.y) {
    tile_load(p, series, tile_start, tid, values);
    __syncthreads();
    tile_segment_total(p.max_width, tid, values, totals);
    __syncthreads();
    for (int d = 1; d < kBoxcarThreads; d <<= 1) {
      tile_scan_read(tid, d, totals, carry);
      __syncthreads();
      tile_scan_add(tid, totals, carry);
      __syncthreads();
    }
    tile_prefix(p.max_width, tid, values, totals, prefix);
    __syncthreads();
    tile_search(p, series, tile_start, tid, values, prefix, emit);
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

// The warp kernel: as many blocks as the device holds at once (each warp then loops over many
// chunks, loading the next while searching the current), fewer when there is less work.
void launch_boxcar_default_widths(const BoxcarKernelParams& p, cudaStream_t stream) {
  using Kernel = void (*)(BoxcarKernelParams, AppendHit);
  const Kernel kernel = boxcar_default_widths_kernel<AppendHit>;
  const int sms = cuda::multiprocessor_count(cuda::current_device());
  int per_sm = 0;
  RAPT_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kWarpBoxcarThreads, 0));
  constexpr int kWarpsPerBlock = kWarpBoxcarThreads / 32;
  const int64_t chunks = (p.length + kWarpBoxcarChunk - 1) / kWarpBoxcarChunk;
  const int64_t blocks_needed = (chunks * p.num_series + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const int64_t resident = int64_t(sms) * std::max(per_sm, 1);
  const unsigned blocks = unsigned(std::max<int64_t>(1, std::min(blocks_needed, resident)));
  const AppendHit emit{p.hits, p.count, p.capacity};
  kernel<<<blocks, kWarpBoxcarThreads, 0, stream>>>(p, emit);
  RAPT_CUDA_CHECK_LAUNCH("boxcar_default_widths_kernel");
}

}  // namespace

size_t boxcar_shared_bytes(int max_width) {
  return sizeof(float) * (2 * size_t(kBoxcarTile + max_width) + 1);
}

int max_supported_boxcar_width(int gpu) {
  int optin = 0;
  RAPT_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, gpu));
  const size_t usable = size_t(optin) - 4096;  // the static scan arrays and some slack
  return int(usable / (2 * sizeof(float))) - kBoxcarTile - 1;
}

void launch_boxcar_search(const BoxcarKernelParams& p, cudaStream_t stream) {
  if (p.length <= 0 || p.num_series <= 0) return;
  if (p.default_widths && p.max_width == 2 * kWarpBoxcarHalf) {
    launch_boxcar_default_widths(p, stream);
    return;
  }
  const size_t shared = boxcar_shared_bytes(p.max_width);
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(boxcar_search_kernel),
                                    size_t(shared), "boxcar_search_kernel");
  const dim3 grid(unsigned((p.length + kBoxcarTile - 1) / kBoxcarTile),
                  unsigned(std::min(p.num_series, 65535)));
  boxcar_search_kernel<<<grid, kBoxcarThreads, shared, stream>>>(p);
  RAPT_CUDA_CHECK_LAUNCH("boxcar_search_kernel");
}

void launch_fill_gaussian(float* x, size_t count, uint32_t seed, cudaStream_t stream) {
  const unsigned blocks = unsigned(std::min<size_t>((count + 255) / 256, 65535));
  fill_gaussian_kernel<<<blocks, 256, 0, stream>>>(x, count, seed);
  RAPT_CUDA_CHECK_LAUNCH("fill_gaussian_kernel");
}

}  // namespace rapt::gpu
