// The dedispersion kernels and their launch shapes. The per-thread work is in
// dedisp_kernels.cuh, shared with the host emulation.
#include <stdexcept>

#include "../cuda/cuda_check.hpp"
#include "../cuda/dynamic_shared_memory.hpp"
#include "dedisp_kernels.cuh"
#include "dedisp_kernels.hpp"
#include "../cuda/random_words.hpp"

namespace rapt::gpu {
namespace {

constexpr unsigned kMaxGridY = 65535;

__global__ void __launch_bounds__(kUnpackTile * kUnpackRowsPerPass) unpack_kernel(UnpackParams p) {
  __shared__ UnpackTile tile;
  const size_t s0 = size_t(blockIdx.x) * kUnpackTile;
  const int k0 = int(blockIdx.y) * kUnpackTile;
  unpack_load(p, tile, threadIdx.x, threadIdx.y, s0, k0);
  __syncthreads();
  unpack_store(p, tile, threadIdx.x, threadIdx.y, s0, k0);
}

// One block per (time tile, DM block); blockDim.x = 32 * warps_time * warps_dm.
template <class Sums>
__global__ void __launch_bounds__(kDedispMaxThreadsPerBlock) tiled_kernel(TiledParams p) {
  extern __shared__ uint4 shared_words[];  // uint4: 16-byte alignment for the offset loads
  uint32_t* smem = reinterpret_cast<uint32_t*>(shared_words);
  const ThreadPos pos = tiled_thread_pos(p, threadIdx.x, blockDim.x, blockIdx.x, blockIdx.y);
  Sums sums;
  sums.clear();
  const int nstages = tiled_stage_count(p);
  for (int s = 0; s < nstages; ++s) {
    // Two buffers: staging s + 1 writes the buffer stage s - 1 read, and every thread passed
    // the barrier below after finishing stage s - 1, so one barrier per stage suffices.
    uint32_t* buffer = smem + (s & 1) * p.stage_words;
    sums.stage(p, buffer, s, pos);
    __syncthreads();
    sums.add(p, buffer, tiled_stage_channels(p, s), pos);
    if (tiled_flush_due(p, s)) sums.flush();
  }
  sums.flush();
  sums.store(p, pos);
}

__global__ void __launch_bounds__(kDirectThreads) direct_kernel(DirectParams p) {
  const size_t t = size_t(blockIdx.x) * kDirectThreads + threadIdx.x;
  if (t < p.nsamp) direct_output(p, t, int(blockIdx.y));
}

__global__ void __launch_bounds__(kDownsampleThreads) downsample_kernel(DownsampleParams p) {
  const size_t k = size_t(blockIdx.x) * kDownsampleThreads + threadIdx.x;
  if (k >= p.nout) return;
  for (int row = int(blockIdx.y); row < p.nrows; row += int(gridDim.y))
    downsample_output(p, row, k);
}

__global__ void __launch_bounds__(256)
    count_mismatches_kernel(const float* a, const float* b, size_t stride, size_t ncols, int nrows,
                            float rel_tol, unsigned long long* count) {
  const size_t col = size_t(blockIdx.x) * 256 + threadIdx.x;
  if (col >= ncols) return;
  unsigned long long bad = 0;
  for (int row = int(blockIdx.y); row < nrows; row += int(gridDim.y)) {
    const float x = a[size_t(row) * stride + col], y = b[size_t(row) * stride + col];
    if (!(fabsf(x - y) <= rel_tol * fmaxf(1.0f, fabsf(y)))) ++bad;
  }
  if (bad) atomicAdd(count, bad);
}

__global__ void __launch_bounds__(256)
    fill_random_kernel(uint32_t* words, size_t nwords, uint32_t seed, bool floats) {
  for (size_t i = size_t(blockIdx.x) * 256 + threadIdx.x; i < nwords; i += size_t(gridDim.x) * 256)
    words[i] = floats ? __float_as_uint(random_float(i, seed)) : random_word(i, seed);
}

unsigned blocks_for(size_t n, unsigned per_block) {
  return unsigned((n + per_block - 1) / per_block);
}

template <class Sums>
void run_tiled(const TiledParams& p, const DedispTileConfig& config, cudaStream_t stream) {
  const dim3 grid(blocks_for(p.nsamp, unsigned(p.samples_per_block)),
                  blocks_for(size_t(p.ndm), unsigned(p.dms_per_block)));
  if (grid.y > kMaxGridY)
    throw std::logic_error("dedispersion launch with more than 65535 DM blocks");
  const size_t shared = size_t(2) * size_t(p.stage_words) * 4;
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(tiled_kernel<Sums>),
                                    size_t(shared), "tiled dedispersion kernel");
  tiled_kernel<Sums><<<grid, unsigned(config.threads()), shared, stream>>>(p);
  RAPT_CUDA_CHECK_LAUNCH("tiled dedispersion kernel");
}

template <class Sums>
KernelResources resources_of() {
  cudaFuncAttributes a{};
  RAPT_CUDA_CHECK(cudaFuncGetAttributes(&a, tiled_kernel<Sums>));
  KernelResources r;
  r.registers = a.numRegs;
  r.local_bytes = a.localSizeBytes;
  r.max_threads = a.maxThreadsPerBlock;
  return r;
}

}  // namespace

void launch_unpack(const UnpackParams& p, cudaStream_t stream) {
  if (p.nspectra == 0 || p.nactive == 0) return;
  const dim3 grid(blocks_for(p.nspectra, kUnpackTile), blocks_for(size_t(p.nactive), kUnpackTile));
  if (grid.y > kMaxGridY) throw std::logic_error("unpacking launch with too many channels");
  unpack_kernel<<<grid, dim3(kUnpackTile, kUnpackRowsPerPass), 0, stream>>>(p);
  RAPT_CUDA_CHECK_LAUNCH("unpack kernel");
}

void launch_tiled_dedisp(const TiledParams& p, DedispSampleKind kind,
                         const DedispTileConfig& config, cudaStream_t stream) {
  if (p.nsamp == 0 || p.ndm == 0) return;
  if (config.threads() != kWarpSize * p.warps_time * config.warps_dm ||
      config.dms_per_block() != p.dms_per_block ||
      config.samples_per_block(kind) != p.samples_per_block)
    throw std::logic_error("tiled dedispersion launch: parameters built for another configuration");
#define RAPT_U8_CASE(NQ, ND)                                           \
  if (kind == DedispSampleKind::u8 && config.steps_per_thread == NQ && \
      config.dms_per_thread == ND)                                     \
    return run_tiled<U8Sums<NQ, ND>>(p, config, stream);
#define RAPT_F32_CASE(NT, ND)                                           \
  if (kind == DedispSampleKind::f32 && config.steps_per_thread == NT && \
      config.dms_per_thread == ND)                                      \
    return run_tiled<F32Sums<NT, ND>>(p, config, stream);
  RAPT_DEDISP_U8_TILES(RAPT_U8_CASE)
  RAPT_DEDISP_F32_TILES(RAPT_F32_CASE)
#undef RAPT_U8_CASE
#undef RAPT_F32_CASE
  throw std::logic_error("no dedispersion kernel compiled for " + config.text());
}

KernelResources tiled_kernel_resources(DedispSampleKind kind, const DedispTileConfig& config) {
#define RAPT_U8_CASE(NQ, ND)                                           \
  if (kind == DedispSampleKind::u8 && config.steps_per_thread == NQ && \
      config.dms_per_thread == ND)                                     \
    return resources_of<U8Sums<NQ, ND>>();
#define RAPT_F32_CASE(NT, ND)                                           \
  if (kind == DedispSampleKind::f32 && config.steps_per_thread == NT && \
      config.dms_per_thread == ND)                                      \
    return resources_of<F32Sums<NT, ND>>();
  RAPT_DEDISP_U8_TILES(RAPT_U8_CASE)
  RAPT_DEDISP_F32_TILES(RAPT_F32_CASE)
#undef RAPT_U8_CASE
#undef RAPT_F32_CASE
  throw std::logic_error("no dedispersion kernel compiled for " + config.text());
}

void launch_direct_dedisp(const DirectParams& p, cudaStream_t stream) {
  if (p.nsamp == 0 || p.ndm == 0) return;
  if (unsigned(p.ndm) > kMaxGridY) throw std::logic_error("direct dedispersion: too many DMs");
  const dim3 grid(blocks_for(p.nsamp, kDirectThreads), unsigned(p.ndm));
  direct_kernel<<<grid, kDirectThreads, 0, stream>>>(p);
  RAPT_CUDA_CHECK_LAUNCH("direct dedispersion kernel");
}

void launch_downsample(const DownsampleParams& p, cudaStream_t stream) {
  if (p.nout == 0 || p.nrows == 0) return;
  const dim3 grid(blocks_for(p.nout, kDownsampleThreads),
                  unsigned(p.nrows) < kMaxGridY ? unsigned(p.nrows) : kMaxGridY);
  downsample_kernel<<<grid, kDownsampleThreads, 0, stream>>>(p);
  RAPT_CUDA_CHECK_LAUNCH("downsampling kernel");
}

void launch_count_mismatches(const float* a, const float* b, size_t stride, size_t ncols, int nrows,
                             float rel_tol, unsigned long long* count, cudaStream_t stream) {
  if (ncols == 0 || nrows == 0) return;
  const dim3 grid(blocks_for(ncols, 256), unsigned(nrows) < 1024 ? unsigned(nrows) : 1024u);
  count_mismatches_kernel<<<grid, 256, 0, stream>>>(a, b, stride, ncols, nrows, rel_tol, count);
  RAPT_CUDA_CHECK_LAUNCH("mismatch counting kernel");
}

void launch_fill_random(uint32_t* words, size_t nwords, uint32_t seed, bool floats,
                        cudaStream_t stream) {
  if (nwords == 0) return;
  const size_t blocks = (nwords + 255) / 256;
  fill_random_kernel<<<unsigned(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(words, nwords,
                                                                                    seed, floats);
  RAPT_CUDA_CHECK_LAUNCH("random fill kernel");
}

}  // namespace rapt::gpu
