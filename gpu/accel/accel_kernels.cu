// Acceleration-search kernels: segment loading with block-median normalisation, the fused
// correlation of segment spectra with the f-fdot kernel spectra (multiply, inverse FFT and
// powers into the plane), and the staged harmonic-sum search with on-device compaction of the
// hits.
#include <algorithm>
#include <cmath>
#include <string>

#include "accel_kernels.hpp"
#include "../cuda/cuda_check.hpp"
#include "../cuda/dynamic_shared_memory.hpp"

namespace rapt::cuda {
namespace {

constexpr int kLoadThreads = 1024;
constexpr int kMaxSubharmonicsPerStage = 16;
// Harmonic sums: neighbouring columns a thread. Eight against four: the same time with a float
// plane and 15 % less with a half-precision one (H100, zmax 100 and 200, 16 harmonics); two is
// slower.
constexpr int kColumnsPerThread = 8;
constexpr int kMaxRowsPerSumBlock = 8;  // harmonic sums: most rows one block sums in turn

// Powers exactly as the host computes them (no fused multiply-add), so that both engines find
// the same median.
__device__ inline float power_of(float2 a) {
  return __fadd_rn(__fmul_rn(a.x, a.x), __fmul_rn(a.y, a.y));
}

__global__ void load_segments_kernel(const float2* spectrum, int64_t numbins, int64_t lobin,
                                     const AccelSegmentGeometry* segments, int half,
                                     int sort_size, bool block_median, float2* amplitudes) {
  extern __shared__ float keys[];
  const AccelSegmentGeometry segment = segments[blockIdx.x];
  float2* out = amplitudes + size_t(blockIdx.x) * half;
  const int64_t offset = segment.first_bin - lobin;
  for (int i = threadIdx.x; i < half; i += blockDim.x) {
    const int64_t index = offset + i;
    out[i] = (index >= 0 && index < numbins) ? spectrum[index] : make_float2(0.0f, 0.0f);
  }
  if (!block_median) return;
  __syncthreads();
  for (int i = threadIdx.x; i < sort_size; i += blockDim.x) {
    keys[i] = i < half ? power_of(out[i]) : INFINITY;
  }
  __syncthreads();
  // Bitonic sort in shared memory; only the median element is needed afterwards.
  for (int k = 2; k <= sort_size; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < sort_size; i += blockDim.x) {
        const int partner = i ^ j;
        if (partner > i) {
          const bool ascending = (i & k) == 0;
          const float a = keys[i], b = keys[partner];
          if ((a > b) == ascending) {
            keys[i] = b;
            keys[partner] = a;
          }
        }
      }
      __syncthreads();
    }
  }
  // PRESTO's median: the middle value, or the mean of the middle two for an even count.
  const double median = (half % 2) ? keys[half / 2]
                                   : 0.5 * (double(keys[half / 2 - 1]) + double(keys[half / 2]));
  const double norm = 1.0 / sqrt(median / log(2.0));
  for (int i = threadIdx.x; i < half; i += blockDim.x) {
    const float2 a = out[i];
    out[i] = make_float2(float(a.x * norm), float(a.y * norm));
  }
}

__device__ inline float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ inline float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ inline float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
// Multiplies by +i (the inverse transform's quarter turn).
__device__ inline float2 times_i(float2 a) { return make_float2(-a.y, a.x); }

// Inverse (+i) DFTs of 4 and 8 points in registers, natural order in and out.
__device__ inline void idft4(float2* v) {
  const float2 e0 = cadd(v[0], v[2]), e1 = csub(v[0], v[2]);
  const float2 o0 = cadd(v[1], v[3]), o1 = times_i(csub(v[1], v[3]));
  v[0] = cadd(e0, o0);
  v[1] = cadd(e1, o1);
  v[2] = csub(e0, o0);
  v[3] = csub(e1, o1);
}
__device__ inline void idft8(float2* v) {
  float2 even[4] = {v[0], v[2], v[4], v[6]};
  float2 odd[4] = {v[1], v[3], v[5], v[7]};
  idft4(even);
  idft4(odd);
  constexpr float c = 0.70710678118654752f;
  odd[1] = cmul(odd[1], make_float2(c, c));
  odd[2] = times_i(odd[2]);
  odd[3] = cmul(odd[3], make_float2(-c, c));
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    v[k] = cadd(even[k], odd[k]);
    v[k + 4] = csub(even[k], odd[k]);
  }
}

// Multiplies by exp(+2 pi i j / 16); j is a compile-time constant once the callers unroll.
__device__ inline float2 turn16(float2 a, int j) {
  constexpr float c1 = 0.92387953251128674f, s1 = 0.38268343236508977f;
  constexpr float h = 0.70710678118654752f;
  switch (j) {
    case 0: return a;
    case 1: return cmul(a, make_float2(c1, s1));
    case 2: return cmul(a, make_float2(h, h));
    case 3: return cmul(a, make_float2(s1, c1));
    case 4: return times_i(a);
    case 6: return cmul(a, make_float2(-h, h));
    case 9: return cmul(a, make_float2(-c1, -s1));
    default: return cmul(a, make_float2(cospif(j / 8.0f), sinpif(j / 8.0f)));
  }
}

// Inverse DFT of 16 points as 4 x 4: n = a + 4 b, k = ka + 4 kb.
__device__ inline void idft16(float2* v) {
  float2 u[4][4];
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    float2 q[4] = {v[a], v[a + 4], v[a + 8], v[a + 12]};
    idft4(q);
#pragma unroll
    for (int ka = 0; ka < 4; ++ka) u[a][ka] = turn16(q[ka], a * ka);
  }
#pragma unroll
  for (int ka = 0; ka < 4; ++ka) {
    float2 q[4] = {u[0][ka], u[1][ka], u[2][ka], u[3][ka]};
    idft4(q);
#pragma unroll
    for (int kb = 0; kb < 4; ++kb) v[ka + 4 * kb] = q[kb];
  }
}

// Inverse DFT of 5 points, from the symmetric sums and differences of the inputs.
__device__ inline void idft5(float2* v) {
  constexpr float c1 = 0.309016994f, s1 = 0.951056516f;   // cos, sin of 2 pi / 5
  constexpr float c2 = -0.809016994f, s2 = 0.587785252f;  // cos, sin of 4 pi / 5
  const float2 a1 = cadd(v[1], v[4]), b1 = csub(v[1], v[4]);
  const float2 a2 = cadd(v[2], v[3]), b2 = csub(v[2], v[3]);
  const float2 x0 = v[0];
  const float2 r1 = make_float2(x0.x + c1 * a1.x + c2 * a2.x, x0.y + c1 * a1.y + c2 * a2.y);
  const float2 r2 = make_float2(x0.x + c2 * a1.x + c1 * a2.x, x0.y + c2 * a1.y + c1 * a2.y);
  const float2 i1 = times_i(make_float2(s1 * b1.x + s2 * b2.x, s1 * b1.y + s2 * b2.y));
  const float2 i2 = times_i(make_float2(s2 * b1.x - s1 * b2.x, s2 * b1.y - s1 * b2.y));
  v[0] = cadd(x0, cadd(a1, a2));
  v[1] = cadd(r1, i1);
  v[4] = csub(r1, i1);
  v[2] = cadd(r2, i2);
  v[3] = csub(r2, i2);
}

// Multiplies by exp(+2 pi i j / 40); j is a compile-time constant once the callers unroll.
__device__ inline float2 turn40(float2 a, int j) {
  constexpr float kCos[40] = {
      1.000000000f, 0.987688341f, 0.951056516f, 0.891006524f, 0.809016994f, 0.707106781f,
      0.587785252f, 0.453990500f, 0.309016994f, 0.156434465f, 0.000000000f, -0.156434465f,
      -0.309016994f, -0.453990500f, -0.587785252f, -0.707106781f, -0.809016994f, -0.891006524f,
      -0.951056516f, -0.987688341f, -1.000000000f, -0.987688341f, -0.951056516f, -0.891006524f,
      -0.809016994f, -0.707106781f, -0.587785252f, -0.453990500f, -0.309016994f, -0.156434465f,
      -0.000000000f, 0.156434465f, 0.309016994f, 0.453990500f, 0.587785252f, 0.707106781f,
      0.809016994f, 0.891006524f, 0.951056516f, 0.987688341f};
  constexpr float kSin[40] = {
      0.000000000f, 0.156434465f, 0.309016994f, 0.453990500f, 0.587785252f, 0.707106781f,
      0.809016994f, 0.891006524f, 0.951056516f, 0.987688341f, 1.000000000f, 0.987688341f,
      0.951056516f, 0.891006524f, 0.809016994f, 0.707106781f, 0.587785252f, 0.453990500f,
      0.309016994f, 0.156434465f, 0.000000000f, -0.156434465f, -0.309016994f, -0.453990500f,
      -0.587785252f, -0.707106781f, -0.809016994f, -0.891006524f, -0.951056516f, -0.987688341f,
      -1.000000000f, -0.987688341f, -0.951056516f, -0.891006524f, -0.809016994f, -0.707106781f,
      -0.587785252f, -0.453990500f, -0.309016994f, -0.156434465f};
  return j == 0 ? a : cmul(a, make_float2(kCos[j], kSin[j]));
}

// Inverse DFT of 40 points as 8 x 5: n = na + 8 nb, k = ka + 5 kb.
__device__ inline void idft40(float2* v) {
#pragma unroll
  for (int na = 0; na < 8; ++na) {
    float2 q[5];
#pragma unroll
    for (int nb = 0; nb < 5; ++nb) q[nb] = v[na + 8 * nb];
    idft5(q);
#pragma unroll
    for (int ka = 0; ka < 5; ++ka) v[na + 8 * ka] = turn40(q[ka], na * ka);
  }
  float2 out[40];
#pragma unroll
  for (int ka = 0; ka < 5; ++ka) {
    float2 r[8];
#pragma unroll
    for (int na = 0; na < 8; ++na) r[na] = v[na + 8 * ka];
    idft8(r);
#pragma unroll
    for (int kb = 0; kb < 8; ++kb) out[ka + 5 * kb] = r[kb];
  }
#pragma unroll
  for (int k = 0; k < 40; ++k) v[k] = out[k];
}

template <int R>
__device__ inline void idft(float2* v) {
  static_assert(R == 8 || R == 16 || R == 40, "pass-3 DFTs are 8, 16 or 40 points");
  if constexpr (R == 8) idft8(v);
  if constexpr (R == 16) idft16(v);
  if constexpr (R == 40) idft40(v);
}

// w[k] = w[1]^k for k < 16, from w[1] = exp(2 pi i q / n) (few roundings: each power is the
// product of two lower ones).
__device__ inline void twiddle_powers(int q, int n, float2* w) {
  float s, c;
  sincospif(2.0f * float(q) / float(n), &s, &c);
  w[0] = make_float2(1.0f, 0.0f);
  w[1] = make_float2(c, s);
#pragma unroll
  for (int k = 2; k < 16; ++k) w[k] = cmul(w[k / 2], w[k - k / 2]);
}

// Plane stores and loads in either precision. A half-precision plane holds the square root of
// each power, saturated at 65504, and gives back its square, rounded exactly as
// half_precision_power (common/accel/half_power.hpp) rounds on the host.
__device__ inline void store_power(float* out, float power) { *out = power; }
__device__ inline void store_power(__half* out, float power) {
  const float amplitude = __fsqrt_rn(power);
  *out = __float2half_rn(amplitude < 65504.0f ? amplitude : 65504.0f);
}
__device__ inline float load_power(const float* in) { return __ldg(in); }
__device__ inline float load_power(const __half* in) {
  const float amplitude = __half2float(__ldg(in));
  return __fmul_rn(amplitude, amplitude);  // not fused into the sum's add, as on the host
}

// The inverse FFT of N = 16 T points (T threads) in three passes, with the data in registers
// between two exchanges through shared memory (against one exchange per radix-8 stage):
//   pass 1: thread n2 < T: 16-point DFT over n1 of x[n2 + T n1], turned by w_N^(n2 k1);
//   pass 2: thread (k1, m2), n2 = m2 + M m1 (M = T / 16): 16-point DFT over m1, turned by
//           w_T^(m2 j1);
//   pass 3: for each (k1, j1): M-point DFT over m2, giving X[k1 + 16 j1 + 256 j2].
// Strides are chosen so that every shared-memory access of a half-warp is conflict-free. A
// block correlates one segment with kRowsPerBlock consecutive kernel rows, loading the
// segment's spectrum once.
constexpr int kRowsPerBlock = 4;

template <int N>
constexpr size_t correlate_shared_bytes() {
  return (16 * (N / 16 + 1) + N) * sizeof(float2);
}

template <int N, typename Power>
__global__ void __launch_bounds__(N / 16)
correlate_rows_kernel(const float2* segment_spectra, const float2* kernels,
                      const AccelSegmentGeometry* segments, int first_segment, int numz,
                      int offset, int uselen, float scale, Power* plane, int64_t plane_columns) {
  constexpr int T = N / 16;
  constexpr int M = T / 16;
  constexpr int S1 = T + 1;  // odd row stride: the 16 k1 rows of pass 2 fall in 16 banks
  extern __shared__ float2 exchange[];
  float2* pass1 = exchange;            // [16][S1]
  float2* pass2 = exchange + 16 * S1;  // [M][256]
  const int t = threadIdx.x;
  const int s = first_segment + blockIdx.y;
  // The kernel spectra are N long and the segment spectrum N/2: point i uses A[i mod N/2],
  // and n1 and n1 + 8 share a value since T * 8 = N/2.
  const float2* spectrum = segment_spectra + size_t(s) * (N / 2);
  float2 a[8];
#pragma unroll
  for (int n1 = 0; n1 < 8; ++n1) a[n1] = spectrum[t + T * n1];
  const AccelSegmentGeometry segment = segments[s];
  const int k1 = t & 15, m2 = t >> 4;
  const int first_row = blockIdx.x * kRowsPerBlock;
  const int last_row = min(numz, first_row + kRowsPerBlock);
  for (int row = first_row; row < last_row; ++row) {
    const float2* kernel = kernels + size_t(row) * N;
    float2 v[16], w[16];
#pragma unroll
    for (int n1 = 0; n1 < 16; ++n1) v[n1] = cmul(a[n1 & 7], __ldg(kernel + t + T * n1));
    idft16(v);
    twiddle_powers(t, N, w);
#pragma unroll
    for (int k = 0; k < 16; ++k) pass1[k * S1 + t] = k ? cmul(v[k], w[k]) : v[k];
    __syncthreads();
#pragma unroll
    for (int m1 = 0; m1 < 16; ++m1) v[m1] = pass1[k1 * S1 + m2 + M * m1];
    idft16(v);
    twiddle_powers(m2, T, w);
#pragma unroll
    for (int j1 = 0; j1 < 16; ++j1) pass2[m2 * 256 + k1 + 16 * j1] = j1 ? cmul(v[j1], w[j1]) : v[j1];
    __syncthreads();
    Power* out = plane + size_t(row) * plane_columns;
#pragma unroll
    for (int p = t; p < 256; p += T) {
      float2 u[M];
#pragma unroll
      for (int m = 0; m < M; ++m) u[m] = pass2[m * 256 + p];
      idft<M>(u);
#pragma unroll
      for (int j2 = 0; j2 < M; ++j2) {
        const int i = p + 256 * j2 - offset;
        const int64_t column = segment.first_column + i;
        if (i >= 0 && i < uselen && column < segment.column_limit && column < plane_columns) {
          store_power(out + column, power_of(u[j2]) * scale);
        }
      }
    }
    // No barrier here: pass1 is next written after every thread has passed the barrier above,
    // and pass2 after the next row's first barrier, when every thread has finished this pass 3.
  }
}

template <typename Power>
__global__ void interbin_powers_kernel(const float2* amplitudes,
                                       const AccelSegmentGeometry* segments, int half,
                                       int first_amplitude, int uselen, Power* plane,
                                       int64_t plane_columns) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= uselen) return;
  const AccelSegmentGeometry segment = segments[blockIdx.y];
  const int64_t column = segment.first_column + i;
  if (column >= segment.column_limit || column >= plane_columns) return;
  const float2* a = amplitudes + size_t(blockIdx.y) * half + first_amplitude + i / 2;
  constexpr float kInterbinScale = 0.70710678f;  // 1 / sqrt(2): unit mean in noise, as the CPU's
  const float2 v = (i % 2 == 0) ? a[0]
                                : make_float2(kInterbinScale * (a[0].x - a[1].x),
                                              kInterbinScale * (a[0].y - a[1].y));
  store_power(plane + column, power_of(v));
}

// Blocks are ordered rows first (blockIdx.x = group of rows), so the blocks resident at one
// time share a column tile: the sub-harmonic rows they read are few and their columns close,
// and the L2 cache serves most of the reads. Tiles beyond the grid's y extent are taken in
// turn. The stage count is a template parameter so the loops unroll and every harmonic's load
// of a stage is in flight at once; Index is 32-bit when 2 * column * 31 fits, as it does up to
// 2^25 bins.
template <int kStages, typename Index, typename Power>
__global__ void harmonic_search_kernel(const Power* plane, int64_t plane_columns, int numz,
                                       int rows_per_block, int64_t first_column,
                                       int64_t ncolumns, const float* powcut,
                                       const int* sub_rows, AccelDeviceHit* hits,
                                       unsigned long long* hit_count,
                                       unsigned long long max_hits) {
  constexpr int kSubharmonics = (1 << (kStages - 1)) > 1 ? (1 << (kStages - 1)) - 1 : 1;
  const int first_row = blockIdx.x * rows_per_block;
  const int nrows = min(rows_per_block, numz - first_row);
  // Everything that depends on the row only: each harmonic's sub-plane row and the stage
  // cuts, fetched once per block instead of for every column.
  __shared__ const Power* sub_row_start[kMaxRowsPerSumBlock][kSubharmonics];
  float cut[kStages];
#pragma unroll
  for (int stage = 0; stage < kStages; ++stage) cut[stage] = powcut[stage];
  for (int i = threadIdx.x; i < nrows * kSubharmonics; i += blockDim.x) {
    // Harmonic slot k: stage s = floor(log2(k + 1)) + 1, harm = 2 (k + 1 - 2^(s-1)) + 1.
    const int r = i / kSubharmonics, k = i % kSubharmonics;
    int stage = 1;
    while ((1 << stage) - 1 <= k) ++stage;
    const int harm = 2 * (k + 1 - (1 << (stage - 1))) + 1;
    const int sub_row = sub_rows[(stage * kMaxSubharmonicsPerStage + harm / 2) * numz +
                                 first_row + r];
    sub_row_start[r][k] = plane + size_t(sub_row) * plane_columns;
  }
  __syncthreads();
  // Each thread sums kColumnsPerThread neighbouring columns: they share the per-harmonic work
  // (pointer, multiply, loop) and their sub-harmonic reads are the same or adjacent words. It
  // does so for the block's rows in turn, whose sub-harmonic rows are mostly the same, so
  // those reads hit this SM's L1 cache.
  const int64_t groups = (ncolumns + kColumnsPerThread - 1) / kColumnsPerThread;
  const int64_t ntiles = (groups + blockDim.x - 1) / blockDim.x;
  for (int64_t tile = blockIdx.y; tile < ntiles; tile += gridDim.y) {
    const int64_t group = tile * blockDim.x + threadIdx.x;
    if (group >= groups) continue;
    const int64_t x = kColumnsPerThread * group;
    const int valid = int(min(int64_t(kColumnsPerThread), ncolumns - x));
    const Index column = Index(first_column + x);
    for (int r = 0; r < nrows; ++r) {
      const int row = first_row + r;
      const Power* row_start = plane + size_t(row) * plane_columns;
      float sum[kColumnsPerThread];
#pragma unroll
      for (int c = 0; c < kColumnsPerThread; ++c) {
        sum[c] = c < valid ? load_power(row_start + column + c) : 0.0f;
      }
      int harmonic = 0;
#pragma unroll
      for (int stage = 0; stage < kStages; ++stage) {
        const int harmtosum = 1 << stage;
        // Added in harmonic order, as the CPU engine adds them, so both sums round alike (the
        // loads do not depend on the sums, so they are all issued first).
#pragma unroll
        for (int harm = 1; harm < harmtosum; harm += 2) {
          // floor(column * harm / harmtosum + 1/2), exactly: harmtosum = 2^stage, so the
          // division is a shift. It never exceeds the column (harm < harmtosum), so it needs
          // no bounds check; each next column adds 2 harm before the shift. Reads for columns
          // past the last valid one stay inside the plane (they are below its width).
          const Index scaled = Index(2) * column * Index(harm) + Index(harmtosum);
          const Power* sub = sub_row_start[r][harmonic + harm / 2];
#pragma unroll
          for (int c = 0; c < kColumnsPerThread; ++c) {
            sum[c] += load_power(sub + ((scaled + Index(2 * harm * c)) >> (stage + 1)));
          }
        }
        harmonic += harmtosum / 2;
#pragma unroll
        for (int c = 0; c < kColumnsPerThread; ++c) {
          if (c < valid && sum[c] > cut[stage]) {
            const unsigned long long out = atomicAdd(hit_count, 1ULL);
            if (out < max_hits) {
              hits[out] =
                  AccelDeviceHit{int64_t(column) + c, sum[c], int16_t(stage), int16_t(row)};
            }
          }
        }
      }
    }
  }
}

}  // namespace

void launch_load_segments(const float2* spectrum, int64_t numbins, int64_t lobin,
                          const AccelSegmentGeometry* segments, int nsegments, int half,
                          bool block_median, float2* amplitudes, cudaStream_t stream) {
  if (nsegments == 0) return;
  int sort_size = 1;
  while (sort_size < half) sort_size *= 2;
  const size_t shared = block_median ? sort_size * sizeof(float) : 0;
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(load_segments_kernel),
                                    size_t(shared), "load_segments_kernel");
  load_segments_kernel<<<nsegments, kLoadThreads, shared, stream>>>(
      spectrum, numbins, lobin, segments, half, sort_size, block_median, amplitudes);
  RAPT_CUDA_CHECK_LAUNCH("load_segments_kernel");
}

bool fused_correlation_supported(int fftlen) {
  return fftlen == 2048 || fftlen == 4096 || fftlen == 10240;
}

template <int N, typename Power>
void launch_correlate_rows(const float2* segment_spectra, const float2* kernels,
                           const AccelSegmentGeometry* segments, int nsegments, int numz,
                           int offset, int uselen, float scale, Power* plane,
                           int64_t plane_columns, cudaStream_t stream) {
  const auto kernel = correlate_rows_kernel<N, Power>;
  constexpr size_t shared = correlate_shared_bytes<N>();
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), size_t(shared),
                                    "correlate_rows_kernel");
  constexpr int kMaxGridY = 65535;
  const unsigned row_groups = unsigned((numz + kRowsPerBlock - 1) / kRowsPerBlock);
  for (int first = 0; first < nsegments; first += kMaxGridY) {
    const dim3 grid(row_groups, unsigned(std::min(kMaxGridY, nsegments - first)));
    kernel<<<grid, N / 16, shared, stream>>>(segment_spectra, kernels, segments, first, numz,
                                             offset, uselen, scale, plane, plane_columns);
    RAPT_CUDA_CHECK_LAUNCH("correlate_rows_kernel");
  }
}

template <typename Power>
void launch_correlate_fused(const float2* segment_spectra, const float2* kernels,
                            const AccelSegmentGeometry* segments, int nsegments, int numz,
                            int fftlen, int offset, int uselen, float scale, Power* plane,
                            int64_t plane_columns, cudaStream_t stream) {
  if (nsegments == 0) return;
  if (fftlen == 2048) {
    launch_correlate_rows<2048>(segment_spectra, kernels, segments, nsegments, numz, offset,
                                uselen, scale, plane, plane_columns, stream);
  } else if (fftlen == 4096) {
    launch_correlate_rows<4096>(segment_spectra, kernels, segments, nsegments, numz, offset,
                                uselen, scale, plane, plane_columns, stream);
  } else if (fftlen == 10240) {
    launch_correlate_rows<10240>(segment_spectra, kernels, segments, nsegments, numz, offset,
                                 uselen, scale, plane, plane_columns, stream);
  } else {
    throw DataError("fused correlation: FFT length " + std::to_string(fftlen) +
                    " (2048, 4096 or 10240 only)");
  }
}

template <typename Power>
void launch_interbin_powers(const float2* amplitudes, const AccelSegmentGeometry* segments,
                            int nsegments, int half, int first_amplitude, int uselen,
                            Power* plane, int64_t plane_columns, cudaStream_t stream) {
  if (nsegments == 0) return;
  const int threads = 256;
  const dim3 grid((uselen + threads - 1) / threads, nsegments);
  interbin_powers_kernel<<<grid, threads, 0, stream>>>(amplitudes, segments, half,
                                                        first_amplitude, uselen, plane,
                                                        plane_columns);
  RAPT_CUDA_CHECK_LAUNCH("interbin_powers_kernel");
}

template <typename Index, typename Power>
void launch_harmonic_search_with(const dim3& grid, int threads, const Power* plane,
                                 int64_t plane_columns, int numz, int rows_per_block,
                                 int64_t first_column,
                                 int64_t ncolumns, int nstages, const float* powcut,
                                 const int* sub_rows, AccelDeviceHit* hits,
                                 unsigned long long* hit_count, unsigned long long max_hits,
                                 cudaStream_t stream) {
  auto launch = [&](auto kernel) {
    kernel<<<grid, threads, 0, stream>>>(plane, plane_columns, numz, rows_per_block,
                                         first_column, ncolumns, powcut, sub_rows, hits,
                                         hit_count, max_hits);
  };
  switch (nstages) {
    case 1: launch(harmonic_search_kernel<1, Index, Power>); break;
    case 2: launch(harmonic_search_kernel<2, Index, Power>); break;
    case 3: launch(harmonic_search_kernel<3, Index, Power>); break;
    case 4: launch(harmonic_search_kernel<4, Index, Power>); break;
    case 5: launch(harmonic_search_kernel<5, Index, Power>); break;
    case 6: launch(harmonic_search_kernel<6, Index, Power>); break;
    default: throw DataError("harmonic search: " + std::to_string(nstages) + " stages (1 to 6)");
  }
}

template <typename Power>
void launch_harmonic_search(const Power* plane, int64_t plane_columns, int numz,
                            int64_t first_column, int64_t ncolumns, int nstages,
                            const float* powcut, const int* sub_rows, AccelDeviceHit* hits,
                            unsigned long long* hit_count, unsigned long long max_hits,
                            cudaStream_t stream) {
  if (ncolumns <= 0) return;
  const int threads = 256;
  const int64_t groups = (ncolumns + kColumnsPerThread - 1) / kColumnsPerThread;
  const int64_t tiles = (groups + threads - 1) / threads;
  // Eight rows a block: 5-10 % faster than one on an H100 (zmax 100 and 200, 16 harmonics).
  const int rows_per_block = kMaxRowsPerSumBlock;
  const dim3 grid(unsigned((numz + rows_per_block - 1) / rows_per_block),
                  unsigned(std::min<int64_t>(tiles, 65535)));
  // 2 * column * 31 + 32 + 2 * 31 * 7 must not overflow the index type.
  if (plane_columns < (int64_t(1) << 25)) {
    launch_harmonic_search_with<uint32_t>(grid, threads, plane, plane_columns, numz,
                                          rows_per_block, first_column, ncolumns, nstages,
                                          powcut, sub_rows, hits, hit_count, max_hits, stream);
  } else {
    launch_harmonic_search_with<int64_t>(grid, threads, plane, plane_columns, numz,
                                         rows_per_block, first_column, ncolumns, nstages,
                                         powcut, sub_rows, hits, hit_count, max_hits, stream);
  }
  RAPT_CUDA_CHECK_LAUNCH("harmonic_search_kernel");
}

#define RAPT_ACCEL_PLANE_LAUNCHERS(Power)                                                      \
  template void launch_correlate_fused<Power>(const float2*, const float2*,                  \
                                              const AccelSegmentGeometry*, int, int, int, int, \
                                              int, float, Power*, int64_t, cudaStream_t);      \
  template void launch_interbin_powers<Power>(const float2*, const AccelSegmentGeometry*, int, \
                                              int, int, int, Power*, int64_t, cudaStream_t);  \
  template void launch_harmonic_search<Power>(const Power*, int64_t, int, int64_t, int64_t,   \
                                              int, const float*, const int*, AccelDeviceHit*, \
                                              unsigned long long*, unsigned long long,         \
                                              cudaStream_t);
RAPT_ACCEL_PLANE_LAUNCHERS(float)
RAPT_ACCEL_PLANE_LAUNCHERS(__half)
#undef RAPT_ACCEL_PLANE_LAUNCHERS

}  // namespace rapt::cuda
