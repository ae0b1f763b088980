#include "ppf_gpu_pipeline.hpp"

#include <complex>
#include <memory>
#include <stdexcept>
#include <string>

#include "cli/errors.hpp"
#include "ppf_kernels.hpp"

namespace rapt::gpu {
namespace {

void check_cufft(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS)
    throw DataError(std::string("cuFFT error ") + std::to_string(int(status)) + " in " + what);
}

int values_per_sample(const ChanneliserShape& s) { return s.real_input ? 1 : 2; }

}  // namespace

PfbFftPlan::PfbFftPlan(const ChanneliserShape& s, int64_t batch, cudaStream_t stream)
    : batch_(batch) {
  check_cufft(cufftCreate(&plan_), "cufftCreate");
  long long n = s.frame();
  long long in_embed = n, out_embed = s.real_input ? n / 2 + 1 : n;
  size_t work_bytes = 0;
  const cufftResult status =
      cufftMakePlanMany64(plan_, 1, &n, &in_embed, 1, in_embed, &out_embed, 1, out_embed,
                          s.real_input ? CUFFT_R2C : CUFFT_C2C, batch, &work_bytes);
  if (status != CUFFT_SUCCESS) {
    cufftDestroy(plan_);
    if (status == CUFFT_ALLOC_FAILED)
      throw DataError(cuda::gpu_out_of_memory_text(size_t(batch) * size_t(n) * 8));
    check_cufft(status, "cufftMakePlanMany64");
  }
  const cufftResult set = cufftSetStream(plan_, stream);
  if (set != CUFFT_SUCCESS) {
    cufftDestroy(plan_);
    check_cufft(set, "cufftSetStream");
  }
}

PfbFftPlan::~PfbFftPlan() { cufftDestroy(plan_); }

size_t ChanneliserPipeline::bytes_per_frame(const ChanneliserShape& s) {
  const size_t pairs = size_t(s.nchan_in) * size_t(s.nant);
  const size_t frame = size_t(s.frame()), vals = size_t(values_per_sample(s));
  size_t bytes = frame * s.npol * vals * 4;                               // input
  bytes += frame * s.npol * vals * 4;                                     // FIR output
  if (s.real_input) bytes += size_t(s.npol) * size_t(s.nfine + 1) * 8;    // R2C spectra
  bytes += size_t(s.npol) * size_t(s.nfine) * 8;                          // output
  return pairs * bytes;
}

ChanneliserPipeline::ChanneliserPipeline(const ChanneliserShape& shape,
                                         const std::vector<float>& prototype,
                                         const ChanneliserCorrections& corrections,
                                         int64_t max_frames)
    : shape_(shape), max_frames_(max_frames) {
  const cudaStream_t s = stream_.get();
  coefficients_ = cuda::DeviceBuffer<float>(prototype.size());
  RAPT_CUDA_CHECK(cudaMemcpyAsync(coefficients_.get(), prototype.data(), coefficients_.bytes(),
                                  cudaMemcpyHostToDevice, s));
  // Correction factors, as the CPU engine makes them (in double, then float).
  bool delays = false;
  for (double d : corrections.delay_s) delays = delays || d != 0;
  std::vector<float2> factors;
  if (delays || !corrections.bandpass_gain.empty()) {
    factor_rows_ = delays ? shape.nant : 1;
    const int nchan_out = shape.nchan_out();
    factors.resize(size_t(factor_rows_) * size_t(nchan_out));
    for (int a = 0; a < factor_rows_; ++a)
      for (int ch = 0; ch < nchan_out; ++ch) {
        const std::complex<float> f(correction_factor(corrections, a, ch));
        factors[size_t(a) * nchan_out + ch] = make_float2(f.real(), f.imag());
      }
    factors_ = cuda::DeviceBuffer<float2>(factors.size());
    RAPT_CUDA_CHECK(cudaMemcpyAsync(factors_.get(), factors.data(), factors_.bytes(),
                                    cudaMemcpyHostToDevice, s));
  }
  const size_t pairs = size_t(shape.nchan_in) * size_t(shape.nant);
  const size_t frame = size_t(shape.frame()), vals = size_t(values_per_sample(shape));
  const size_t history = pairs * size_t(shape.ntaps - 1) * frame * shape.npol * vals;
  for (auto& h : history_) {
    h = cuda::DeviceBuffer<float>(history);
    if (history) RAPT_CUDA_CHECK(cudaMemsetAsync(h.get(), 0, h.bytes(), s));
  }
  max_frames_ = 0;
  reserve(max_frames);
  // The host vectors above must outlive their copies.
  RAPT_CUDA_CHECK(cudaStreamSynchronize(s));
}

void ChanneliserPipeline::reserve(int64_t max_frames) {
  if (max_frames <= max_frames_) return;
  // The old buffers go first, so that the new ones can use their memory.
  fir_ = cuda::DeviceBuffer<float>();
  spectra_ = cuda::DeviceBuffer<float2>();
  const size_t rows = size_t(shape_.nchan_in) * size_t(shape_.nant) * size_t(shape_.npol) *
                      size_t(max_frames);
  fir_ = cuda::DeviceBuffer<float>(rows * size_t(shape_.frame()) * values_per_sample(shape_));
  if (shape_.real_input) spectra_ = cuda::DeviceBuffer<float2>(rows * size_t(shape_.nfine + 1));
  max_frames_ = max_frames;
}

const PfbFftPlan& ChanneliserPipeline::plan_for(int64_t nframes) {
  const int64_t batch = int64_t(shape_.nchan_in) * shape_.nant * shape_.npol * nframes;
  for (const auto& plan : plans_)
    if (plan && plan->batch() == batch) return *plan;
  auto& slot = plans_[next_plan_];
  next_plan_ ^= 1;
  slot.reset();  // its memory back before the new plan asks for some
  slot = std::make_unique<PfbFftPlan>(shape_, batch, stream());
  return *slot;
}

void ChanneliserPipeline::run(const float* input, int64_t nframes, float2* out,
                              const PfbPassEvents* events) {
  if (nframes <= 0) return;
  if (nframes > max_frames_)
    throw std::invalid_argument("channeliser pipeline: a chunk of " + std::to_string(nframes) +
                                " frames; the buffers hold " + std::to_string(max_frames_));
  const cudaStream_t s = stream();
  PfbFirParams fir;
  fir.pairs = int64_t(shape_.nchan_in) * shape_.nant;
  fir.npol = shape_.npol;
  fir.complex_input = !shape_.real_input;
  fir.frame = shape_.frame();
  fir.ntaps = shape_.ntaps;
  fir.nframes = nframes;
  const float* history = history_[current_history_].get();
  launch_pfb_fir(input, history, coefficients_.get(), fir_.get(), fir, s);
  launch_pfb_history(input, history, history_[current_history_ ^ 1].get(), fir, s);
  current_history_ ^= 1;
  // The plan first: making one (a new chunk size) is not FFT time.
  const PfbFftPlan& plan = plan_for(nframes);
  if (events) events->fir.record(s);

  float2* spectra = nullptr;
  if (shape_.real_input) {
    check_cufft(cufftExecR2C(plan.get(), reinterpret_cast<cufftReal*>(fir_.get()),
                             reinterpret_cast<cufftComplex*>(spectra_.get())),
                "cufftExecR2C");
    spectra = spectra_.get();
  } else {
    check_cufft(cufftExecC2C(plan.get(), reinterpret_cast<cufftComplex*>(fir_.get()),
                             reinterpret_cast<cufftComplex*>(fir_.get()), CUFFT_FORWARD),
                "cufftExecC2C");
    spectra = reinterpret_cast<float2*>(fir_.get());
  }
  if (events) events->fft.record(s);

  PfbPostParams post;
  post.nchan_in = shape_.nchan_in;
  post.nant = shape_.nant;
  post.npol = shape_.npol;
  post.nfine = shape_.nfine;
  post.bins = shape_.real_input ? shape_.nfine + 1 : shape_.nfine;
  post.nframes = nframes;
  post.bin_mode = shape_.real_input ? 0 : (shape_.inverted ? 2 : 1);
  post.conjugate = pfb_conjugates(shape_);
  post.factor_rows = factor_rows_;
  launch_pfb_post(spectra, factors_.get(), out, post, s);
  if (events) events->post.record(s);
}

}  // namespace rapt::gpu
