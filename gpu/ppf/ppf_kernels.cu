// The channeliser's kernels (layouts in ppf_kernels.hpp).
//
// FIR: one thread per (pair, position k in the frame) and a run of output frames; it reads
// each input frame's sample at k once (both polarisations in one 8- or 16-byte load, the
// threads of a warp reading consecutive samples) and keeps the last ntaps of them in registers,
// a ring indexed by compile-time positions (the loop over frames is unrolled by ntaps), so each
// output is ntaps multiply-adds from registers. Tap counts without a compiled ring (not 4, 8,
// 12, 16, 24 or 32) take a kernel that reads the taps' samples from memory (L1/L2 hits).
// Grid: (pairs x ceil(L / threads), runs of frames).
//
// Post: spectra rows are [pair][pol][t][bin] and the output is [chan][ant][t][pol]: a 32 x 32
// tile of (t, fine channel) per block goes through shared memory, read along the bins and
// written along time (and polarisation), both coalesced, with the fine channel's bin, the
// conjugation and the correction factor applied on the way.
// Grid: (pairs x ceil(P / 32), ceil(F / 32)).
#include <algorithm>

#include "../cuda/cuda_check.hpp"
#include "ppf_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr int kFirThreads = 128;
constexpr int kPostTile = 32;
constexpr int kPostRows = 8;
constexpr int kCopyThreads = 256;
// Threads the FIR wants in flight before it splits streams into runs of frames.
constexpr int64_t kFirWantedThreads = int64_t(1) << 20;

// The W floats of one (pair, time) sample: both polarisations, real or complex.
template <int W>
struct Sample {
  float v[W];
};

template <int W>
__device__ inline Sample<W> load_sample(const float* base, int64_t index) {
  Sample<W> s;
  if constexpr (W == 4) {
    const float4 q = __ldg(reinterpret_cast<const float4*>(base) + index);
    s.v[0] = q.x, s.v[1] = q.y, s.v[2] = q.z, s.v[3] = q.w;
  } else if constexpr (W == 2) {
    const float2 q = __ldg(reinterpret_cast<const float2*>(base) + index);
    s.v[0] = q.x, s.v[1] = q.y;
  } else {
    s.v[0] = __ldg(base + index);
  }
  return s;
}

// The sample at time n (relative to the chunk's first) of one pair: the chunk's input, or
// before it the history.
template <int W>
__device__ inline Sample<W> stream_sample(const float* input, const float* history,
                                          int64_t n, int64_t nsamples, int64_t hsamples) {
  return n >= 0 ? load_sample<W>(input, n) : load_sample<W>(history, n + hsamples);
}

template <int W, bool Complex>
__device__ inline void store_fir(float* fir, const PfbFirParams& p, int64_t pair, int64_t t,
                                 int k, const Sample<W>& acc) {
  constexpr int kPols = Complex ? W / 2 : W;
  for (int q = 0; q < kPols; ++q) {
    const int64_t at = ((pair * kPols + q) * p.nframes + t) * p.frame + k;
    if constexpr (Complex)
      reinterpret_cast<float2*>(fir)[at] = make_float2(acc.v[2 * q], acc.v[2 * q + 1]);
    else
      fir[at] = acc.v[q];
  }
}

template <int W, bool Complex, int M>
__global__ void __launch_bounds__(kFirThreads)
    pfb_fir_ring(const float* __restrict__ input, const float* __restrict__ history,
                 const float* __restrict__ coefficients, float* __restrict__ fir, PfbFirParams p,
                 int kblocks, int64_t run) {
  const int64_t pair = blockIdx.x / kblocks;
  const int k = int(blockIdx.x % kblocks) * kFirThreads + threadIdx.x;
  const int64_t t0 = int64_t(blockIdx.y) * run;
  const int64_t t1 = min(t0 + run, p.nframes);
  if (k >= p.frame || t0 >= t1) return;
  const int64_t nsamples = p.nframes * p.frame, hsamples = int64_t(M - 1) * p.frame;
  const float* in = input + pair * nsamples * W;
  const float* hist = history + pair * hsamples * W;
  float h[M];
#pragma unroll
  for (int m = 0; m < M; ++m) h[m] = __ldg(coefficients + m * p.frame + k);
  // Frame f sits in slot (f - t0 + M - 1) % M.
  Sample<W> ring[M];
#pragma unroll
  for (int i = 0; i < M - 1; ++i)
    ring[i] = stream_sample<W>(in, hist, (t0 - M + 1 + i) * p.frame + k, nsamples, hsamples);
  for (int64_t t = t0; t < t1; t += M) {
#pragma unroll
    for (int r = 0; r < M; ++r) {
      if (t + r < t1) {
        ring[(M - 1 + r) % M] = stream_sample<W>(in, hist, (t + r) * p.frame + k, nsamples, hsamples);
        Sample<W> acc;
#pragma unroll
        for (int v = 0; v < W; ++v) acc.v[v] = 0.0f;
#pragma unroll
        for (int m = 0; m < M; ++m)
#pragma unroll
          for (int v = 0; v < W; ++v) acc.v[v] = fmaf(h[m], ring[(r + m) % M].v[v], acc.v[v]);
        store_fir<W, Complex>(fir, p, pair, t + r, k, acc);
      }
    }
  }
}

template <int W, bool Complex>
__global__ void __launch_bounds__(kFirThreads)
    pfb_fir_any(const float* __restrict__ input, const float* __restrict__ history,
                const float* __restrict__ coefficients, float* __restrict__ fir, PfbFirParams p,
                int kblocks, int64_t run) {
  const int64_t pair = blockIdx.x / kblocks;
  const int k = int(blockIdx.x % kblocks) * kFirThreads + threadIdx.x;
  const int64_t t0 = int64_t(blockIdx.y) * run;
  const int64_t t1 = min(t0 + run, p.nframes);
  if (k >= p.frame || t0 >= t1) return;
  const int64_t nsamples = p.nframes * p.frame, hsamples = int64_t(p.ntaps - 1) * p.frame;
  const float* in = input + pair * nsamples * W;
  const float* hist = history + pair * hsamples * W;
  for (int64_t t = t0; t < t1; ++t) {
    Sample<W> acc;
#pragma unroll
    for (int v = 0; v < W; ++v) acc.v[v] = 0.0f;
    for (int m = 0; m < p.ntaps; ++m) {
      const float h = __ldg(coefficients + int64_t(m) * p.frame + k);
      const Sample<W> x =
          stream_sample<W>(in, hist, (t - p.ntaps + 1 + m) * p.frame + k, nsamples, hsamples);
#pragma unroll
      for (int v = 0; v < W; ++v) acc.v[v] = fmaf(h, x.v[v], acc.v[v]);
    }
    store_fir<W, Complex>(fir, p, pair, t, k, acc);
  }
}

using FirKernel = void (*)(const float*, const float*, const float*, float*, PfbFirParams, int,
                           int64_t);

template <int W, bool Complex>
FirKernel fir_kernel_for(int ntaps) {
  switch (ntaps) {
    case 4: return pfb_fir_ring<W, Complex, 4>;
    case 8: return pfb_fir_ring<W, Complex, 8>;
    case 12: return pfb_fir_ring<W, Complex, 12>;
    case 16: return pfb_fir_ring<W, Complex, 16>;
    case 24: return pfb_fir_ring<W, Complex, 24>;
    case 32: return pfb_fir_ring<W, Complex, 32>;
    default: return pfb_fir_any<W, Complex>;
  }
}

__global__ void pfb_history(const float* __restrict__ input, const float* __restrict__ history,
                            float* __restrict__ next_history, int64_t pairs, int64_t nsamples,
                            int64_t hsamples, int values) {
  const int64_t per_pair = hsamples * values;
  const int64_t total = pairs * per_pair;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t pair = i / per_pair, rest = i % per_pair;
    const int64_t at = rest / values, v = rest % values;
    const int64_t source = nsamples - hsamples + at;  // time relative to the chunk's start
    next_history[i] = source >= 0 ? input[(pair * nsamples + source) * values + v]
                                  : history[(pair * hsamples + source + hsamples) * values + v];
  }
}

__device__ inline int fine_channel_bin(const PfbPostParams& p, int j) {
  const int half = p.nfine / 2;
  if (p.bin_mode == 0) return j;
  if (p.bin_mode == 1) return (j - half + p.nfine) % p.nfine;
  return ((half - j) % p.nfine + p.nfine) % p.nfine;
}

template <int NPOL>
__global__ void __launch_bounds__(kPostTile* kPostRows)
    pfb_post(const float2* __restrict__ spectra, const float2* __restrict__ factors,
             float2* __restrict__ out, PfbPostParams p, int jtiles) {
  __shared__ float2 tile[NPOL][kPostTile][kPostTile + 1];
  const int64_t pair = blockIdx.x / jtiles;
  const int j0 = int(blockIdx.x % jtiles) * kPostTile;
  const int64_t t0 = int64_t(blockIdx.y) * kPostTile;
  const int c = int(pair / p.nant), a = int(pair % p.nant);
  const int64_t nchan_out = int64_t(p.nchan_in) * p.nfine;
  const int j = j0 + threadIdx.x;
  if (j < p.nfine) {
    const int bin = fine_channel_bin(p, j);
    const int64_t chan = int64_t(c) * p.nfine + j;
    const float2 f = p.factor_rows == 0
                         ? make_float2(1.0f, 0.0f)
                         : factors[(p.factor_rows > 1 ? a : 0) * nchan_out + chan];
    for (int q = 0; q < NPOL; ++q)
      for (int tl = threadIdx.y; tl < kPostTile; tl += kPostRows) {
        const int64_t t = t0 + tl;
        if (t >= p.nframes) break;
        float2 v = spectra[((pair * NPOL + q) * p.nframes + t) * p.bins + bin];
        if (p.conjugate) v.y = -v.y;
        tile[q][tl][threadIdx.x] = make_float2(v.x * f.x - v.y * f.y, v.x * f.y + v.y * f.x);
      }
  }
  __syncthreads();
  const int tid = threadIdx.y * kPostTile + threadIdx.x;
  for (int e = tid; e < kPostTile * kPostTile * NPOL; e += kPostTile * kPostRows) {
    const int jl = e / (kPostTile * NPOL), rest = e % (kPostTile * NPOL);
    const int tl = rest / NPOL, q = rest % NPOL;
    const int jj = j0 + jl;
    const int64_t t = t0 + tl;
    if (jj < p.nfine && t < p.nframes)
      out[((int64_t(c) * p.nfine + jj) * p.nant + a) * p.nframes * NPOL + t * NPOL + q] =
          tile[q][tl][jl];
  }
}

}  // namespace

void launch_pfb_fir(const float* input, const float* history, const float* coefficients,
                    float* fir, const PfbFirParams& p, cudaStream_t stream) {
  const int kblocks = (p.frame + kFirThreads - 1) / kFirThreads;
  // Runs of frames: the whole chunk per thread when the streams alone fill the GPU, shorter
  // (never below ntaps frames, whose reads the ring repeats) when they do not.
  const int64_t threads = p.pairs * int64_t(kblocks) * kFirThreads;
  const int64_t most_runs = std::max<int64_t>(1, p.nframes / std::max(p.ntaps, 1));
  int64_t runs = std::clamp<int64_t>((kFirWantedThreads + threads - 1) / threads, 1, most_runs);
  runs = std::min<int64_t>(runs, 65535);
  const int64_t run = (p.nframes + runs - 1) / runs;
  const dim3 grid(unsigned(p.pairs * kblocks), unsigned((p.nframes + run - 1) / run));
  const int w = p.npol * (p.complex_input ? 2 : 1);
  FirKernel kernel = nullptr;
  if (p.complex_input)
    kernel = w == 4 ? fir_kernel_for<4, true>(p.ntaps) : fir_kernel_for<2, true>(p.ntaps);
  else
    kernel = w == 2 ? fir_kernel_for<2, false>(p.ntaps) : fir_kernel_for<1, false>(p.ntaps);
  kernel<<<grid, kFirThreads, 0, stream>>>(input, history, coefficients, fir, p, kblocks, run);
  RAPT_CUDA_CHECK_LAUNCH("pfb_fir");
}

void launch_pfb_history(const float* input, const float* history, float* next_history,
                        const PfbFirParams& p, cudaStream_t stream) {
  const int64_t hsamples = int64_t(p.ntaps - 1) * p.frame;
  const int values = p.npol * (p.complex_input ? 2 : 1);
  const int64_t total = p.pairs * hsamples * values;
  if (total == 0) return;
  const unsigned blocks = unsigned(std::min<int64_t>((total + kCopyThreads - 1) / kCopyThreads, 65535));
  pfb_history<<<blocks, kCopyThreads, 0, stream>>>(input, history, next_history, p.pairs,
                                                   p.nframes * p.frame, hsamples, values);
  RAPT_CUDA_CHECK_LAUNCH("pfb_history");
}

void launch_pfb_post(const float2* spectra, const float2* factors, float2* out,
                     const PfbPostParams& p, cudaStream_t stream) {
  const int jtiles = (p.nfine + kPostTile - 1) / kPostTile;
  const int64_t pairs = int64_t(p.nchan_in) * p.nant;
  const dim3 grid(unsigned(pairs * jtiles), unsigned((p.nframes + kPostTile - 1) / kPostTile));
  const dim3 block(kPostTile, kPostRows);
  if (p.npol == 2)
    pfb_post<2><<<grid, block, 0, stream>>>(spectra, factors, out, p, jtiles);
  else
    pfb_post<1><<<grid, block, 0, stream>>>(spectra, factors, out, p, jtiles);
  RAPT_CUDA_CHECK_LAUNCH("pfb_post");
}

}  // namespace rapt::gpu
