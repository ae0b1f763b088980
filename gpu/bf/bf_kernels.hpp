// Launchers of the beam former's kernels (gpu/bf/bf_kernels.cu): the FP16 conversions of the
// weights and the voltages for the tensor-core product, detection with integration over time
// and channels, the incoherent beam, and the coherent output; the product itself is then
// cuBLAS's (gpu/bf/bf_gpu_pipeline.cpp). And (gpu/bf/bf_fused_detect.cu) the FP16 product and
// detection in one kernel, for blocks that want detected output alone.
//
// Layouts on the device (T*P = nsamples * npol columns, time-major then polarisation):
//   voltages  X[chan][ant][T*P] complex float: the canonical block as uploaded
//   FP16 X'   [chan][2*ant + re/im][ldx] half, planar: row 2a the real parts of station a, row
//             2a+1 the imaginary parts (ldx >= T*P)
//   FP16 W'   [chan][2*beam + re/im][ldw] half, ldw >= 2*ant a multiple of 8: [[Wr, -Wi],
//             [Wi, Wr]] per station and beam (columns 2a, 2a+1); columns 2*ant .. ldw - 1 are 0
//   beams     FP32: Y[beam][chan][T*P] complex float (the coherent output's order); FP16:
//             planar Y'[chan][2*beam + re/im][ldy] of half or float (see BeamRows)
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace rapt::gpu {

// Where the beams of one channel group lie: beam b, channel c of the group (0-based), column j
// (= t * npol + p) at
//   complex:  complex_rows[b * beam_stride + c * chan_stride + j]
//   planar:   rows[(2b + 0) * beam_stride + c * chan_stride + j] (real part),
//             rows[(2b + 1) * beam_stride + c * chan_stride + j] (imaginary part)
// Strides are in elements (complex for complex_rows). Exactly one of the pointers is set.
struct BeamRows {
  const float2* complex_rows = nullptr;  // FP32 path (cuBLAS Cgemm)
  const __half* half_rows = nullptr;     // FP16 path, half output
  const float* float_rows = nullptr;     // FP16 path, float output
  int64_t beam_stride = 0;
  int64_t chan_stride = 0;
};

// What detection and the incoherent beam need to know of the block and the shape.
struct BfDetectParams {
  int nbeams = 1;
  int npol = 2;
  int nstokes = 1;
  bool circular = false;
  int tint = 1;
  int fscrunch = 1;
  int64_t nsamples = 0;
  int64_t nsamples_out = 0;
  int nchan_out = 0;               // of the whole block: the output's row length
  const uint8_t* flags = nullptr;  // [nsamples] on the device, nullptr: none flagged
};

// W' (FP16, see above) from W [chan][beam][ant] complex float.
void launch_build_fp16_weights(const float2* weights, __half* weights_fp16, int nchan,
                               int nbeams, int nant, int ldw, cudaStream_t stream);

// X' rows of `nchan` channels (FP16 planar, row length ldx) from the canonical voltages of
// those channels.
void launch_voltages_to_fp16(const float2* voltages, __half* planar, int nchan, int nant,
                             int64_t columns, int64_t ldx, cudaStream_t stream);

// Detected output of one channel group: output channels first_chan_out .. first_chan_out +
// group_nchan_out - 1 of D[beam][t_out][stokes][chan_out] (the whole block's array).
void launch_detect(const BeamRows& beams, const BfDetectParams& p, int first_chan_out,
                   int group_nchan_out, float* detected, cudaStream_t stream);

// The incoherent beam of the whole block: out[t_out][chan_out].
void launch_incoherent(const float2* voltages, const float* station_scale, int nant,
                       const BfDetectParams& p, float* out, cudaStream_t stream);

// Sets the flagged samples of the FP32 beams (BeamRows::complex_rows of every channel, already
// the coherent output) to 0.
void launch_zero_flagged(float2* beams, int64_t rows, int64_t nsamples, int npol,
                         const uint8_t* flags, cudaStream_t stream);

// Coherent output [beam][chan][T*P] complex float of one FP16 channel group (channels
// first_chan .. first_chan + group_nchan - 1 of the block's `nchan`), flagged samples 0.
void launch_planar_to_coherent(const BeamRows& beams, int nbeams, int first_chan, int group_nchan,
                               int nchan, int64_t nsamples, int npol, const uint8_t* flags,
                               float2* coherent, cudaStream_t stream);

// tint / (unflagged samples) of each of the `nsamples_out` windows of `flags` (0 for a window
// with none): the scale the fused kernel gives each unflagged sample.
void launch_window_scales(const uint8_t* flags, int tint, int64_t nsamples_out, float* scales,
                          cudaStream_t stream);

// The detected output D[beam][t_out][stokes][chan_out] of the whole block straight from the
// float voltages and W' (FP16 products on tensor cores, FP32 sums), the beams never leaving the
// chip. `window_scales`: launch_window_scales of p.flags (ignored when p.flags is nullptr).
void launch_fused_detect(const float2* voltages, const __half* weights_fp16, int nant, int ldw,
                         const float* window_scales, const BfDetectParams& p, float* detected,
                         cudaStream_t stream);

}  // namespace rapt::gpu
