// The benchmark's GPU channeliser: random 8-bit-valued input made on the GPU, the device
// pipeline timed pass by pass with its input already there, the engine timed from host memory,
// and three streams checked against the CPU engine.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "../cuda/device_buffer.hpp"
#include "../cuda/random_words.hpp"
#include "../ppf/ppf_gpu_pipeline.hpp"
#include "ppf/ppf_gpu_factory.hpp"
#include "ppf_gpu_bench.hpp"

namespace rapt::gpu {
namespace {

constexpr int kThreads = 256;

__global__ void fill_int8_values(float* data, size_t count, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    data[i] = float(int8_t(random_byte(i, seed)));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Bytes each pass reads and writes: the FIR its input, the history and its output (and the
// history update); the FFT its input and output; the post kernel the bins it takes and the
// output.
double moved_bytes(const ChanneliserShape& s, int64_t nframes) {
  const double pairs = double(s.nchan_in) * s.nant;
  const double vals = s.real_input ? 1 : 2;
  const double samples = double(nframes) * s.frame();          // per stream
  const double history = double(s.ntaps - 1) * s.frame();      // per stream
  const double rows = pairs * s.npol * double(nframes);        // FFT rows
  const double in = pairs * s.npol * samples * vals * 4;
  const double hist = pairs * s.npol * history * vals * 4;
  const double fir = in;
  const double spectra = s.real_input ? rows * (s.nfine + 1) * 8.0 : fir;
  const double used = rows * s.nfine * 8.0;                    // bins read, output written
  return (in + hist + fir + 2 * hist) + (fir + spectra) + 2 * used;
}

// The CPU engine on the streams of three (channel, antenna) pairs, each run twice over the
// pair's input (the GPU's history after its runs is the end of that same input).
void check_streams(const ChanneliserShape& s, const std::vector<float>& prototype,
                   const float* input_dev, const float2* output_dev, int64_t nframes,
                   GpuChanneliserTiming& t) {
  ChanneliserShape one = s;
  one.nchan_in = 1;
  one.nant = 1;
  const int64_t pairs = int64_t(s.nchan_in) * s.nant;
  const size_t row = size_t(nframes) * s.frame() * s.npol * (s.real_input ? 1 : 2);
  std::vector<float> input(row), want, got(size_t(nframes) * s.npol * 2);
  std::vector<double> errors;
  double sum2 = 0;
  size_t count = 0;
  for (const int64_t pair : {int64_t(0), pairs / 2, pairs - 1}) {
    RAPT_CUDA_CHECK(cudaMemcpy(input.data(), input_dev + size_t(pair) * row, row * sizeof(float),
                               cudaMemcpyDeviceToHost));
    auto cpu = make_cpu_channeliser(one, prototype, {}, int(std::max(1u, std::thread::hardware_concurrency())));
    cpu->process(input.data(), nframes * s.frame(), want);
    cpu->process(input.data(), nframes * s.frame(), want);
    const int c = int(pair / s.nant), a = int(pair % s.nant);
    for (int j = 0; j < s.nfine; ++j) {
      const int64_t channel = int64_t(c) * s.nfine + j;
      RAPT_CUDA_CHECK(cudaMemcpy(got.data(),
                                 output_dev + (channel * s.nant + a) * nframes * s.npol,
                                 got.size() * sizeof(float), cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < got.size(); ++i) {
        const double w = want[size_t(j) * got.size() + i];
        errors.push_back(std::fabs(got[i] - w));
        sum2 += w * w;
        ++count;
      }
    }
  }
  const double rms = std::sqrt(sum2 / double(std::max<size_t>(count, 1)));
  for (double e : errors) {
    const double relative = rms > 0 ? e / rms : e;
    t.max_error = std::max(t.max_error, std::isfinite(relative) ? relative : 1e30);
    if (!(relative <= 1e-5)) ++t.mismatches;
  }
  t.checked = errors.size();
}

}  // namespace

GpuChanneliserTiming time_gpu_channeliser(const ChanneliserShape& shape, int64_t nframes, int gpu,
                                          int repeats) {
  const cuda::DeviceGuard guard(gpu);
  PfbDesign design;
  design.nfine = shape.nfine;
  design.ntaps = shape.ntaps;
  const std::vector<float> prototype = pfb_prototype(design, shape);
  GpuChanneliserTiming t;
  const size_t input_floats = size_t(shape.nchan_in) * shape.nant * size_t(nframes) *
                              shape.frame() * shape.npol * (shape.real_input ? 1 : 2);
  const size_t output_values = size_t(shape.nchan_out()) * shape.nant * size_t(nframes) * shape.npol;
  t.input_bytes = double(input_floats) * 4;
  t.output_bytes = double(output_values) * 8;
  t.moved_bytes = moved_bytes(shape, nframes);
  {
    ChanneliserPipeline pipeline(shape, prototype, {}, nframes);
    const cudaStream_t stream = pipeline.stream();
    cuda::DeviceBuffer<float> input(input_floats);
    cuda::DeviceBuffer<float2> output(output_values);
    fill_int8_values<<<unsigned(std::min<size_t>((input_floats + kThreads - 1) / kThreads, 1 << 16)),
                       kThreads, 0, stream>>>(input.get(), input_floats, 12345u);
    RAPT_CUDA_CHECK_LAUNCH("random input fill");
    const cuda::Event start(true);
    const PfbPassEvents events;
    std::vector<double> total, fir, fft, post;
    for (int r = 0; r <= repeats; ++r) {  // the first run warms up (and makes the FFT plan)
      start.record(stream);
      pipeline.run(input.get(), nframes, output.get(), &events);
      events.post.synchronize();
      if (r == 0) continue;
      total.push_back(cuda::elapsed_seconds(start, events.post));
      fir.push_back(cuda::elapsed_seconds(start, events.fir));
      fft.push_back(cuda::elapsed_seconds(events.fir, events.fft));
      post.push_back(cuda::elapsed_seconds(events.fft, events.post));
    }
    t.kernel_s = median(total);
    t.fir_s = median(fir);
    t.fft_s = median(fft);
    t.post_s = median(post);
    check_streams(shape, prototype, input.get(), output.get(), nframes, t);
  }
  // The engine from host memory: a warm-up call (allocations), then the timed one.
  std::vector<float> host(input_floats), out;
  for (size_t i = 0; i < input_floats; ++i) host[i] = float(int8_t(random_byte(i, 777u)));
  auto engine = make_cuda_channeliser(shape, prototype, {}, gpu);
  engine->process(host.data(), nframes * shape.frame(), out);
  const auto began = std::chrono::steady_clock::now();
  engine->process(host.data(), nframes * shape.frame(), out);
  t.engine_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return t;
}

}  // namespace rapt::gpu
