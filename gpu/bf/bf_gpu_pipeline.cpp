#include "bf_gpu_pipeline.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "cli/errors.hpp"

namespace rapt::gpu {
namespace {

constexpr int kFp16Align = 8;  // planar rows padded to 16 bytes of half: tensor-core friendly

int64_t fp16_row(int64_t length) { return (length + kFp16Align - 1) / kFp16Align * kFp16Align; }

// Frees, then allocates, when `buffer` holds fewer than `count` elements (never shrinks).
template <typename T>
void grow(cuda::DeviceBuffer<T>& buffer, size_t count) {
  if (buffer.size() >= count) return;
  buffer = cuda::DeviceBuffer<T>();
  buffer = cuda::DeviceBuffer<T>(count);
}

int checked_int(int64_t value, const char* what) {
  if (value > INT_MAX)
    throw UsageError(std::string("beam forming block too large for one cuBLAS call (") + what +
                     " = " + std::to_string(value) + "); use fewer samples per block");
  return int(value);
}

}  // namespace

BeamformerPipeline::BeamformerPipeline(const BeamformerShape& shape,
                                       const BfPipelineOptions& options)
    : shape_(shape), options_(options), cublas_(stream_.get()) {
  shape_.validate();
  if (shape_.npol != 1 && shape_.npol != 2)
    throw UsageError("the GPU beam former takes 1 or 2 polarisations");
  if (shape_.nbeams > 65535)
    throw UsageError("the GPU beam former forms at most 65535 beams per engine");
  const size_t nweights = size_t(shape_.nchan) * shape_.nbeams * shape_.nant;
  weights_ = cuda::DeviceBuffer<float2>(nweights);
  station_scale_ = cuda::DeviceBuffer<float>(size_t(shape_.nant));
  if (shape_.precision == BeamPrecision::fp16) {
    weights_fp16_ = cuda::DeviceBuffer<__half>(size_t(shape_.nchan) * 2 * shape_.nbeams *
                                               size_t(fp16_row(2 * shape_.nant)));
    // The row padding stays 0 (the weights kernel writes columns < 2 * nant only): the fused
    // kernel reads whole 8-half vectors.
    RAPT_CUDA_CHECK(
        cudaMemsetAsync(weights_fp16_.get(), 0, weights_fp16_.bytes(), stream_.get()));
  }
}

void BeamformerPipeline::upload_weights(const std::complex<float>* weights,
                                        const float* station_scale) {
  RAPT_CUDA_CHECK(cudaMemcpyAsync(weights_.get(), weights, weights_.bytes(),
                                  cudaMemcpyHostToDevice, stream_.get()));
  RAPT_CUDA_CHECK(cudaMemcpyAsync(station_scale_.get(), station_scale, station_scale_.bytes(),
                                  cudaMemcpyHostToDevice, stream_.get()));
  weights_changed();
  stream_.synchronize();  // the caller's arrays may go once this returns
}

void BeamformerPipeline::weights_changed() {
  if (shape_.precision == BeamPrecision::fp16)
    launch_build_fp16_weights(weights_.get(), weights_fp16_.get(), shape_.nchan, shape_.nbeams,
                              shape_.nant, int(fp16_row(2 * shape_.nant)), stream_.get());
}

int BeamformerPipeline::group_channels(int64_t nsamples) const { return plan(nsamples).group; }

bool BeamformerPipeline::fused() const {
  return shape_.precision == BeamPrecision::fp16 && options_.fused_fp16 && !shape_.coherent &&
         shape_.detection != BeamDetection::none;
}

BeamformerPipeline::Plan BeamformerPipeline::plan(int64_t nsamples) const {
  const BeamformerShape& s = shape_;
  Plan pl;
  pl.columns = nsamples * s.npol;
  pl.ld = fp16_row(pl.columns);
  const bool fp16 = s.precision == BeamPrecision::fp16;
  const bool product = s.detection != BeamDetection::none || s.coherent;
  if (!product) return pl;  // the incoherent beam alone: no product, no scratch
  if (fused()) {
    pl.group = s.nchan;  // one kernel over the whole block, no scratch
    return pl;
  }
  if (!fp16 && s.coherent) {
    pl.group = s.nchan;  // the beams are the coherent output: all of them at once
  } else {
    const size_t per_chan =
        fp16 ? size_t(2 * s.nbeams) * size_t(pl.ld) * (options_.half_beams ? 2 : 4) +
                   size_t(2 * s.nant) * size_t(pl.ld) * 2
             : size_t(s.nbeams) * size_t(pl.columns) * 8;
    int64_t g = int64_t(options_.group_bytes / std::max<size_t>(per_chan, 1));
    const int64_t unit = s.fscrunch, wide = int64_t(8) * s.fscrunch;  // 8: a detection tile
    g = g >= wide ? g / wide * wide : std::max(unit, g / unit * unit);
    pl.group = int(std::min<int64_t>(g, s.nchan));
  }
  if (fp16) {
    pl.planar_x = size_t(pl.group) * 2 * s.nant * size_t(pl.ld);
    pl.beams = size_t(pl.group) * 2 * s.nbeams * size_t(pl.ld);
  } else {
    pl.beams = size_t(pl.group) * s.nbeams * size_t(pl.columns);
  }
  return pl;
}

void BeamformerPipeline::reserve(int64_t nsamples) {
  const BeamformerShape& s = shape_;
  const Plan pl = plan(nsamples);
  const int64_t nout = nsamples / s.tint;
  if (fused()) {
    grow(window_scales_, size_t(nout));
  } else if (s.precision == BeamPrecision::fp16) {
    grow(planar_x_, pl.planar_x);
    if (options_.half_beams)
      grow(half_beams_, pl.beams);
    else
      grow(float_beams_, pl.beams);
    if (s.coherent) grow(coherent_, size_t(s.nbeams) * s.nchan * size_t(pl.columns));
  } else {
    grow(complex_beams_, pl.beams);
  }
  if (s.detection != BeamDetection::none)
    grow(detected_, size_t(s.nbeams) * size_t(nout) * s.nstokes() * s.nchan_out());
  if (s.incoherent) grow(incoherent_, size_t(nout) * s.nchan_out());
}

const float* BeamformerPipeline::coherent() const {
  if (!shape_.coherent) return nullptr;
  const float2* beams =
      shape_.precision == BeamPrecision::fp16 ? coherent_.get() : complex_beams_.get();
  return reinterpret_cast<const float*>(beams);
}

BfDetectParams BeamformerPipeline::detect_params(const uint8_t* flags, int64_t nsamples) const {
  BfDetectParams p;
  p.nbeams = shape_.nbeams;
  p.npol = shape_.npol;
  p.nstokes = shape_.nstokes();
  p.circular = shape_.circular;
  p.tint = shape_.tint;
  p.fscrunch = shape_.fscrunch;
  p.nsamples = nsamples;
  p.nsamples_out = nsamples / shape_.tint;
  p.nchan_out = shape_.nchan_out();
  p.flags = flags;
  return p;
}

// Where the FP32 product of the group starting at `first_chan` goes: [beam][chan][T*P], in the
// coherent output itself (every channel) or in the group's buffer.
float2* BeamformerPipeline::complex_group(const Plan& pl, int first_chan) const {
  return complex_beams_.get() + (shape_.coherent ? first_chan * pl.columns : 0);
}

// The beams of the group starting at `first_chan`.
BeamRows BeamformerPipeline::group_rows(const Plan& pl, int first_chan) const {
  BeamRows rows;
  if (shape_.precision == BeamPrecision::fp32) {
    rows.complex_rows = complex_group(pl, first_chan);
    rows.beam_stride = int64_t(pl.group) * pl.columns;
    rows.chan_stride = pl.columns;
  } else {
    if (options_.half_beams)
      rows.half_rows = half_beams_.get();
    else
      rows.float_rows = float_beams_.get();
    rows.beam_stride = pl.ld;  // [chan][2 * beam + re/im][ld]
    rows.chan_stride = 2 * int64_t(shape_.nbeams) * pl.ld;
  }
  return rows;
}

// Beams of channels first_chan .. first_chan + nchan - 1 into the group's buffer.
void BeamformerPipeline::multiply(const Plan& pl, const float2* voltages, int first_chan,
                                  int nchan) {
  const BeamformerShape& s = shape_;
  const int64_t a = s.nant, b = s.nbeams;
  const int m = checked_int(pl.columns, "samples x polarisations");
  if (s.precision == BeamPrecision::fp32) {
    const BeamRows rows = group_rows(pl, first_chan);
    const cuComplex one = {1.0f, 0.0f}, zero = {0.0f, 0.0f};
    RAPT_CUBLAS_CHECK(cublasCgemmStridedBatched(
        cublas_.get(), CUBLAS_OP_N, CUBLAS_OP_N, m, int(b), int(a), &one,
        reinterpret_cast<const cuComplex*>(voltages) + first_chan * a * pl.columns, m,
        a * pl.columns, reinterpret_cast<const cuComplex*>(weights_.get()) + first_chan * b * a,
        int(a), b * a, &zero, reinterpret_cast<cuComplex*>(complex_group(pl, first_chan)),
        checked_int(rows.beam_stride, "channels x samples x polarisations"), rows.chan_stride,
        nchan));
    return;
  }
  launch_voltages_to_fp16(voltages + first_chan * a * pl.columns, planar_x_.get(), nchan,
                          int(a), pl.columns, pl.ld, stream_.get());
  const BeamRows rows = group_rows(pl, first_chan);
  const int64_t ldw = fp16_row(2 * a);
  const float one = 1.0f, zero = 0.0f;
  void* out = options_.half_beams ? static_cast<void*>(half_beams_.get())
                                  : static_cast<void*>(float_beams_.get());
  RAPT_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
      cublas_.get(), CUBLAS_OP_N, CUBLAS_OP_N, m, int(2 * b), int(2 * a), &one,
      planar_x_.get(), CUDA_R_16F, checked_int(pl.ld, "row length"), 2 * a * pl.ld,
      weights_fp16_.get() + first_chan * 2 * b * ldw, CUDA_R_16F, int(ldw), 2 * b * ldw, &zero,
      out, options_.half_beams ? CUDA_R_16F : CUDA_R_32F, int(rows.beam_stride),
      rows.chan_stride, nchan, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void BeamformerPipeline::run(const float2* voltages, const uint8_t* flags, int64_t nsamples) {
  const BeamformerShape& s = shape_;
  reserve(nsamples);
  const Plan pl = plan(nsamples);
  const BfDetectParams params = detect_params(flags, nsamples);
  cudaStream_t stream = stream_.get();
  if (fused()) {
    if (flags)
      launch_window_scales(flags, s.tint, params.nsamples_out, window_scales_.get(), stream);
    launch_fused_detect(voltages, weights_fp16_.get(), s.nant, int(fp16_row(2 * s.nant)),
                        window_scales_.get(), params, detected_.get(), stream);
  } else {
    for (int c0 = 0; pl.group > 0 && c0 < s.nchan; c0 += pl.group) {
      const int n = std::min(pl.group, s.nchan - c0);
      multiply(pl, voltages, c0, n);
      const BeamRows rows = group_rows(pl, c0);
      if (s.detection != BeamDetection::none)
        launch_detect(rows, params, c0 / s.fscrunch, n / s.fscrunch, detected_.get(), stream);
      if (s.coherent && s.precision == BeamPrecision::fp16)
        launch_planar_to_coherent(rows, s.nbeams, c0, n, s.nchan, nsamples, s.npol, flags,
                                  coherent_.get(), stream);
    }
  }
  if (s.coherent && s.precision == BeamPrecision::fp32 && flags)
    launch_zero_flagged(complex_beams_.get(), int64_t(s.nbeams) * s.nchan, nsamples, s.npol,
                        flags, stream);
  if (s.incoherent)
    launch_incoherent(voltages, station_scale_.get(), s.nant, params, incoherent_.get(), stream);
}

}  // namespace rapt::gpu
