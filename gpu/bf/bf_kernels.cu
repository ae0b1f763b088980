// The beam former's kernels around the cuBLAS product (layouts in bf_kernels.hpp).
//
// Detection and the incoherent beam: blocks of kTileLanes x kTileChans threads; lane l of warp
// w takes output channel w of the block's kTileChans and the output samples l, l + 32, ... of
// the block's kTileSamples (so each load instruction of a warp reads consecutive samples and
// kSamplesPerLane loads are in flight per thread; 8 instead of 4 was slower for half beams on
// an H100). Sums go through shared memory so that the output, channel-fastest, is written in
// runs of kTileChans floats (one 32-byte sector).
// Grid: (ceil(nsamples_out / kTileSamples), ceil(output channels / kTileChans), beams).
#include <algorithm>
#include <type_traits>

#include "../cuda/cuda_check.hpp"
#include "bf_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr int kTileLanes = 32;
constexpr int kTileChans = 8;
constexpr int kSamplesPerLane = 4;
constexpr int kTileSamples = kTileLanes * kSamplesPerLane;
constexpr int kDetectThreads = kTileLanes * kTileChans;
constexpr int kElementwiseThreads = 256;
constexpr unsigned kMaxGridY = 65535;

unsigned blocks_for(int64_t count, int per_block) {
  return unsigned((count + per_block - 1) / per_block);
}

__device__ inline float to_float(__half h) { return __half2float(h); }
__device__ inline float to_float(float f) { return f; }

// Beam rows of the FP32 path: interleaved complex.
struct ComplexRows {
  const float2* rows;
  int64_t beam_stride, chan_stride;
  template <int P>
  __device__ void load(int b, int c, int64_t t, float2 (&v)[P]) const {
    const float2* at = rows + b * beam_stride + c * chan_stride + t * P;
    if constexpr (P == 2) {
      const float4 q = *reinterpret_cast<const float4*>(at);  // strides are even: 16-byte aligned
      v[0] = make_float2(q.x, q.y);
      v[1] = make_float2(q.z, q.w);
    } else {
      v[0] = *at;
    }
  }
};

// Beam rows of the FP16 path: a row of real parts and a row of imaginary parts per beam.
template <typename T>
struct PlanarRows {
  const T* rows;
  int64_t beam_stride, chan_stride;
  template <int P>
  __device__ void load(int b, int c, int64_t t, float2 (&v)[P]) const {
    const T* re = rows + 2 * b * beam_stride + c * chan_stride + t * P;
    const T* im = re + beam_stride;
    if constexpr (P == 2 && std::is_same_v<T, __half>) {  // row starts are 16-byte aligned
      const float2 r = __half22float2(*reinterpret_cast<const __half2*>(re));
      const float2 i = __half22float2(*reinterpret_cast<const __half2*>(im));
      v[0] = make_float2(r.x, i.x);
      v[1] = make_float2(r.y, i.y);
    } else if constexpr (P == 2) {
      const float2 r = *reinterpret_cast<const float2*>(re);
      const float2 i = *reinterpret_cast<const float2*>(im);
      v[0] = make_float2(r.x, i.x);
      v[1] = make_float2(r.y, i.y);
    } else {
      v[0] = make_float2(to_float(re[0]), to_float(im[0]));
    }
  }
};

// The header's Stokes formulas, added to acc[0..S).
template <int P, int S, bool Circular>
__device__ inline void add_stokes(const float2 (&v)[P], float* acc) {
  const float aa = v[0].x * v[0].x + v[0].y * v[0].y;
  if constexpr (P == 1) {
    acc[0] += aa;
  } else {
    const float bb = v[1].x * v[1].x + v[1].y * v[1].y;
    acc[0] += aa + bb;
    if constexpr (S == 4) {
      const float cr = v[0].x * v[1].x + v[0].y * v[1].y;  // Re(conj(Y0) Y1)
      const float ci = v[0].x * v[1].y - v[0].y * v[1].x;  // Im(conj(Y0) Y1)
      if constexpr (Circular) {
        acc[1] += 2.0f * cr;
        acc[2] += 2.0f * ci;
        acc[3] += aa - bb;
      } else {
        acc[1] += aa - bb;
        acc[2] += 2.0f * cr;
        acc[3] += 2.0f * ci;
      }
    }
  }
}

// tint / (unflagged samples of window `to`), 0 for a window with none.
__device__ inline float window_scale(const BfDetectParams& p, int64_t to) {
  int ok = p.tint;
  if (p.flags)
    for (int k = 0; k < p.tint; ++k) ok -= p.flags[to * p.tint + k] != 0;
  return ok ? float(p.tint) / float(ok) : 0.0f;
}

// Writes the block's tile of sums [S][kTileSamples][kTileChans] (already scaled) to
// out[((z * nsamples_out + to) * S + s) * nchan_out + chan].
template <int S>
__device__ inline void write_tile(const float (&tile)[S][kTileSamples][kTileChans + 1],
                                  const BfDetectParams& p, int64_t z, int first_chan,
                                  int chans_left, float* out) {
  const int64_t to0 = int64_t(blockIdx.x) * kTileSamples;
  for (int i = threadIdx.y * kTileLanes + threadIdx.x; i < kTileSamples * S * kTileChans;
       i += kDetectThreads) {
    const int col = i % kTileChans, row = i / kTileChans;
    const int tl = row / S, s = row % S;
    const int64_t to = to0 + tl;
    if (to < p.nsamples_out && col < chans_left)
      out[((z * p.nsamples_out + to) * S + s) * p.nchan_out + first_chan + col] = tile[s][tl][col];
  }
}

template <class Rows, int P, int S, bool Circular>
__global__ void __launch_bounds__(kDetectThreads)
    detect_kernel(Rows rows, BfDetectParams p, int first_chan_out, int group_nchan_out,
                  float* detected) {
  __shared__ float tile[S][kTileSamples][kTileChans + 1];
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int co = blockIdx.y * kTileChans + warp;  // output channel within the group
  const int b = blockIdx.z;
  const int64_t to0 = int64_t(blockIdx.x) * kTileSamples + lane;
  float acc[kSamplesPerLane][S] = {};
  if (co < group_nchan_out) {
    for (int f = 0; f < p.fscrunch; ++f) {
      const int c = co * p.fscrunch + f;
      for (int k = 0; k < p.tint; ++k) {
#pragma unroll
        for (int m = 0; m < kSamplesPerLane; ++m) {
          const int64_t to = to0 + m * kTileLanes;
          if (to >= p.nsamples_out) break;
          const int64_t t = to * p.tint + k;
          if (p.flags && p.flags[t]) continue;
          float2 v[P];
          rows.template load<P>(b, c, t, v);
          add_stokes<P, S, Circular>(v, acc[m]);
        }
      }
    }
  }
#pragma unroll
  for (int m = 0; m < kSamplesPerLane; ++m) {
    const int64_t to = to0 + m * kTileLanes;
    const float scale = to < p.nsamples_out ? window_scale(p, to) : 0.0f;
#pragma unroll
    for (int s = 0; s < S; ++s) tile[s][lane + m * kTileLanes][warp] = acc[m][s] * scale;
  }
  __syncthreads();
  write_tile<S>(tile, p, b, first_chan_out + blockIdx.y * kTileChans,
                group_nchan_out - int(blockIdx.y) * kTileChans, detected);
}

template <int P>
__global__ void __launch_bounds__(kDetectThreads)
    incoherent_kernel(const float2* x, const float* station_scale, int nant, BfDetectParams p,
                      float* out) {
  __shared__ float tile[1][kTileSamples][kTileChans + 1];
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int co = blockIdx.y * kTileChans + warp;
  const int64_t to0 = int64_t(blockIdx.x) * kTileSamples + lane;
  float acc[kSamplesPerLane] = {};
  if (co < p.nchan_out) {
    for (int f = 0; f < p.fscrunch; ++f) {
      const int c = co * p.fscrunch + f;
      for (int a = 0; a < nant; ++a) {
        const float scale = station_scale[a];
        if (scale == 0.0f) continue;
        const float2* row = x + (int64_t(c) * nant + a) * p.nsamples * P;
        for (int k = 0; k < p.tint; ++k) {
#pragma unroll
          for (int m = 0; m < kSamplesPerLane; ++m) {
            const int64_t to = to0 + m * kTileLanes;
            if (to >= p.nsamples_out) break;
            const int64_t t = to * p.tint + k;
            if (p.flags && p.flags[t]) continue;
            float power;
            if constexpr (P == 2) {
              const float4 q = *reinterpret_cast<const float4*>(row + 2 * t);
              power = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
            } else {
              const float2 q = row[t];
              power = q.x * q.x + q.y * q.y;
            }
            acc[m] += scale * power;
          }
        }
      }
    }
  }
#pragma unroll
  for (int m = 0; m < kSamplesPerLane; ++m) {
    const int64_t to = to0 + m * kTileLanes;
    tile[0][lane + m * kTileLanes][warp] =
        to < p.nsamples_out ? acc[m] * window_scale(p, to) : 0.0f;
  }
  __syncthreads();
  write_tile<1>(tile, p, 0, blockIdx.y * kTileChans, p.nchan_out - int(blockIdx.y) * kTileChans,
                out);
}

// One thread per station and beam of a channel: the 2 x 2 real block of W'.
__global__ void build_fp16_weights_kernel(const float2* w, __half* out, int nchan, int nbeams,
                                          int nant, int ldw) {
  const int64_t count = int64_t(nchan) * nbeams * nant;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t c = i / (int64_t(nbeams) * nant);
    const int b = int((i / nant) % nbeams), a = int(i % nant);
    const float2 v = w[i];
    __half* re_row = out + (c * 2 * nbeams + 2 * b) * int64_t(ldw);
    __half* im_row = re_row + ldw;
    re_row[2 * a] = __float2half_rn(v.x);
    re_row[2 * a + 1] = __float2half_rn(-v.y);
    im_row[2 * a] = __float2half_rn(v.y);
    im_row[2 * a + 1] = __float2half_rn(v.x);
  }
}

// Voltage row r (channel, station) of `columns` complex values -> planar rows 2r (real) and
// 2r + 1 (imaginary) of length ldx. Pairs: two columns per thread (16-byte loads, 4-byte
// stores), for an even number of columns.
template <bool Pairs>
__global__ void voltages_to_fp16_kernel(const float2* x, __half* planar, int64_t rows,
                                        int64_t columns, int64_t ldx) {
  const int64_t j = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * (Pairs ? 2 : 1);
  if (j >= columns) return;
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    __half* re = planar + 2 * r * ldx + j;
    __half* im = re + ldx;
    if constexpr (Pairs) {
      const float4 q = *reinterpret_cast<const float4*>(x + r * columns + j);
      *reinterpret_cast<__half2*>(re) = __floats2half2_rn(q.x, q.z);
      *reinterpret_cast<__half2*>(im) = __floats2half2_rn(q.y, q.w);
    } else {
      const float2 q = x[r * columns + j];
      *re = __float2half_rn(q.x);
      *im = __float2half_rn(q.y);
    }
  }
}

__global__ void zero_flagged_kernel(float2* beams, int64_t rows, int64_t nsamples, int npol,
                                    const uint8_t* flags) {
  const int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (t >= nsamples || !flags[t]) return;
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y)
    for (int p = 0; p < npol; ++p) beams[(r * nsamples + t) * npol + p] = make_float2(0.0f, 0.0f);
}

template <typename T>
__global__ void planar_to_coherent_kernel(PlanarRows<T> rows, int nbeams, int first_chan,
                                          int group_nchan, int nchan, int64_t nsamples, int npol,
                                          const uint8_t* flags, float2* coherent) {
  const int64_t columns = nsamples * npol;
  const int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (j >= columns) return;
  const bool flagged = flags && flags[j / npol];
  for (int64_t r = blockIdx.y; r < int64_t(nbeams) * group_nchan; r += gridDim.y) {
    const int b = int(r / group_nchan), c = int(r % group_nchan);
    const T* re = rows.rows + 2 * b * rows.beam_stride + c * rows.chan_stride + j;
    const float2 v = flagged ? make_float2(0.0f, 0.0f)
                             : make_float2(to_float(re[0]), to_float(re[rows.beam_stride]));
    coherent[(int64_t(b) * nchan + first_chan + c) * columns + j] = v;
  }
}

template <class Rows>
void launch_detect_from(const Rows& rows, const BfDetectParams& p, int first_chan_out,
                        int group_nchan_out, float* detected, cudaStream_t stream) {
  const dim3 block(kTileLanes, kTileChans);
  const dim3 grid(blocks_for(p.nsamples_out, kTileSamples), blocks_for(group_nchan_out, kTileChans),
                  unsigned(p.nbeams));
  if (p.npol == 1)
    detect_kernel<Rows, 1, 1, false>
        <<<grid, block, 0, stream>>>(rows, p, first_chan_out, group_nchan_out, detected);
  else if (p.nstokes == 1)
    detect_kernel<Rows, 2, 1, false>
        <<<grid, block, 0, stream>>>(rows, p, first_chan_out, group_nchan_out, detected);
  else if (p.circular)
    detect_kernel<Rows, 2, 4, true>
        <<<grid, block, 0, stream>>>(rows, p, first_chan_out, group_nchan_out, detected);
  else
    detect_kernel<Rows, 2, 4, false>
        <<<grid, block, 0, stream>>>(rows, p, first_chan_out, group_nchan_out, detected);
  RAPT_CUDA_CHECK_LAUNCH("beam detection kernel");
}

}  // namespace

void launch_build_fp16_weights(const float2* weights, __half* weights_fp16, int nchan,
                               int nbeams, int nant, int ldw, cudaStream_t stream) {
  const int64_t count = int64_t(nchan) * nbeams * nant;
  const unsigned blocks =
      unsigned(std::min<int64_t>(blocks_for(count, kElementwiseThreads), 65536));
  build_fp16_weights_kernel<<<blocks, kElementwiseThreads, 0, stream>>>(
      weights, weights_fp16, nchan, nbeams, nant, ldw);
  RAPT_CUDA_CHECK_LAUNCH("FP16 weights kernel");
}

void launch_voltages_to_fp16(const float2* voltages, __half* planar, int nchan, int nant,
                             int64_t columns, int64_t ldx, cudaStream_t stream) {
  const int64_t rows = int64_t(nchan) * nant;
  const bool pairs = columns % 2 == 0;
  const dim3 grid(blocks_for(pairs ? columns / 2 : columns, kElementwiseThreads),
                  unsigned(std::min<int64_t>(rows, kMaxGridY)));
  if (pairs)
    voltages_to_fp16_kernel<true>
        <<<grid, kElementwiseThreads, 0, stream>>>(voltages, planar, rows, columns, ldx);
  else
    voltages_to_fp16_kernel<false>
        <<<grid, kElementwiseThreads, 0, stream>>>(voltages, planar, rows, columns, ldx);
  RAPT_CUDA_CHECK_LAUNCH("FP16 voltage conversion kernel");
}

void launch_detect(const BeamRows& beams, const BfDetectParams& p, int first_chan_out,
                   int group_nchan_out, float* detected, cudaStream_t stream) {
  if (beams.complex_rows)
    launch_detect_from(ComplexRows{beams.complex_rows, beams.beam_stride, beams.chan_stride}, p,
                       first_chan_out, group_nchan_out, detected, stream);
  else if (beams.half_rows)
    launch_detect_from(PlanarRows<__half>{beams.half_rows, beams.beam_stride, beams.chan_stride},
                       p, first_chan_out, group_nchan_out, detected, stream);
  else
    launch_detect_from(PlanarRows<float>{beams.float_rows, beams.beam_stride, beams.chan_stride},
                       p, first_chan_out, group_nchan_out, detected, stream);
}

void launch_incoherent(const float2* voltages, const float* station_scale, int nant,
                       const BfDetectParams& p, float* out, cudaStream_t stream) {
  const dim3 block(kTileLanes, kTileChans);
  const dim3 grid(blocks_for(p.nsamples_out, kTileSamples), blocks_for(p.nchan_out, kTileChans));
  if (p.npol == 2)
    incoherent_kernel<2><<<grid, block, 0, stream>>>(voltages, station_scale, nant, p, out);
  else
    incoherent_kernel<1><<<grid, block, 0, stream>>>(voltages, station_scale, nant, p, out);
  RAPT_CUDA_CHECK_LAUNCH("incoherent beam kernel");
}

void launch_zero_flagged(float2* beams, int64_t rows, int64_t nsamples, int npol,
                         const uint8_t* flags, cudaStream_t stream) {
  const dim3 grid(blocks_for(nsamples, kElementwiseThreads),
                  unsigned(std::min<int64_t>(rows, kMaxGridY)));
  zero_flagged_kernel<<<grid, kElementwiseThreads, 0, stream>>>(beams, rows, nsamples, npol, flags);
  RAPT_CUDA_CHECK_LAUNCH("flagged coherent samples kernel");
}

void launch_planar_to_coherent(const BeamRows& beams, int nbeams, int first_chan, int group_nchan,
                               int nchan, int64_t nsamples, int npol, const uint8_t* flags,
                               float2* coherent, cudaStream_t stream) {
  const dim3 grid(blocks_for(nsamples * npol, kElementwiseThreads),
                  unsigned(std::min<int64_t>(int64_t(nbeams) * group_nchan, kMaxGridY)));
  if (beams.half_rows)
    planar_to_coherent_kernel<<<grid, kElementwiseThreads, 0, stream>>>(
        PlanarRows<__half>{beams.half_rows, beams.beam_stride, beams.chan_stride}, nbeams,
        first_chan, group_nchan, nchan, nsamples, npol, flags, coherent);
  else
    planar_to_coherent_kernel<<<grid, kElementwiseThreads, 0, stream>>>(
        PlanarRows<float>{beams.float_rows, beams.beam_stride, beams.chan_stride}, nbeams,
        first_chan, group_nchan, nchan, nsamples, npol, flags, coherent);
  RAPT_CUDA_CHECK_LAUNCH("coherent beam kernel");
}

}  // namespace rapt::gpu
