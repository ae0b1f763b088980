// The IDG engine's kernels (layouts in idg_kernels.hpp). The subgrid kernels follow digest 002
// §4: one thread block per subgrid; the gridder maps threads to pixels and stages the
// visibilities in shared memory, the degridder maps threads to visibilities and stages the
// pixels. Phases are taken relative to the subgrid centre in double (as the CPU engine does),
// so the per-pixel work is FP32 on small numbers: the phase in cycles is reduced to
// [-1/2, 1/2] before __sincosf, whose error is only bounded on [-pi, pi]. The gridder forms a
// pixel's phase per time step (at the subgrid's first channel, and its change per Hz), leaving
// one FMA per visibility; the degridder forms it per visibility and pixel (three FMAs).
// With evenly spaced channels (the usual case) the phase is linear in the channel number, and
// both kernels take a run's channels in pairs symmetric about its centre: with z = exp(2 pi i k
// step) for the pair k channels either side, the gridder's V+ z + V- conj(z) is
// Re(z) (V+ + V-) + i Im(z) (V+ - V-), the sum and difference formed once per pair when staged
// and shared by every pixel; the degridder mirrors it, accumulating Re(z) B and Im(z) B for a
// pixel's B = x conj(exp(i centre phase)). Each polarisation of a pair then costs 4 FMAs, not
// 8, and z rotates from pair to pair (4 instructions for all four polarisations); the phasor at
// the run's centre (one sine and cosine a pixel and run) joins the pair sums at the run's end.
#include <cstdint>

#include "../cuda/cuda_check.hpp"
#include "idg_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr int kGridderThreads = 256;
constexpr int kGridderBlocks = 2;       // per SM (a cap of 3 spills and runs slower)
constexpr int kPixelsPerThread = 4;     // gridder: accumulators held in registers per thread
constexpr int kVisibilityChunk = 128;   // gridder: visibilities staged per pass
constexpr int kDegridderThreads = 128;
constexpr int kDegridderBlocks = 3;     // per SM: up to 170 registers
constexpr int kVisPerThread = 8;        // degridder: visibilities per thread and pass
constexpr int kPairedDegridderThreads = 256;  // degridder of channel pairs:
constexpr int kPairedDegridderBlocks = 2;     //   threads on (time step, channel run)
constexpr int kChannelsPerThread = 8;         //   channels in a thread's run
constexpr int kGridderRun = 16;  // paired gridder: channels a run (its phasor rotates 7 times)
constexpr int kPixelChunk = 256;        // degridder: pixels staged per pass
constexpr int kElementwiseThreads = 256;
constexpr float kTwoPi = 6.28318530717958647f;

__device__ __forceinline__ float checker(int i) { return (i & 1) ? -1.0f : 1.0f; }

// exp(2 pi i cycles), accurate for |cycles| < 2^22. The reduction to [-1/2, 1/2] rounds by
// adding and subtracting 1.5 x 2^23 (two adds on the FMA pipe) rather than rintf, whose FRND
// shares the quarter-rate pipe with the sine and cosine.
__device__ __forceinline__ void phasor(float cycles, float& s, float& c) {
  const float shifted = __fadd_rn(cycles, 12582912.0f);
  cycles -= __fsub_rn(shifted, 12582912.0f);
  __sincosf(kTwoPi * cycles, &s, &c);
}

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
// a b + c, conj(a) b + c, a conj(b) + c.
__device__ __forceinline__ float2 cmadd(float2 a, float2 b, float2 c) {
  return make_float2(fmaf(a.x, b.x, fmaf(-a.y, b.y, c.x)), fmaf(a.x, b.y, fmaf(a.y, b.x, c.y)));
}
__device__ __forceinline__ float2 cjmadd(float2 a, float2 b, float2 c) {
  return make_float2(fmaf(a.x, b.x, fmaf(a.y, b.y, c.x)), fmaf(a.x, b.y, fmaf(-a.y, b.x, c.y)));
}
__device__ __forceinline__ float2 cmjadd(float2 a, float2 b, float2 c) {
  return make_float2(fmaf(a.x, b.x, fmaf(a.y, b.y, c.x)), fmaf(a.y, b.x, fmaf(-a.x, b.y, c.y)));
}

// The Jones matrix (xx, xy, yx, yy) at `m`: two 16-byte loads (each matrix starts on 32 bytes).
__device__ __forceinline__ void load_jones(const float2* m, float2 (&a)[4]) {
  const float4 lo = reinterpret_cast<const float4*>(m)[0];
  const float4 hi = reinterpret_cast<const float4*>(m)[1];
  a[0] = make_float2(lo.x, lo.y), a[1] = make_float2(lo.z, lo.w);
  a[2] = make_float2(hi.x, hi.y), a[3] = make_float2(hi.z, hi.w);
}

// P <- A1^H P A2, the gridder's A-terms (idg_aterm_grid in idg_aterms.hpp).
__device__ __forceinline__ void aterm_grid(const float2* a1, const float2* a2, float2 (&p)[4]) {
  float2 a[4], b[4];
  load_jones(a1, a);
  load_jones(a2, b);
  const float2 zero = make_float2(0.0f, 0.0f);
  // Q = A1^H P.
  const float2 q0 = cjmadd(a[0], p[0], cjmadd(a[2], p[2], zero));
  const float2 q1 = cjmadd(a[0], p[1], cjmadd(a[2], p[3], zero));
  const float2 q2 = cjmadd(a[1], p[0], cjmadd(a[3], p[2], zero));
  const float2 q3 = cjmadd(a[1], p[1], cjmadd(a[3], p[3], zero));
  // P = Q A2.
  p[0] = cmadd(q0, b[0], cmul(q1, b[2]));
  p[1] = cmadd(q0, b[1], cmul(q1, b[3]));
  p[2] = cmadd(q2, b[0], cmul(q3, b[2]));
  p[3] = cmadd(q2, b[1], cmul(q3, b[3]));
}

// P <- A1 P A2^H, the degridder's (idg_aterm_degrid).
__device__ __forceinline__ void aterm_degrid(const float2* a1, const float2* a2, float2 (&p)[4]) {
  float2 a[4], b[4];
  load_jones(a1, a);
  load_jones(a2, b);
  const float2 zero = make_float2(0.0f, 0.0f);
  // Q = A1 P.
  const float2 q0 = cmadd(a[0], p[0], cmul(a[1], p[2]));
  const float2 q1 = cmadd(a[0], p[1], cmul(a[1], p[3]));
  const float2 q2 = cmadd(a[2], p[0], cmul(a[3], p[2]));
  const float2 q3 = cmadd(a[2], p[1], cmul(a[3], p[3]));
  // P = Q A2^H.
  p[0] = cmjadd(q0, b[0], cmjadd(q1, b[1], zero));
  p[1] = cmjadd(q0, b[2], cmjadd(q1, b[3], zero));
  p[2] = cmjadd(q2, b[0], cmjadd(q3, b[1], zero));
  p[3] = cmjadd(q2, b[2], cmjadd(q3, b[3], zero));
}

// Per-visibility phase terms in cycles: phase = dx ai + dy aj + dw (n - 1), with ai, aj the
// pixel's offsets from the subgrid centre in subgrid widths.
__device__ __forceinline__ float4 visibility_terms(const IdgGpuGeometry& g, const IdgGpuSubgrid& s,
                                                   const double3* uvw, const double* freq, int k) {
  const int t = k / s.nr_channels, c = k - t * s.nr_channels;
  const double3 b = uvw[s.first_timestep + t];
  const double f = freq[s.first_channel + c];
  const double cx = s.x + g.subgrid_size / 2 - g.grid_size / 2;
  const double cy = s.y + g.subgrid_size / 2 - g.grid_size / 2;
  return make_float4(float(b.x * f * g.to_px - cx), float(-b.y * f * g.to_px - cy),
                     float(-(b.z * f / g.speed_of_light - s.w_centre)), 0.0f);
}

// Pixel q of a subgrid: its offsets (i - nb/2)/nb, (j - nb/2)/nb and n - 1.
__device__ __forceinline__ float3 pixel_terms(const IdgGpuGeometry& g, int q) {
  const int nb = g.subgrid_size, i = q % nb, j = q / nb;
  const float inv = 1.0f / float(nb);
  return make_float3(float(i - nb / 2) * inv, float(j - nb / 2) * inv, g.n_minus_1[q]);
}

// Per time step of a subgrid: the phase terms at its first channel (as visibility_terms) and
// their change per Hz, so that a pixel's phase at channel c is base + (f_c - f_0) slope, one
// FMA per visibility once base and slope are formed per time step (digest 002 §4's phase index
// and offset, kept relative to the subgrid's centre and first channel so FP32 holds them).
__device__ __forceinline__ void timestep_terms(const IdgGpuGeometry& g, const IdgGpuSubgrid& s,
                                               const double3* uvw, const double* freq, int t,
                                               float4& base, float4& slope) {
  const double3 b = uvw[s.first_timestep + t];
  const double f = freq[s.first_channel];
  const double cx = s.x + g.subgrid_size / 2 - g.grid_size / 2;
  const double cy = s.y + g.subgrid_size / 2 - g.grid_size / 2;
  base = make_float4(float(b.x * f * g.to_px - cx), float(-b.y * f * g.to_px - cy),
                     float(-(b.z * f / g.speed_of_light - s.w_centre)), 0.0f);
  slope = make_float4(float(b.x * g.to_px), float(-b.y * g.to_px),
                      float(-b.z / g.speed_of_light), 0.0f);
}

// The gridder's epilogue: A-terms, taper and the subgrid FFT's centring applied to a thread's
// accumulated pixels, written to the subgrid (the centring fused here rather than in a pass of
// its own).
template <int P, bool ATerms, int Threads, int Px>
__device__ __forceinline__ void store_subgrid_pixels(const IdgGpuGeometry& g,
                                                     const IdgGpuSubgrid& s, int base,
                                                     float2 (&acc)[Px][P], float2* out) {
  const int nb = g.subgrid_size, plane = nb * nb;
#pragma unroll
  for (int k = 0; k < Px; ++k) {
    const int q = base + threadIdx.x + k * Threads;
    if (q >= plane) continue;
    if constexpr (ATerms)
      aterm_grid(g.aterms + (size_t(s.aterm1) * plane + q) * 4,
                 g.aterms + (size_t(s.aterm2) * plane + q) * 4, acc[k]);
    const float scale = g.taper[q] * checker(q % nb + q / nb);
#pragma unroll
    for (int p = 0; p < P; ++p)
      out[size_t(p) * plane + q] = make_float2(acc[k][p].x * scale, acc[k][p].y * scale);
  }
}

// ATerms: a kernel of its own (P = 4 only), so that the one without keeps its registers and
// code; the A-terms touch only the epilogue. This one takes a sine and cosine per pixel and
// visibility (channels unevenly spaced); paired_gridder_kernel is for even ones.
template <int P, bool ATerms = false, int Threads = kGridderThreads, int Px = kPixelsPerThread,
          int B = kGridderBlocks>
__global__ void __launch_bounds__(Threads, B)
    gridder_kernel(IdgGpuGeometry g, const IdgGpuSubgrid* subgrids, const double3* uvw,
                   const double* freq, const float2* values, float2* pixels) {
  static_assert(!ATerms || P == 4, "A-terms need all four polarisations");
  __shared__ float4 base_s[kVisibilityChunk], slope_s[kVisibilityChunk];
  __shared__ float dfreq[kVisibilityChunk];
  __shared__ __align__(16) float2 vis[kVisibilityChunk][P];
  const IdgGpuSubgrid s = subgrids[blockIdx.x];
  const int nb = g.subgrid_size, plane = nb * nb, nchan = s.nr_channels;
  float2* out = pixels + size_t(blockIdx.x) * P * plane;
  for (int base = 0; base < plane; base += Threads * Px) {
    float3 px[Px];
    float2 acc[Px][P];
#pragma unroll
    for (int k = 0; k < Px; ++k) {
      const int q = base + threadIdx.x + k * Threads;
      px[k] = q < plane ? pixel_terms(g, q) : make_float3(0.0f, 0.0f, 0.0f);
#pragma unroll
      for (int p = 0; p < P; ++p) acc[k][p] = make_float2(0.0f, 0.0f);
    }
    // Chunks of cn channels by tn time steps, cn x tn <= kVisibilityChunk.
    for (int c0 = 0; c0 < nchan; c0 += kVisibilityChunk) {
      const int cn = min(kVisibilityChunk, nchan - c0), steps = kVisibilityChunk / cn;
      for (int t0 = 0; t0 < s.nr_timesteps; t0 += steps) {
        const int tn = min(steps, s.nr_timesteps - t0);
        __syncthreads();  // the previous chunk is no longer read
        for (int v = threadIdx.x; v < tn * cn; v += Threads) {
          const int t = v / cn, c = v - t * cn;
          const size_t k = size_t(s.vis_offset) + size_t(t0 + t) * nchan + c0 + c;
          if (P == 4) {
            const float4* src = reinterpret_cast<const float4*>(values + k * P);
            float4* dst = reinterpret_cast<float4*>(&vis[v][0]);
            dst[0] = src[0];
            dst[1] = src[1];
          } else {
#pragma unroll
            for (int p = 0; p < P; ++p) vis[v][p] = values[k * P + p];
          }
        }
        for (int t = threadIdx.x; t < tn; t += Threads)
          timestep_terms(g, s, uvw, freq, t0 + t, base_s[t], slope_s[t]);
        for (int c = threadIdx.x; c < cn; c += Threads)
          dfreq[c] = float(freq[s.first_channel + c0 + c] - freq[s.first_channel]);
        __syncthreads();
        for (int t = 0; t < tn; ++t) {
          const float4 b4 = base_s[t], s4 = slope_s[t];
          float ph0[Px], dph[Px];
#pragma unroll
          for (int k = 0; k < Px; ++k) {
            ph0[k] = fmaf(b4.x, px[k].x, fmaf(b4.y, px[k].y, b4.z * px[k].z));
            dph[k] = fmaf(s4.x, px[k].x, fmaf(s4.y, px[k].y, s4.z * px[k].z));
          }
          const float2* row = &vis[t * cn][0];
#pragma unroll 2
          for (int c = 0; c < cn; ++c) {
            const float d = dfreq[c];
            float2 val[P];
            if (P == 4) {
              const float4 a = reinterpret_cast<const float4*>(row + c * P)[0];
              const float4 b = reinterpret_cast<const float4*>(row + c * P)[1];
              val[0] = make_float2(a.x, a.y), val[1 % P] = make_float2(a.z, a.w);
              val[2 % P] = make_float2(b.x, b.y), val[3 % P] = make_float2(b.z, b.w);
            } else {
#pragma unroll
              for (int p = 0; p < P; ++p) val[p] = row[c * P + p];
            }
#pragma unroll
            for (int k = 0; k < Px; ++k) {
              float sn, cs;
              phasor(fmaf(d, dph[k], ph0[k]), sn, cs);
#pragma unroll
              for (int p = 0; p < P; ++p) {
                acc[k][p].x = fmaf(val[p].x, cs, fmaf(-val[p].y, sn, acc[k][p].x));
                acc[k][p].y = fmaf(val[p].x, sn, fmaf(val[p].y, cs, acc[k][p].y));
              }
            }
          }
        }
      }
    }
    store_subgrid_pixels<P, ATerms, Threads, Px>(g, s, base, acc, out);
  }
}

// The gridder for evenly spaced channels. Each time step's channels are taken in runs of up to
// kGridderRun, and a run's channels in pairs about its centre (the file's head): the staging
// writes each pair's sum and difference, and a pixel's sum over a run is
// sum_k Re(z_k) S_k + i Im(z_k) D_k with z_k = exp(2 pi i k step phase), times the phasor of
// the run's centre. z starts at the outermost pair and rotates inwards by exp(-2 pi i step
// phase); an odd run's middle channel is a pair of its own with k = 0 and D = 0.
template <int P, bool ATerms = false, int Threads = kGridderThreads, int Px = kPixelsPerThread,
          int B = kGridderBlocks>
__global__ void __launch_bounds__(Threads, B)
    paired_gridder_kernel(IdgGpuGeometry g, const IdgGpuSubgrid* subgrids, const double3* uvw,
                          const double* freq, const float2* values, float2* pixels) {
  static_assert(!ATerms || P == 4, "A-terms need all four polarisations");
  static_assert(kVisibilityChunk % kGridderRun == 0, "runs must not straddle staged chunks");
  constexpr int kRunPairs = kGridderRun / 2;
  __shared__ float4 base_s[kVisibilityChunk], slope_s[kVisibilityChunk];
  // [time step x pairs of its chunk + pair]: the pair's sums (P), then its differences (P).
  __shared__ __align__(16) float2 pairs[kVisibilityChunk][2 * P];
  const IdgGpuSubgrid s = subgrids[blockIdx.x];
  const int nb = g.subgrid_size, plane = nb * nb, nchan = s.nr_channels;
  const float df = nchan > 1 ? float(freq[s.first_channel + 1] - freq[s.first_channel]) : 0.0f;
  float2* out = pixels + size_t(blockIdx.x) * P * plane;
  for (int base = 0; base < plane; base += Threads * Px) {
    float3 px[Px];
    float2 acc[Px][P];
#pragma unroll
    for (int k = 0; k < Px; ++k) {
      const int q = base + threadIdx.x + k * Threads;
      px[k] = q < plane ? pixel_terms(g, q) : make_float3(0.0f, 0.0f, 0.0f);
#pragma unroll
      for (int p = 0; p < P; ++p) acc[k][p] = make_float2(0.0f, 0.0f);
    }
    // Chunks of cn channels (np pairs) by tn time steps, np x tn <= kVisibilityChunk.
    for (int c0 = 0; c0 < nchan; c0 += kVisibilityChunk) {
      const int cn = min(kVisibilityChunk, nchan - c0), np = (cn + 1) / 2;
      const int steps = kVisibilityChunk / cn;
      for (int t0 = 0; t0 < s.nr_timesteps; t0 += steps) {
        const int tn = min(steps, s.nr_timesteps - t0);
        __syncthreads();  // the previous chunk is no longer read
        for (int v = threadIdx.x; v < tn * np; v += Threads) {
          const int t = v / np, j = v - t * np, run = j / kRunPairs * kGridderRun;
          const int n = min(kGridderRun, cn - run), lo = run + j % kRunPairs, hi = run + n - 1 - j % kRunPairs;
          const float2* row = values + (size_t(s.vis_offset) + size_t(t0 + t) * nchan + c0) * P;
#pragma unroll
          for (int p = 0; p < P; ++p) {
            const float2 a = row[hi * P + p], b = row[lo * P + p];
            const bool middle = hi == lo;
            pairs[v][p] = middle ? a : make_float2(a.x + b.x, a.y + b.y);
            pairs[v][P + p] = middle ? make_float2(0.0f, 0.0f) : make_float2(a.x - b.x, a.y - b.y);
          }
        }
        for (int t = threadIdx.x; t < tn; t += Threads)
          timestep_terms(g, s, uvw, freq, t0 + t, base_s[t], slope_s[t]);
        __syncthreads();
        for (int t = 0; t < tn; ++t) {
          const float4 b4 = base_s[t], s4 = slope_s[t];
          float ph0[Px], dph[Px], step_re[Px], step_im[Px];
#pragma unroll
          for (int k = 0; k < Px; ++k) {
            ph0[k] = fmaf(b4.x, px[k].x, fmaf(b4.y, px[k].y, b4.z * px[k].z));
            dph[k] = df * fmaf(s4.x, px[k].x, fmaf(s4.y, px[k].y, s4.z * px[k].z));
            phasor(dph[k], step_im[k], step_re[k]);
          }
          for (int run = 0; run < cn; run += kGridderRun) {
            const int n = min(kGridderRun, cn - run);
            const float half = 0.5f * float(n - 1);  // channels from the run's ends to its centre
            float zr[Px], zi[Px];
            float2 h[Px][P];
#pragma unroll
            for (int k = 0; k < Px; ++k) {
              phasor(half * dph[k], zi[k], zr[k]);
#pragma unroll
              for (int p = 0; p < P; ++p) h[k][p] = make_float2(0.0f, 0.0f);
            }
            const float2* pair = &pairs[t * np + run / 2][0];
#pragma unroll
            for (int j = 0; j < kRunPairs; ++j) {
              if (2 * j >= n) break;
              float2 sum[P], diff[P];
              if (P == 4) {
                const float4* src = reinterpret_cast<const float4*>(pair + j * 2 * P);
                const float4 a = src[0], b = src[1], c = src[2], d = src[3];
                sum[0] = make_float2(a.x, a.y), sum[1 % P] = make_float2(a.z, a.w);
                sum[2 % P] = make_float2(b.x, b.y), sum[3 % P] = make_float2(b.z, b.w);
                diff[0] = make_float2(c.x, c.y), diff[1 % P] = make_float2(c.z, c.w);
                diff[2 % P] = make_float2(d.x, d.y), diff[3 % P] = make_float2(d.z, d.w);
              } else {
#pragma unroll
                for (int p = 0; p < P; ++p) sum[p] = pair[j * 2 * P + p], diff[p] = pair[j * 2 * P + P + p];
              }
#pragma unroll
              for (int k = 0; k < Px; ++k) {
#pragma unroll
                for (int p = 0; p < P; ++p) {
                  h[k][p].x = fmaf(zr[k], sum[p].x, fmaf(-zi[k], diff[p].y, h[k][p].x));
                  h[k][p].y = fmaf(zr[k], sum[p].y, fmaf(zi[k], diff[p].x, h[k][p].y));
                }
                const float next_re = fmaf(zr[k], step_re[k], zi[k] * step_im[k]);
                zi[k] = fmaf(zi[k], step_re[k], -zr[k] * step_im[k]);
                zr[k] = next_re;
              }
            }
            // The run's centre: (c0 + run + half) channels from the subgrid's first.
            const float centre = float(c0 + run) + half;
#pragma unroll
            for (int k = 0; k < Px; ++k) {
              float sn, cs;
              phasor(fmaf(centre, dph[k], ph0[k]), sn, cs);
              const float2 e = make_float2(cs, sn);
#pragma unroll
              for (int p = 0; p < P; ++p) acc[k][p] = cmadd(h[k][p], e, acc[k][p]);
            }
          }
        }
      }
    }
    store_subgrid_pixels<P, ATerms, Threads, Px>(g, s, base, acc, out);
  }
}

// The degridders' staging of pixels [chunk, chunk + count) of a subgrid into shared memory,
// by `threads` threads: their offsets and n - 1, and their values with the backward FFT's
// centring and the taper applied once per staged pixel (and with A-terms P <- A1 P A2^H).
template <int P, bool ATerms>
__device__ __forceinline__ void stage_pixels(const IdgGpuGeometry& g, const IdgGpuSubgrid& s,
                                             const float2* in, int chunk, int count, int threads,
                                             float4* coords, float2 (*pix)[P]) {
  const int nb = g.subgrid_size, plane = nb * nb;
  for (int q = threadIdx.x; q < count; q += threads) {
    const int qq = chunk + q;
    const float3 c = pixel_terms(g, qq);
    coords[q] = make_float4(c.x, c.y, c.z, 0.0f);
    const float scale = g.taper[qq] * checker(qq % nb + qq / nb);
    if constexpr (ATerms) {
      float2 x[4];
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        const float2 v = in[size_t(p) * plane + qq];
        x[p] = make_float2(v.x * scale, v.y * scale);
      }
      aterm_degrid(g.aterms + (size_t(s.aterm1) * plane + qq) * 4,
                   g.aterms + (size_t(s.aterm2) * plane + qq) * 4, x);
      float4* dst = reinterpret_cast<float4*>(&pix[q][0]);
      dst[0] = make_float4(x[0].x, x[0].y, x[1].x, x[1].y);
      dst[1] = make_float4(x[2].x, x[2].y, x[3].x, x[3].y);
    } else {
#pragma unroll
      for (int p = 0; p < P; ++p) {
        const float2 x = in[size_t(p) * plane + qq];
        pix[q][p] = make_float2(x.x * scale, x.y * scale);
      }
    }
  }
}

// ATerms as the gridder's: they touch only the staging of the pixels.
template <int P, bool ATerms = false, int Vpt = kVisPerThread, int B = kDegridderBlocks>
__global__ void __launch_bounds__(kDegridderThreads, B)
    degridder_kernel(IdgGpuGeometry g, const IdgGpuSubgrid* subgrids, const double3* uvw,
                     const double* freq, const float2* pixels, float2* predictions) {
  static_assert(!ATerms || P == 4, "A-terms need all four polarisations");
  __shared__ float4 coords[kPixelChunk];
  __shared__ __align__(16) float2 pix[kPixelChunk][P];
  const IdgGpuSubgrid s = subgrids[blockIdx.x];
  const int nb = g.subgrid_size, plane = nb * nb, nvis = s.nr_timesteps * s.nr_channels;
  const float2* in = pixels + size_t(blockIdx.x) * P * plane;
  for (int vbase = 0; vbase < nvis; vbase += kDegridderThreads * Vpt) {
    float4 t[Vpt];
    float2 acc[Vpt][P];
#pragma unroll
    for (int r = 0; r < Vpt; ++r) {
      const int k = vbase + threadIdx.x + r * kDegridderThreads;
      t[r] = k < nvis ? visibility_terms(g, s, uvw, freq, k) : make_float4(0, 0, 0, 0);
#pragma unroll
      for (int p = 0; p < P; ++p) acc[r][p] = make_float2(0.0f, 0.0f);
    }
    for (int chunk = 0; chunk < plane; chunk += kPixelChunk) {
      const int count = min(kPixelChunk, plane - chunk);
      __syncthreads();
      stage_pixels<P, ATerms>(g, s, in, chunk, count, kDegridderThreads, coords, pix);
      __syncthreads();
      for (int q = 0; q < count; ++q) {
        const float4 c = coords[q];
        float2 x[P];
#pragma unroll
        for (int p = 0; p < P; ++p) x[p] = pix[q][p];
#pragma unroll
        for (int r = 0; r < Vpt; ++r) {
          float sn, cs;
          phasor(fmaf(t[r].x, c.x, fmaf(t[r].y, c.y, t[r].z * c.z)), sn, cs);
#pragma unroll
          for (int p = 0; p < P; ++p) {  // x conj(phasor)
            acc[r][p].x = fmaf(x[p].x, cs, fmaf(x[p].y, sn, acc[r][p].x));
            acc[r][p].y = fmaf(x[p].y, cs, fmaf(-x[p].x, sn, acc[r][p].y));
          }
        }
      }
    }
#pragma unroll
    for (int r = 0; r < Vpt; ++r) {
      const int k = vbase + threadIdx.x + r * kDegridderThreads;
      if (k >= nvis) continue;
#pragma unroll
      for (int p = 0; p < P; ++p) predictions[size_t(s.vis_offset + k) * P + p] = acc[r][p];
    }
  }
}

// The degridder for evenly spaced channels: threads on (time step, run of up to Cpt channels),
// the run's channels in pairs about its centre (the file's head). Per staged pixel a thread
// takes three sines and cosines (the phasor at the run's centre, the outermost pair's offset
// from it and the step between pairs) and forms B = x conj(centre phasor); each pair then
// accumulates Re(w) B and Im(w) B with w = exp(-2 pi i k step phase), from which the pair's
// visibilities are V+ = R + i I and V- = R - i I. The phase terms are formed in double at the
// run's centre frequency, as visibility_terms does per visibility.
template <int P, bool ATerms = false, int Cpt = kChannelsPerThread,
          int Threads = kPairedDegridderThreads, int B = kPairedDegridderBlocks>
__global__ void __launch_bounds__(Threads, B)
    paired_degridder_kernel(IdgGpuGeometry g, const IdgGpuSubgrid* subgrids, const double3* uvw,
                            const double* freq, const float2* pixels, float2* predictions) {
  static_assert(!ATerms || P == 4, "A-terms need all four polarisations");
  static_assert(Cpt % 2 == 0, "a run holds whole pairs");
  constexpr int kPairs = Cpt / 2;
  __shared__ float4 coords[kPixelChunk];
  __shared__ __align__(16) float2 pix[kPixelChunk][P];
  const IdgGpuSubgrid s = subgrids[blockIdx.x];
  const int nb = g.subgrid_size, plane = nb * nb, nchan = s.nr_channels;
  const int runs = (nchan + Cpt - 1) / Cpt, tasks = s.nr_timesteps * runs;
  const float2* in = pixels + size_t(blockIdx.x) * P * plane;
  const double cx = s.x + nb / 2 - g.grid_size / 2, cy = s.y + nb / 2 - g.grid_size / 2;
  const double df = nchan > 1 ? freq[s.first_channel + 1] - freq[s.first_channel] : 0.0;
  for (int first_task = 0; first_task < tasks; first_task += Threads) {
    const int task = first_task + threadIdx.x;
    const bool mine = task < tasks;
    const int t = mine ? task / runs : 0, c0 = mine ? (task % runs) * Cpt : 0;
    const int n = mine ? min(Cpt, nchan - c0) : Cpt;
    const float half = 0.5f * float(n - 1);  // channels from the run's ends to its centre
    float4 base = make_float4(0, 0, 0, 0), step = make_float4(0, 0, 0, 0);
    if (mine) {
      const double3 b = uvw[s.first_timestep + t];
      const double f = freq[s.first_channel + c0] + double(half) * df;
      base = make_float4(float(b.x * f * g.to_px - cx), float(-b.y * f * g.to_px - cy),
                         float(-(b.z * f / g.speed_of_light - s.w_centre)), 0.0f);
      step = make_float4(float(b.x * df * g.to_px), float(-b.y * df * g.to_px),
                         float(-b.z * df / g.speed_of_light), 0.0f);
    }
    float2 re[kPairs][P], im[kPairs][P];
#pragma unroll
    for (int j = 0; j < kPairs; ++j)
#pragma unroll
      for (int p = 0; p < P; ++p) re[j][p] = im[j][p] = make_float2(0.0f, 0.0f);
    for (int chunk = 0; chunk < plane; chunk += kPixelChunk) {
      const int count = min(kPixelChunk, plane - chunk);
      __syncthreads();
      stage_pixels<P, ATerms>(g, s, in, chunk, count, Threads, coords, pix);
      __syncthreads();
      for (int q = 0; q < count; ++q) {
        const float4 c = coords[q];
        const float dph = fmaf(step.x, c.x, fmaf(step.y, c.y, step.z * c.z));
        float sn, cs, wi, wr, step_sn, step_cs;
        phasor(fmaf(base.x, c.x, fmaf(base.y, c.y, base.z * c.z)), sn, cs);
        phasor(-half * dph, wi, wr);
        phasor(dph, step_sn, step_cs);
        float2 x[P];
#pragma unroll
        for (int p = 0; p < P; ++p) {  // x conj(centre phasor)
          const float2 v = pix[q][p];
          x[p] = make_float2(fmaf(v.x, cs, v.y * sn), fmaf(v.y, cs, -v.x * sn));
        }
#pragma unroll
        for (int j = 0; j < kPairs; ++j) {
#pragma unroll
          for (int p = 0; p < P; ++p) {
            re[j][p].x = fmaf(wr, x[p].x, re[j][p].x);
            re[j][p].y = fmaf(wr, x[p].y, re[j][p].y);
            im[j][p].x = fmaf(wi, x[p].x, im[j][p].x);
            im[j][p].y = fmaf(wi, x[p].y, im[j][p].y);
          }
          const float next_wr = fmaf(wr, step_cs, -wi * step_sn);
          wi = fmaf(wr, step_sn, wi * step_cs);
          wr = next_wr;
        }
      }
    }
    if (!mine) continue;
#pragma unroll
    for (int j = 0; j < kPairs; ++j) {
      if (2 * j >= n) break;
      const int hi = c0 + n - 1 - j, lo = c0 + j;
      float2* out_hi = predictions + size_t(s.vis_offset + t * nchan + hi) * P;
      float2* out_lo = predictions + size_t(s.vis_offset + t * nchan + lo) * P;
#pragma unroll
      for (int p = 0; p < P; ++p) {
        const float2 r = re[j][p], i = im[j][p];
        if (hi == lo) {
          out_hi[p] = r;  // the middle channel: w = 1
        } else {
          out_hi[p] = make_float2(r.x - i.y, r.y + i.x);
          out_lo[p] = make_float2(r.x + i.y, r.y - i.x);
        }
      }
    }
  }
}

__global__ void adder_kernel(IdgGpuGeometry g, const IdgGpuSubgrid* subgrids, const float2* uv,
                             float2* grid) {
  const IdgGpuSubgrid s = subgrids[blockIdx.x];
  const int nb = g.subgrid_size, plane = nb * nb, n = g.grid_size;
  const float scale = 1.0f / float(plane);
  const float2* in = uv + size_t(blockIdx.x) * g.npol * plane;
  for (int e = threadIdx.x; e < g.npol * plane; e += blockDim.x) {
    const int p = e / plane, q = e - p * plane, a = q % nb, b = q / nb;
    const float f = scale * checker(a + b);
    float2* cell = grid + (size_t(p) * n + s.y + b) * n + s.x + a;
    atomicAdd(&cell->x, in[e].x * f);
    atomicAdd(&cell->y, in[e].y * f);
  }
}

__global__ void splitter_kernel(IdgGpuGeometry g, const IdgGpuSubgrid* subgrids,
                                const float2* grid, float2* uv) {
  const IdgGpuSubgrid s = subgrids[blockIdx.x];
  const int nb = g.subgrid_size, plane = nb * nb, n = g.grid_size;
  const float scale = 1.0f / float(plane);
  float2* out = uv + size_t(blockIdx.x) * g.npol * plane;
  for (int e = threadIdx.x; e < g.npol * plane; e += blockDim.x) {
    const int p = e / plane, q = e - p * plane, a = q % nb, b = q / nb;
    const float f = scale * checker(a + b);
    const float2 x = grid[(size_t(p) * n + s.y + b) * n + s.x + a];
    out[e] = make_float2(x.x * f, x.y * f);
  }
}

__global__ void checker_kernel(int n, size_t total, float2* grid) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(gridDim.x) * blockDim.x) {
    const size_t xy = e % (size_t(n) * n);
    const float f = checker(int(xy % n) + int(xy / n));
    grid[e] = make_float2(grid[e].x * f, grid[e].y * f);
  }
}

// exp(sign 2 pi i w_z (n - 1)) at image pixel (x, y), in double as the CPU engine has it.
__device__ float2 w_phasor(int n, double cell, double w_centre, int x, int y, double sign) {
  if (w_centre == 0) return make_float2(1.0f, 0.0f);
  const double l = -(x - n / 2) * cell, m = (y - n / 2) * cell;
  const double r2 = fmin(l * l + m * m, 1.0);
  const double n_minus_1 = -r2 / (1.0 + sqrt(1.0 - r2));
  double s, c;
  sincos(sign * 2 * 3.14159265358979323846 * w_centre * n_minus_1, &s, &c);
  return make_float2(float(c), float(s));
}

__device__ __forceinline__ float inverse_taper(const double* taper, int x, int y) {
  const double t = taper[x] * taper[y];
  return t > 1e-6 ? float(1.0 / t) : 0.0f;
}

__global__ void accumulate_layer_kernel(int npol, int n, double cell, double w_centre,
                                        const float2* grid, float2* image) {
  const size_t plane = size_t(n) * n;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < plane;
       e += size_t(gridDim.x) * blockDim.x) {
    const int x = int(e % n), y = int(e / n);
    float2 f = w_phasor(n, cell, w_centre, x, y, -1.0);
    const float c = checker(x + y);
    f = make_float2(f.x * c, f.y * c);
    for (int p = 0; p < npol; ++p) {
      const float2 v = cmul(grid[p * plane + e], f);
      image[p * plane + e].x += v.x;
      image[p * plane + e].y += v.y;
    }
  }
}

__global__ void model_to_layer_kernel(int npol, int n, double cell, double w_centre,
                                      const double* taper, const float2* model, float2* grid) {
  const size_t plane = size_t(n) * n;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < plane;
       e += size_t(gridDim.x) * blockDim.x) {
    const int x = int(e % n), y = int(e / n);
    const float2 w = w_phasor(n, cell, w_centre, x, y, +1.0);
    const float f = inverse_taper(taper, x, y) * checker(x + y);
    for (int p = 0; p < npol; ++p) {
      const float2 m = model[p * plane + e];
      grid[p * plane + e] = cmul(make_float2(m.x * f, m.y * f), w);
    }
  }
}

__global__ void divide_taper_kernel(int npol, int n, const double* taper, float2* image) {
  const size_t plane = size_t(n) * n;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < plane;
       e += size_t(gridDim.x) * blockDim.x) {
    const float f = inverse_taper(taper, int(e % n), int(e / n));
    for (int p = 0; p < npol; ++p)
      image[p * plane + e] = make_float2(image[p * plane + e].x * f, image[p * plane + e].y * f);
  }
}

__global__ void subtract_weighted_kernel(const float* weights, const float2* predictions,
                                         float2* values, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    const float w = weights[i];
    const float2 p = predictions[i];
    values[i] = make_float2(fmaf(-w, p.x, values[i].x), fmaf(-w, p.y, values[i].y));
  }
}

__global__ void scatter_points_kernel(const IdgGpuPoint* points, size_t count, float2* image) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    image[points[i].index] = points[i].value;
}

__global__ void real_part_kernel(const float2* image, size_t count, float scale, float* out) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = __fmul_rn(image[i].x, scale);
}

__global__ void weights_as_values_kernel(const float* weights, float2* out, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = make_float2(weights[i], 0.0f);
}

using SubgridKernel = void (*)(IdgGpuGeometry, const IdgGpuSubgrid*, const double3*,
                               const double*, const float2*, float2*);

// The kernels for the call's channels (paired where evenly spaced), polarisations and A-terms.
SubgridKernel gridder_for(const IdgGpuGeometry& g) {
  if (g.even_channels) {
    if (g.npol == 1) return paired_gridder_kernel<1>;
    if (g.npol == 2) return paired_gridder_kernel<2>;
    return g.aterms ? paired_gridder_kernel<4, true> : paired_gridder_kernel<4>;
  }
  if (g.npol == 1) return gridder_kernel<1>;
  if (g.npol == 2) return gridder_kernel<2>;
  return g.aterms ? gridder_kernel<4, true> : gridder_kernel<4>;
}

SubgridKernel degridder_for(const IdgGpuGeometry& g) {
  if (g.even_channels) {
    if (g.npol == 1) return paired_degridder_kernel<1>;
    if (g.npol == 2) return paired_degridder_kernel<2>;
    return g.aterms ? paired_degridder_kernel<4, true> : paired_degridder_kernel<4>;
  }
  if (g.npol == 1) return degridder_kernel<1>;
  if (g.npol == 2) return degridder_kernel<2>;
  return g.aterms ? degridder_kernel<4, true> : degridder_kernel<4>;
}

unsigned elementwise_blocks(size_t count) {
  // Grid-stride loops: enough blocks to fill any current GPU, no more.
  const size_t blocks = (count + kElementwiseThreads - 1) / kElementwiseThreads;
  return unsigned(blocks < 8192 ? (blocks ? blocks : 1) : 8192);
}

}  // namespace

void launch_idg_gridder(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                        const double3* uvw, const double* freq, const float2* values,
                        float2* pixels, cudaStream_t stream) {
  if (count == 0) return;
  gridder_for(g)<<<count, kGridderThreads, 0, stream>>>(g, subgrids, uvw, freq, values, pixels);
  RAPT_CUDA_CHECK_LAUNCH("idg gridder_kernel");
}

void launch_idg_degridder(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                          const double3* uvw, const double* freq, const float2* pixels,
                          float2* predictions, cudaStream_t stream) {
  if (count == 0) return;
  const int threads = g.even_channels ? kPairedDegridderThreads : kDegridderThreads;
  degridder_for(g)<<<count, threads, 0, stream>>>(g, subgrids, uvw, freq, pixels, predictions);
  RAPT_CUDA_CHECK_LAUNCH("idg degridder_kernel");
}

void launch_idg_adder(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                      const float2* uv, float2* grid, cudaStream_t stream) {
  if (count == 0) return;
  adder_kernel<<<count, kElementwiseThreads, 0, stream>>>(g, subgrids, uv, grid);
  RAPT_CUDA_CHECK_LAUNCH("idg adder_kernel");
}

void launch_idg_splitter(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                         const float2* grid, float2* uv, cudaStream_t stream) {
  if (count == 0) return;
  splitter_kernel<<<count, kElementwiseThreads, 0, stream>>>(g, subgrids, grid, uv);
  RAPT_CUDA_CHECK_LAUNCH("idg splitter_kernel");
}

void launch_idg_checker(const IdgGpuGeometry& g, float2* grid, cudaStream_t stream) {
  const size_t total = size_t(g.npol) * g.grid_size * g.grid_size;
  checker_kernel<<<elementwise_blocks(total), kElementwiseThreads, 0, stream>>>(g.grid_size, total,
                                                                                grid);
  RAPT_CUDA_CHECK_LAUNCH("idg checker_kernel");
}

void launch_idg_accumulate_layer(const IdgGpuGeometry& g, double image_size, double w_centre,
                                 const float2* grid, float2* image, cudaStream_t stream) {
  const size_t plane = size_t(g.grid_size) * g.grid_size;
  accumulate_layer_kernel<<<elementwise_blocks(plane), kElementwiseThreads, 0, stream>>>(
      g.npol, g.grid_size, image_size / g.grid_size, w_centre, grid, image);
  RAPT_CUDA_CHECK_LAUNCH("idg accumulate_layer_kernel");
}

void launch_idg_model_to_layer(const IdgGpuGeometry& g, double image_size, double w_centre,
                               const double* image_taper, const float2* model, float2* grid,
                               cudaStream_t stream) {
  const size_t plane = size_t(g.grid_size) * g.grid_size;
  model_to_layer_kernel<<<elementwise_blocks(plane), kElementwiseThreads, 0, stream>>>(
      g.npol, g.grid_size, image_size / g.grid_size, w_centre, image_taper, model, grid);
  RAPT_CUDA_CHECK_LAUNCH("idg model_to_layer_kernel");
}

void launch_idg_divide_taper(const IdgGpuGeometry& g, const double* image_taper, float2* image,
                             cudaStream_t stream) {
  const size_t plane = size_t(g.grid_size) * g.grid_size;
  divide_taper_kernel<<<elementwise_blocks(plane), kElementwiseThreads, 0, stream>>>(
      g.npol, g.grid_size, image_taper, image);
  RAPT_CUDA_CHECK_LAUNCH("idg divide_taper_kernel");
}

void launch_idg_subtract_weighted(const float* weights, const float2* predictions, float2* values,
                                  size_t count, cudaStream_t stream) {
  if (count == 0) return;
  subtract_weighted_kernel<<<elementwise_blocks(count), kElementwiseThreads, 0, stream>>>(
      weights, predictions, values, count);
  RAPT_CUDA_CHECK_LAUNCH("idg subtract_weighted_kernel");
}

void launch_idg_scatter_points(const IdgGpuPoint* points, size_t count, float2* image,
                               cudaStream_t stream) {
  if (count == 0) return;
  scatter_points_kernel<<<elementwise_blocks(count), kElementwiseThreads, 0, stream>>>(
      points, count, image);
  RAPT_CUDA_CHECK_LAUNCH("idg scatter_points_kernel");
}

void launch_idg_real_part(const float2* image, size_t count, float scale, float* out,
                          cudaStream_t stream) {
  if (count == 0) return;
  real_part_kernel<<<elementwise_blocks(count), kElementwiseThreads, 0, stream>>>(image, count,
                                                                                scale, out);
  RAPT_CUDA_CHECK_LAUNCH("idg real_part_kernel");
}

void launch_idg_weights_as_values(const float* weights, float2* out, size_t count,
                                  cudaStream_t stream) {
  if (count == 0) return;
  weights_as_values_kernel<<<elementwise_blocks(count), kElementwiseThreads, 0, stream>>>(
      weights, out, count);
  RAPT_CUDA_CHECK_LAUNCH("idg weights_as_values_kernel");
}

}  // namespace rapt::gpu
