// The FP16 beam former in one kernel, for blocks that want detected output alone: the product
// Y' = W' X' of each channel on tensor cores (mma.sync m16n8k16, half inputs, float sums) and
// the detection, integration and channel sums of its result in the same block, so that neither
// the half voltages nor the beams pass through device memory (the three-pass path, conversion +
// cuBLAS + detection, moves both; see bf_gpu_pipeline.hpp).
//
// A block: 16 warps, one per SM (its shared memory is most of the SM's), kTileBeams beams x
// kTileSamples samples x up to 8 output channels (with their fscrunch input channels), taken
// one input channel after the other. Per channel, the product runs over the stations in stages
// of kStageStations (K = 32 rows of X'), kStages stages in shared memory filled by cp.async, so
// that two stages are in flight while the tensor cores take the third:
//   A (W'):  [kTileRows][kRowHalves] half, row-major; rows reordered per group of 8 beams (8
//            real rows, then their 8 imaginary rows) so that an accumulator fragment of the
//            m16n8 product holds both parts of a beam: c0, c1 real and c2, c3 imaginary parts of
//            beam g at columns 2q, 2q + 1 (g = lane / 4, q = lane % 4). Rows of 40 halves (80
//            bytes): the 8 rows of each ldmatrix fall in distinct banks.
//   X:       [station][column] the float voltages as they lie in device memory, rows padded by
//            4 values so that the 16 lanes of each half warp read distinct banks. The B fragment
//            of stations s .. s + 7 at column n is two half2: station s + q and s + 4 + q at n + g,
//            (Re, Im) converted on the way into registers: X'[2a][j] = Re X[a][j], X'[2a + 1][j]
//            = Im X[a][j].
// Warps: 4 over beams (16 beams each) x 4 over columns (32 columns each for 2 polarisations:
// columns 2q, 2q + 1 of a fragment are the two polarisations of one sample; 16 for one).
// Each tile reads the voltages of its samples once per beam tile and W' once per sample tile,
// through the L2 cache: 16 / kTileBeams + 8 / kTileSamples bytes per beam, sample, channel and
// station, the reason for tiles as large as the output staging lets them be.
//
// Detection, per channel, from the accumulators: Stokes (bf/beamformer_engine.hpp) of each beam
// and sample times the sample's weight (0 when flagged, else tint / n_ok of its window, from
// launch_window_scales), added into the block's output staging [beam][window][stokes][channel]
// in shared memory: directly for tint 1 (each entry has one owner thread); for tint > 1 through
// a per-sample buffer that the block then sums by window. Once all its channels are done the
// block writes the staging out in runs of its output channels (32 bytes for 8 channels):
// stores when the tile holds whole windows (kTileSamples a multiple of tint), else atomic adds
// into the output, zeroed first. Channels per block: 8, fewer when the staging would not fit
// (full Stokes at tint 1: 2; fewer on GPUs with less shared memory than an H100).
//
// Not the default path: BeamformerPipeline takes it with BfPipelineOptions::fused_fp16. As
// measured on an H100 (bench_bf.cpp, kernel ms, fused against conversion + cuBLAS + detection):
//   this version (16 warps, 64 x 64 tiles, cp.async 3 stages):  B1 0.48 / 0.40, B2 MeerKAT
//     58 / 40, B2 SKA-Low 53 / 20;
//   a first one (8 warps, 2 blocks per SM, 32 x 64 tiles, one stage prefetched in registers,
//     the voltages converted into shared memory as half): B1 0.47, MeerKAT 62, SKA-Low 64.
// Halving the L2 traffic per FLOP left B1 where it was, so its bound is elsewhere: the loop does
// 16 MMAs per warp between block barriers (K = 32 per stage) at about 2500 cycles per stage where
// the PTX issues about 700, which points at latency not covered by two stages in flight, and
// B1's blocks have only 32 stages against their fixed costs (staging cleared and written out,
// the pipeline filled). Not yet profiled (Nsight Compute's stall reasons would say).
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "../cuda/cuda_check.hpp"
#include "../cuda/dynamic_shared_memory.hpp"
#include "bf_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr int kWarpsBeams = 4;
constexpr int kWarpsColumns = 4;
constexpr int kThreads = 32 * kWarpsBeams * kWarpsColumns;
constexpr int kTileBeams = 64;
constexpr int kTileRows = 2 * kTileBeams;  // rows of Y' (and W')
constexpr int kTileSamples = 64;
constexpr int kStageStations = 16;
constexpr int kStageK = 2 * kStageStations;
constexpr int kStages = 3;
constexpr int kRowHalves = kStageK + 8;
constexpr int kRowPad = 4;               // float2 after each station's row of voltages
constexpr int kMaxChannels = 8;          // output channels per block
constexpr int kStagingPerBeam = 512;     // windows x stokes x channels of the staging, at most
constexpr int kStagingPerBeamSums = 256; // the same for tint > 1 (with the per-sample buffer)
constexpr unsigned kMaxGridY = 65535;

static_assert(kTileRows == kWarpsBeams * 32, "each warp takes two 16-row fragments");
static_assert(kTileSamples % (kWarpsColumns * 8) == 0, "whole n8 fragments per warp");
static_assert(kTileRows * kStageK / 8 == kThreads, "one 16-byte W' copy per thread and stage");

// Shared memory of the block, in bytes from the start: the pipeline stages (A of each, then X
// of each), the sample weights, the output staging and (tint > 1) the per-sample buffer.
struct FusedLayout {
  int a_halves, x_values;  // one stage
  int x_at, weights_at, staging_at, samples_at, bytes;
};

__host__ __device__ constexpr int samples_row(int nstokes) { return kTileSamples * nstokes + 1; }
__host__ __device__ constexpr int x_row(int npol) { return kTileSamples * npol + kRowPad; }

__host__ __device__ inline FusedLayout fused_layout(int npol, int nstokes, int staging_row,
                                                    bool per_sample) {
  FusedLayout l{};
  l.a_halves = kTileRows * kRowHalves;
  l.x_values = kStageStations * x_row(npol);
  l.x_at = kStages * l.a_halves * 2;
  l.weights_at = l.x_at + kStages * l.x_values * 8;
  l.staging_at = l.weights_at + kTileSamples * 4;
  l.samples_at = l.staging_at + kTileBeams * staging_row * 4;
  l.bytes = l.samples_at + (per_sample ? kTileBeams * samples_row(nstokes) * 4 : 0);
  return l;
}

struct FusedArgs {
  const float2* x;            // [chan][ant][nsamples * npol]
  const __half* w;            // W' [chan][2 * beam + re/im][ldw]
  const float* window_scale;  // [nsamples_out], when flags
  const uint8_t* flags;       // [nsamples] or nullptr
  float* out;                 // [beam][t_out][stokes][chan_out]
  int nant, ldw, nbeams, nchan_out, fscrunch, tint;
  int64_t nsamples, nsamples_out, columns;
  int beam_tiles;
  int windows;      // staging windows per tile
  int channels;     // output channels per block
  int staging_row;  // floats per beam of the staging: windows * nstokes * channels + 1
  int first_batch;  // of output channels, for grids split over several launches
  bool whole_windows;
};

__device__ inline void ldmatrix_x4(uint32_t (&r)[4], const __half* p) {
  const unsigned at = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(at));
}

// Copies of 16 (or 8) bytes from global to shared memory, of which the first `bytes` are read
// and the rest are zero (bytes 0: nothing is read).
__device__ inline void copy_async_16(void* to, const void* from, int bytes) {
  const unsigned at = static_cast<unsigned>(__cvta_generic_to_shared(to));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(at), "l"(from), "r"(bytes)
               : "memory");
}
__device__ inline void copy_async_8(void* to, const void* from, int bytes) {
  const unsigned at = static_cast<unsigned>(__cvta_generic_to_shared(to));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(at), "l"(from), "r"(bytes)
               : "memory");
}
__device__ inline void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Waits until at most `N` of this thread's latest groups of copies are still in flight.
template <int N>
__device__ inline void wait_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

__device__ inline uint32_t half2_bits(float2 v) {
  const __half2 h = __floats2half2_rn(v.x, v.y);
  return *reinterpret_cast<const uint32_t*>(&h);
}

// d += a b for one m16n8k16 fragment (half inputs, float accumulators).
__device__ inline void mma_16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// The header's Stokes formulas for beams (r0 + i i0, r1 + i i1) of the two polarisations.
template <int S, bool Circular>
__device__ inline void stokes(float r0, float i0, float r1, float i1, float (&st)[S]) {
  const float aa = r0 * r0 + i0 * i0, bb = r1 * r1 + i1 * i1;
  st[0] = aa + bb;
  if constexpr (S == 4) {
    const float cr = r0 * r1 + i0 * i1;  // Re(conj(Y0) Y1)
    const float ci = r0 * i1 - i0 * r1;  // Im(conj(Y0) Y1)
    if constexpr (Circular) {
      st[1] = 2.0f * cr;
      st[2] = 2.0f * ci;
      st[3] = aa - bb;
    } else {
      st[1] = aa - bb;
      st[2] = 2.0f * cr;
      st[3] = 2.0f * ci;
    }
  }
}

template <int P, int S, bool Circular>
__global__ void __launch_bounds__(kThreads, 1) fused_detect_kernel(FusedArgs a) {
  constexpr int kColumns = kTileSamples * P;                        // of the tile
  constexpr int kFragsN = kColumns / (kWarpsColumns * 8);           // n8 fragments per warp
  constexpr int kFragsM = kTileRows / (kWarpsBeams * 16);           // m16 fragments per warp
  constexpr int kXRow = x_row(P);                                   // float2 per station row
  constexpr int kPairs = kColumns / 2;                              // 16-byte copies per row
  constexpr int kCopiesX = kStageStations * kPairs / kThreads;      // per thread and stage
  static_assert(kFragsN % 2 == 0 && kFragsM == 2, "tile shape");
  static_assert(kCopiesX * kThreads == kStageStations * kPairs, "whole rows of copies");

  extern __shared__ __align__(16) unsigned char smem[];
  const FusedLayout layout = fused_layout(P, S, a.staging_row, a.tint > 1);
  __half* const stage_a = reinterpret_cast<__half*>(smem);
  float2* const stage_x = reinterpret_cast<float2*>(smem + layout.x_at);
  float* const sample_weight = reinterpret_cast<float*>(smem + layout.weights_at);
  float* const staging = reinterpret_cast<float*>(smem + layout.staging_at);
  float* const per_sample = reinterpret_cast<float*>(smem + layout.samples_at);

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int warp_m = warp % kWarpsBeams, warp_n = warp / kWarpsBeams;
  const int b0 = int(blockIdx.x % unsigned(a.beam_tiles)) * kTileBeams;
  const int64_t t0 = int64_t(blockIdx.x / unsigned(a.beam_tiles)) * kTileSamples;
  const int co0 = (a.first_batch + int(blockIdx.y)) * a.channels;
  const int nco = min(a.channels, a.nchan_out - co0);
  const int first_chan = co0 * a.fscrunch;
  const int stages = (a.nant + kStageStations - 1) / kStageStations;
  const int iterations = nco * a.fscrunch * stages;
  const int64_t first_window = t0 / a.tint;

  for (int i = tid; i < kTileSamples; i += kThreads) {
    const int64_t t = t0 + i;
    float weight = 0.0f;
    if (t < a.nsamples) weight = !a.flags ? 1.0f : a.flags[t] ? 0.0f : a.window_scale[t / a.tint];
    sample_weight[i] = weight;
  }
  for (int i = tid; i < kTileBeams * a.staging_row; i += kThreads) staging[i] = 0.0f;

  // This thread's W' copy: row r of the tile (reordered, see above), 8 halves at column v * 8.
  const int w_row = tid >> 2, w_vec = tid & 3;
  const int w_beam = b0 + (w_row >> 4) * 8 + (w_row & 7), w_part = (w_row >> 3) & 1;
  const bool even_columns = a.columns % 2 == 0;  // 16-byte copies of voltage pairs

  // Stage `it` (channel it / stages, stations from (it % stages) * kStageStations) into
  // pipeline buffer `buffer`; zeros past the stations, beams and columns there are.
  auto copy_stage = [&](int it, int buffer) {
    const int c = first_chan + it / stages, ks = it % stages;
    const int k = ks * kStageK + w_vec * 8;
    const bool w_ok = w_beam < a.nbeams && k < a.ldw;
    copy_async_16(stage_a + buffer * layout.a_halves + w_row * kRowHalves + w_vec * 8,
                  w_ok ? a.w + ((int64_t(c) * a.nbeams + w_beam) * 2 + w_part) * a.ldw + k : a.w,
                  w_ok ? 16 : 0);
    float2* sx = stage_x + buffer * layout.x_values;
#pragma unroll
    for (int i = 0; i < kCopiesX; ++i) {
      const int copy = tid + i * kThreads;
      const int st = copy / kPairs, pair = copy % kPairs;
      const int ant = ks * kStageStations + st;
      const int64_t col = t0 * P + 2 * pair;
      const int64_t left = ant < a.nant ? a.columns - col : 0;  // values there are
      const float2* from = a.x + (int64_t(c) * a.nant + ant) * a.columns + col;
      float2* to = sx + st * kXRow + 2 * pair;
      if (even_columns) {  // `left` is even: a whole pair or none
        copy_async_16(to, left > 0 ? from : a.x, left > 0 ? 16 : 0);
      } else {
        copy_async_8(to, left > 0 ? from : a.x, left > 0 ? 8 : 0);
        copy_async_8(to + 1, left > 1 ? from + 1 : a.x, left > 1 ? 8 : 0);
      }
    }
  };

  float acc[kFragsM][kFragsN][4] = {};
  auto multiply = [&](int buffer) {
    const __half* sa = stage_a + buffer * layout.a_halves;
    const float2* sx = stage_x + buffer * layout.x_values;
    const int g = lane >> 2, q = lane & 3;
#pragma unroll
    for (int kk = 0; kk < kStageK; kk += 16) {
      uint32_t af[kFragsM][4];
#pragma unroll
      for (int mi = 0; mi < kFragsM; ++mi)
        ldmatrix_x4(af[mi], sa + (warp_m * 32 + mi * 16 + (lane & 15)) * kRowHalves + kk +
                                (lane >> 4) * 8);
      // Stations kk / 2 + q (k = 2q, 2q + 1 of the step) and kk / 2 + 4 + q (k + 8).
      const float2* column = sx + (kk / 2 + q) * kXRow + warp_n * (kFragsN * 8) + g;
#pragma unroll
      for (int ni = 0; ni < kFragsN; ++ni) {
        const uint32_t low = half2_bits(column[ni * 8]);
        const uint32_t high = half2_bits(column[4 * kXRow + ni * 8]);
#pragma unroll
        for (int mi = 0; mi < kFragsM; ++mi) mma_16816(acc[mi][ni], af[mi], low, high);
      }
    }
  };

  // Stokes of (beam, sample) of the tile, weighted, to the staging (tint 1) or the per-sample
  // buffer; then the accumulators restart for the next channel.
  auto detect = [&](int channel) {
    const int g = lane >> 2, q = lane & 3;
    auto put = [&](int beam, int sample, const float (&st)[S]) {
      const float weight = sample_weight[sample];
      if (a.tint == 1) {
        if (weight == 0.0f) return;  // flagged, or past the block's end
        float* to = staging + beam * a.staging_row + sample * S * a.channels + channel;
#pragma unroll
        for (int s = 0; s < S; ++s) to[s * a.channels] += weight * st[s];
      } else {
        float* to = per_sample + beam * samples_row(S) + sample * S;
#pragma unroll
        for (int s = 0; s < S; ++s) to[s] = weight == 0.0f ? 0.0f : weight * st[s];
      }
    };
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) {
      const int beam = warp_m * 16 + mi * 8 + g;
#pragma unroll
      for (int ni = 0; ni < kFragsN; ++ni) {
        float (&c)[4] = acc[mi][ni];
        if constexpr (P == 2) {
          float st[S];
          stokes<S, Circular>(c[0], c[2], c[1], c[3], st);
          put(beam, warp_n * (kFragsN * 4) + ni * 4 + q, st);
        } else {
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const float st[1] = {c[e] * c[e] + c[2 + e] * c[2 + e]};
            put(beam, warp_n * (kFragsN * 8) + ni * 8 + 2 * q + e, st);
          }
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) c[e] = 0.0f;
      }
    }
  };

  // tint > 1, after a barrier: the per-sample buffer summed by window into the staging.
  auto sum_windows = [&](int channel) {
    for (int i = tid; i < kTileBeams * a.windows * S; i += kThreads) {
      const int s = i % S, w = (i / S) % a.windows, beam = i / (S * a.windows);
      const int64_t start = (first_window + w) * a.tint - t0;
      const int lo = int(max(start, int64_t(0)));
      const int hi = int(min(start + a.tint, int64_t(kTileSamples)));
      const float* from = per_sample + beam * samples_row(S) + s;
      float sum = 0.0f;
      for (int t = lo; t < hi; ++t) sum += from[t * S];
      staging[beam * a.staging_row + (w * S + s) * a.channels + channel] += sum;
    }
  };

  for (int it = 0; it < kStages - 1; ++it) {
    if (it < iterations) copy_stage(it, it);
    commit_copies();
  }
  for (int it = 0; it < iterations; ++it) {
    wait_copies<kStages - 2>();  // this thread's copies of stage `it` have landed
    __syncthreads();             // everyone's have, and stage it - 1 is free again
    const int next = it + kStages - 1;
    if (next < iterations) copy_stage(next, next % kStages);
    commit_copies();
    multiply(it % kStages);
    if ((it + 1) % stages == 0) {  // the channel's last stage
      const int channel = it / stages / a.fscrunch;
      detect(channel);
      if (a.tint > 1) {
        __syncthreads();
        sum_windows(channel);
      }
    }
  }
  wait_copies<0>();
  __syncthreads();

  // The staging out: runs of nco output channels.
  for (int i = tid; i < kTileBeams * a.windows * S * nco; i += kThreads) {
    const int co = i % nco, row = i / nco;
    const int s = row % S, w = (row / S) % a.windows, beam = row / (S * a.windows);
    const int64_t window = first_window + w;
    if (b0 + beam >= a.nbeams || window >= a.nsamples_out) continue;
    const float v = staging[beam * a.staging_row + (w * S + s) * a.channels + co];
    float* to = a.out + ((int64_t(b0 + beam) * a.nsamples_out + window) * S + s) * a.nchan_out +
                co0 + co;
    if (a.whole_windows)
      *to = v;
    else
      atomicAdd(to, v);
  }
}

__global__ void window_scale_kernel(const uint8_t* flags, int tint, int64_t nsamples_out,
                                    float* scales) {
  const int64_t w = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (w >= nsamples_out) return;
  int ok = tint;
  for (int k = 0; k < tint; ++k) ok -= flags[w * tint + k] != 0;
  scales[w] = ok ? float(tint) / float(ok) : 0.0f;
}

template <int P, int S, bool Circular>
void launch_fused(const FusedArgs& args, unsigned grid_x, int64_t batches, int smem_bytes,
                  cudaStream_t stream) {
  auto* kernel = fused_detect_kernel<P, S, Circular>;
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), size_t(smem_bytes),
                                    "fused FP16 beam forming and detection kernel");
  RAPT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                       int(cudaSharedmemCarveoutMaxShared)));
  for (int64_t first = 0; first < batches; first += kMaxGridY) {
    FusedArgs a = args;
    a.first_batch = int(first);
    const dim3 grid(grid_x, unsigned(std::min<int64_t>(batches - first, kMaxGridY)));
    kernel<<<grid, kThreads, smem_bytes, stream>>>(a);
    RAPT_CUDA_CHECK_LAUNCH("fused FP16 beam forming and detection kernel");
  }
}

}  // namespace

void launch_window_scales(const uint8_t* flags, int tint, int64_t nsamples_out, float* scales,
                          cudaStream_t stream) {
  constexpr int threads = 256;
  if (nsamples_out == 0) return;
  window_scale_kernel<<<unsigned((nsamples_out + threads - 1) / threads), threads, 0, stream>>>(
      flags, tint, nsamples_out, scales);
  RAPT_CUDA_CHECK_LAUNCH("window scale kernel");
}

void launch_fused_detect(const float2* voltages, const __half* weights_fp16, int nant, int ldw,
                         const float* window_scales, const BfDetectParams& p, float* detected,
                         cudaStream_t stream) {
  if (p.nsamples_out == 0) return;
  FusedArgs a{};
  a.x = voltages;
  a.w = weights_fp16;
  a.window_scale = window_scales;
  a.flags = p.flags;
  a.out = detected;
  a.nant = nant;
  a.ldw = ldw;
  a.nbeams = p.nbeams;
  a.nchan_out = p.nchan_out;
  a.fscrunch = p.fscrunch;
  a.tint = p.tint;
  a.nsamples = p.nsamples;
  a.nsamples_out = p.nsamples_out;
  a.columns = p.nsamples * p.npol;
  a.beam_tiles = (p.nbeams + kTileBeams - 1) / kTileBeams;
  a.whole_windows = kTileSamples % p.tint == 0;
  a.windows = a.whole_windows ? kTileSamples / p.tint
                              : std::min(kTileSamples, (kTileSamples - 1) / p.tint + 2);
  // Output channels per block: as many as the staging takes, and the device's shared memory.
  int device = 0, smem_limit = 0;
  RAPT_CUDA_CHECK(cudaGetDevice(&device));
  RAPT_CUDA_CHECK(
      cudaDeviceGetAttribute(&smem_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const bool sums = p.tint > 1;
  auto smem_for = [&](int channels) {
    return fused_layout(p.npol, p.nstokes, a.windows * p.nstokes * channels + 1, sums).bytes;
  };
  a.channels = std::min(kMaxChannels, (sums ? kStagingPerBeamSums : kStagingPerBeam) /
                                          (a.windows * p.nstokes));
  while (a.channels > 1 && smem_for(a.channels) > smem_limit) --a.channels;
  const int smem = smem_for(a.channels);
  if (smem > smem_limit)
    throw DataError("the fused FP16 beam former needs " + std::to_string(smem) +
                    " bytes of shared memory per block; this GPU has " +
                    std::to_string(smem_limit));
  a.staging_row = a.windows * p.nstokes * a.channels + 1;

  const int64_t time_tiles = (p.nsamples + kTileSamples - 1) / kTileSamples;
  const int64_t grid_x = time_tiles * a.beam_tiles;
  if (grid_x > INT32_MAX)
    throw UsageError("beam forming block too large for the fused FP16 kernel (" +
                     std::to_string(p.nsamples) + " samples); use fewer samples per block");
  const int64_t batches = (p.nchan_out + a.channels - 1) / a.channels;
  if (!a.whole_windows)
    RAPT_CUDA_CHECK(cudaMemsetAsync(detected, 0,
                                    sizeof(float) * size_t(p.nbeams) * size_t(p.nsamples_out) *
                                        size_t(p.nstokes) * size_t(p.nchan_out),
                                    stream));
  if (p.npol == 1)
    launch_fused<1, 1, false>(a, unsigned(grid_x), batches, smem, stream);
  else if (p.nstokes == 1)
    launch_fused<2, 1, false>(a, unsigned(grid_x), batches, smem, stream);
  else if (p.circular)
    launch_fused<2, 4, true>(a, unsigned(grid_x), batches, smem, stream);
  else
    launch_fused<2, 4, false>(a, unsigned(grid_x), batches, smem, stream);
}

}  // namespace rapt::gpu
