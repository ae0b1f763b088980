// The beam former on the device, from voltages already in GPU memory to outputs in GPU memory:
// what the CUDA engine runs between its copies, and what the benchmark times.
//
// The block goes through in groups of channels (a multiple of fscrunch) whose beam scratch fits
// `group_bytes`: the whole block when it fits, which is fastest (measured on an H100, B1 of
// bench_bf.cpp: groups kept in the L2 cache, 8 to 16 channels, took 1.3 times as long as one
// group, the launches and the small products costing more than the L2 saves). Per group:
//   FP32: one cublasCgemmStridedBatched on the interleaved complex voltages as uploaded
//         (batch = channels; C^T = X^T W^T in cuBLAS's column-major terms), then detection.
//         CGEMM, not a real SGEMM on planar rows: the same real FLOPs, no conversion pass, and
//         faster as measured (B1 products: 0.77 ms CGEMM, 0.85 ms planar SGEMM).
//   FP16: the group's voltages to planar half X', one cublasGemmStridedBatchedEx (half inputs,
//         FP32 accumulation on tensor cores, planar beams Y' stored as half), then detection
//         (and the coherent output, reordered from Y'). Half beams halve the product's writes
//         and the detection's reads (B1: 0.40 ms against 0.54 ms with float beams) for one more
//         rounding to 11 bits, of the order of the rounding of the voltages and weights.
//   FP16 fused (BfPipelineOptions::fused_fp16, detected output alone): no groups, no scratch;
//         one kernel (bf_fused_detect.cu) forms the beams of a tile of beams, samples and
//         channels on tensor cores from the float voltages and detects, integrates and sums
//         them in the same block. Neither half voltages nor beams pass through device memory,
//         and the output is closer to FP32 (no half beams: B1 spot check 7e-4 of the rms
//         against 2.7e-3), but as measured on an H100 it is slower, so it is not the default:
//         B1 0.48 ms against 0.40, B2 MeerKAT 58 ms against 40, B2 SKA-Low 53 ms against 20.
// The incoherent beam is one more kernel over the float voltages. Buffers grow only when a
// bigger block comes; a block of the same size allocates nothing.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>

#include "../cuda/cublas_handle.hpp"
#include "../cuda/device_buffer.hpp"
#include "bf/beamformer_engine.hpp"
#include "bf_kernels.hpp"

namespace rapt::gpu {

// Beam scratch per channel group (with the FP16 input rows): B1 and most blocks in one group.
constexpr size_t kDefaultBfGroupBytes = size_t(1) << 30;

struct BfPipelineOptions {
  size_t group_bytes = kDefaultBfGroupBytes;
  bool half_beams = true;  // FP16 through cuBLAS: the product writes half beams (else float)
  // FP16 without the coherent output: the fused product-and-detection kernel instead of
  // conversion, cuBLAS and detection (see above for why it is off by default).
  bool fused_fp16 = false;
};

class BeamformerPipeline {
 public:
  // On the current device. Throws UsageError for npol other than 1 or 2 or more than 65535
  // beams.
  BeamformerPipeline(const BeamformerShape& shape, const BfPipelineOptions& options);

  const BeamformerShape& shape() const { return shape_; }
  cudaStream_t stream() const { return stream_.get(); }

  // Weights [chan][beam][ant] and station scales [ant] from the host (copied before return).
  void upload_weights(const std::complex<float>* weights, const float* station_scale);
  // For callers that fill the weights on the device: then call weights_changed().
  float2* weights_device() { return weights_.get(); }
  float* station_scale_device() { return station_scale_.get(); }
  void weights_changed();  // rebuilds the FP16 weights (queued on the stream)

  // Channels per group for blocks of `nsamples`.
  int group_channels(int64_t nsamples) const;
  // Sizes every buffer for blocks of up to `nsamples` samples (allocates only to grow).
  void reserve(int64_t nsamples);
  // Queues one block on the stream: `voltages` [chan][ant][time][pol] complex on the device,
  // `flags` [nsamples] bytes on the device or nullptr. Outputs are valid once the stream is.
  void run(const float2* voltages, const uint8_t* flags, int64_t nsamples);

  // Outputs of the last block, layouts as BeamBlockOutput's (nullptr when not asked for).
  const float* detected() const { return detected_.get(); }
  const float* coherent() const;
  const float* incoherent() const { return incoherent_.get(); }

 private:
  struct Plan {
    int64_t columns = 0;    // nsamples * npol
    int64_t ld = 0;         // FP16 planar row length (columns rounded up to 8)
    int group = 0;          // channels per group
    size_t planar_x = 0;    // elements of the FP16 input rows
    size_t beams = 0;       // elements of the beam buffer (complex for FP32)
  };
  bool fused() const;  // FP16 detected output through the fused kernel
  Plan plan(int64_t nsamples) const;
  BfDetectParams detect_params(const uint8_t* flags, int64_t nsamples) const;
  float2* complex_group(const Plan& pl, int first_chan) const;
  BeamRows group_rows(const Plan& pl, int first_chan) const;
  void multiply(const Plan& pl, const float2* voltages, int first_chan, int nchan);

  BeamformerShape shape_;
  BfPipelineOptions options_;
  cuda::Stream stream_;
  cuda::CublasHandle cublas_;
  cuda::DeviceBuffer<float2> weights_;        // [chan][beam][ant]
  cuda::DeviceBuffer<__half> weights_fp16_;   // W' (FP16)
  cuda::DeviceBuffer<float> station_scale_;   // [ant]
  cuda::DeviceBuffer<__half> planar_x_;       // X' of one group (FP16)
  cuda::DeviceBuffer<float2> complex_beams_;  // FP32: a group's beams, or all (coherent)
  cuda::DeviceBuffer<__half> half_beams_;     // FP16, half_beams: a group's Y'
  cuda::DeviceBuffer<float> float_beams_;     // FP16, float beams: a group's Y'
  cuda::DeviceBuffer<float2> coherent_;       // FP16 coherent output
  cuda::DeviceBuffer<float> window_scales_;   // fused FP16 with flags: [t_out]
  cuda::DeviceBuffer<float> detected_;
  cuda::DeviceBuffer<float> incoherent_;
};

}  // namespace rapt::gpu
