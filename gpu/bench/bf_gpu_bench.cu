// The benchmark's GPU beam forming: random 8-bit voltages, weights made on the GPU, the device
// pipeline timed with its input already on the GPU and after the upload, and a spot check of
// the detected output against a CPU sum in double precision.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "../bf/bf_gpu_pipeline.hpp"
#include "../cuda/device_buffer.hpp"
#include "bf_gpu_bench.hpp"

namespace rapt::gpu {
namespace {

constexpr int kThreads = 256;

// Phase of weight (c, b, a) in turns: 24 random bits, the same on host and device.
__host__ __device__ inline float weight_turns(int c, int b, int a) {
  uint32_t x = uint32_t(c) * 0x9E3779B1u ^ uint32_t(b) * 0x85EBCA77u ^ uint32_t(a) * 0xC2B2AE3Du;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return float(x >> 8) * (1.0f / 16777216.0f);
}

__global__ void fill_weights_kernel(float2* w, int nchan, int nbeams, int nant) {
  const int64_t count = int64_t(nchan) * nbeams * nant;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int c = int(i / (int64_t(nbeams) * nant)), b = int((i / nant) % nbeams);
    const int a = int(i % nant);
    float s, co;
    sincospif(2.0f * weight_turns(c, b, a), &s, &co);
    w[i] = make_float2(co / float(nant), s / float(nant));
  }
}

__global__ void unpack_int8_kernel(const int8_t* in, float* out, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = float(in[i]);
}

void launch_unpack(const int8_t* in, float2* out, size_t bytes, cudaStream_t stream) {
  const unsigned blocks = unsigned(std::min<size_t>((bytes + kThreads - 1) / kThreads, 1 << 16));
  unpack_int8_kernel<<<blocks, kThreads, 0, stream>>>(in, reinterpret_cast<float*>(out), bytes);
  RAPT_CUDA_CHECK_LAUNCH("8-bit unpack kernel");
}

// Random bytes (splitmix64), filled by all host threads.
void fill_random(int8_t* data, size_t bytes) {
  const unsigned nthreads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  const size_t words = bytes / 8, per = (words + nthreads - 1) / nthreads;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < nthreads; ++t)
    threads.emplace_back([=] {
      for (size_t i = t * per; i < std::min(words, (t + 1) * per); ++i) {
        uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        for (int k = 0; k < 8; ++k) data[i * 8 + k] = int8_t(z >> (8 * k));
      }
    });
  for (auto& th : threads) th.join();
  for (size_t i = words * 8; i < bytes; ++i) data[i] = int8_t(i * 37);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Stokes I of beams and output channels at the edges and the middle, every output sample,
// against sums in double from the 8-bit input and the weights' phases.
void check_stokes_i(const BeamformerShape& s, int64_t nsamples, const int8_t* x,
                    const float* detected_dev, GpuBeamformerTiming& t) {
  const int64_t nout = nsamples / s.tint;
  const int nco = s.nchan_out(), nst = s.nstokes();
  std::vector<double> ref, got;
  std::vector<float> column(static_cast<size_t>(nout));
  std::vector<std::complex<double>> w(static_cast<size_t>(s.nant));
  for (const int b : {0, s.nbeams / 2, s.nbeams - 1}) {
    for (const int co : {0, nco / 2, nco - 1}) {
      RAPT_CUDA_CHECK(cudaMemcpy2D(column.data(), sizeof(float),
                                   detected_dev + int64_t(b) * nout * nst * nco + co,
                                   sizeof(float) * size_t(nst) * nco, sizeof(float), size_t(nout),
                                   cudaMemcpyDeviceToHost));
      std::vector<double> sums(static_cast<size_t>(nout), 0.0);
      for (int c = co * s.fscrunch; c < (co + 1) * s.fscrunch; ++c) {
        for (int a = 0; a < s.nant; ++a)
          w[size_t(a)] = std::polar(1.0 / s.nant, 2.0 * M_PI * double(weight_turns(c, b, a)));
        for (int64_t tt = 0; tt < nsamples; ++tt) {
          for (int p = 0; p < s.npol; ++p) {
            std::complex<double> y = 0.0;
            for (int a = 0; a < s.nant; ++a) {
              const int8_t* v =
                  x + (((int64_t(c) * s.nant + a) * nsamples + tt) * s.npol + p) * 2;
              y += w[size_t(a)] * std::complex<double>(v[0], v[1]);
            }
            sums[size_t(tt / s.tint)] += std::norm(y);
          }
        }
      }
      ref.insert(ref.end(), sums.begin(), sums.end());
      got.insert(got.end(), column.begin(), column.end());
    }
  }
  double sum_sq = 0.0;
  for (double v : ref) sum_sq += v * v;
  const double rms = std::sqrt(sum_sq / double(ref.size()));
  t.tolerance = s.precision == BeamPrecision::fp16 ? 1e-2 : 1e-4;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double err = std::fabs(got[i] - ref[i]) / rms;
    t.max_error = std::max(t.max_error, std::isfinite(err) ? err : 1e30);
    if (!(err <= t.tolerance)) ++t.mismatches;
  }
  t.checked = ref.size();
}

}  // namespace

GpuBeamformerTiming time_gpu_beamformer(const BeamformerShape& shape, int64_t nsamples, int gpu,
                                        int repeats, bool fp16_fused) {
  const cuda::DeviceGuard guard(gpu);
  BfPipelineOptions options;
  options.fused_fp16 = fp16_fused;
  BeamformerPipeline pipeline(shape, options);
  const cudaStream_t stream = pipeline.stream();
  GpuBeamformerTiming t;
  t.upload_bytes = size_t(shape.nchan) * shape.nant * size_t(nsamples) * shape.npol * 2;
  t.group_channels = pipeline.group_channels(nsamples);

  cuda::PinnedBuffer<int8_t> host(t.upload_bytes);
  fill_random(host.get(), t.upload_bytes);
  cuda::DeviceBuffer<int8_t> packed(t.upload_bytes);
  cuda::DeviceBuffer<float2> voltages(t.upload_bytes / 2);

  const int64_t nweights = int64_t(shape.nchan) * shape.nbeams * shape.nant;
  fill_weights_kernel<<<unsigned(std::min<int64_t>((nweights + kThreads - 1) / kThreads, 1 << 16)),
                        kThreads, 0, stream>>>(pipeline.weights_device(), shape.nchan,
                                               shape.nbeams, shape.nant);
  RAPT_CUDA_CHECK_LAUNCH("weights fill kernel");
  const std::vector<float> scale(size_t(shape.nant), 1.0f / float(shape.nant));
  RAPT_CUDA_CHECK(cudaMemcpyAsync(pipeline.station_scale_device(), scale.data(),
                                  scale.size() * sizeof(float), cudaMemcpyHostToDevice, stream));
  pipeline.weights_changed();
  pipeline.reserve(nsamples);

  const cuda::Event start(true), stop(true);
  auto timed = [&](bool upload) {
    std::vector<double> times;
    for (int r = 0; r <= repeats; ++r) {  // the first run warms up
      start.record(stream);
      if (upload) {
        RAPT_CUDA_CHECK(cudaMemcpyAsync(packed.get(), host.get(), t.upload_bytes,
                                        cudaMemcpyHostToDevice, stream));
        launch_unpack(packed.get(), voltages.get(), t.upload_bytes, stream);
      }
      pipeline.run(voltages.get(), nullptr, nsamples);
      stop.record(stream);
      stop.synchronize();
      if (r > 0) times.push_back(cuda::elapsed_seconds(start, stop));
    }
    return median(times);
  };
  t.with_upload_s = timed(true);  // leaves the voltages on the GPU for the kernel timing
  t.kernel_s = timed(false);
  if (shape.detection != BeamDetection::none)
    check_stokes_i(shape, nsamples, host.get(), pipeline.detected(), t);
  return t;
}

GpuPeakRates gpu_peak_rates(int gpu) {
  cudaDeviceProp prop{};
  RAPT_CUDA_CHECK(cudaGetDeviceProperties(&prop, gpu));
  int clock_khz = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, gpu) != cudaSuccess) {
    cudaGetLastError();
    clock_khz = 0;
  }
  const double clock_hz = double(clock_khz) * 1e3;
  const int lanes = (prop.major == 8 && prop.minor == 0) || prop.major < 8 ? 64 : 128;
  GpuPeakRates r;
  r.fp32_flops = double(prop.multiProcessorCount) * lanes * 2.0 * clock_hz;
  char text[256];
  std::snprintf(text, sizeof text, "FP32: %d SMs x %d lanes x 2 x %.2f GHz = %.1f TFLOP/s",
                prop.multiProcessorCount, lanes, clock_hz * 1e-9, r.fp32_flops * 1e-12);
  r.source = text;
  const std::string name = prop.name;
  auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
  // Dense FP16 tensor rates with FP32 accumulation from NVIDIA's data sheets.
  if (has("H100") && has("NVL")) {
    r.fp16_tensor_flops = 835e12;
    r.source += "; FP16 tensor: 835 TFLOP/s dense (H100 NVL data sheet)";
  } else if (has("H100") && has("PCIe")) {
    r.fp16_tensor_flops = 756e12;
    r.source += "; FP16 tensor: 756 TFLOP/s dense (H100 PCIe data sheet)";
  } else if (has("H100") || has("H200")) {
    r.fp16_tensor_flops = 989.4e12;
    r.source += "; FP16 tensor: 989 TFLOP/s dense (H100/H200 SXM data sheet)";
  } else if (has("A100")) {
    r.fp16_tensor_flops = 312e12;
    r.source += "; FP16 tensor: 312 TFLOP/s dense (A100 data sheet)";
  } else {
    const double per_sm_clock = prop.major >= 9 ? 4096.0 : prop.major == 8 ? 2048.0 : 1024.0;
    r.fp16_tensor_flops = double(prop.multiProcessorCount) * per_sm_clock * clock_hz;
    std::snprintf(text, sizeof text,
                  "; FP16 tensor: %d SMs x %.0f x %.2f GHz = %.0f TFLOP/s (estimated)",
                  prop.multiProcessorCount, per_sm_clock, clock_hz * 1e-9,
                  r.fp16_tensor_flops * 1e-12);
    r.source += text;
  }
  return r;
}

}  // namespace rapt::gpu
