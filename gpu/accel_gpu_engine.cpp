// The CUDA acceleration-search engine. The whole f-fdot plane lives on the device: segments
// are loaded and normalised (block median) on the device, FFT'd in one batch, multiplied by the
// kernel spectra and inverse-FFT'd in chunks with cuFFT, and their good powers stored in the
// plane; one kernel then sums harmonics for every searched point and compacts the hits.
#include <cufft.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "accel/accel_gpu_factory.hpp"
#include "accel/fdot_kernels.hpp"
#include "accel/plane_segments.hpp"
#include "accel_kernels.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"

namespace rapt {
namespace {

using cuda::AccelDeviceHit;
using cuda::AccelSegmentGeometry;
using cuda::DeviceBuffer;

constexpr size_t kProductBudgetBytes = size_t(1) << 30;  // complex scratch per chunk
constexpr unsigned long long kInitialMaxHits = 1ULL << 22;

void check_cufft(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS) {
    throw DataError(std::string("cuFFT error ") + std::to_string(int(status)) + " in " + what);
  }
}

class CufftPlan {
 public:
  CufftPlan(int n, int batch, cudaStream_t stream) {
    check_cufft(cufftPlan1d(&plan_, n, CUFFT_C2C, batch), "cufftPlan1d");
    check_cufft(cufftSetStream(plan_, stream), "cufftSetStream");
  }
  ~CufftPlan() { cufftDestroy(plan_); }
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;
  cufftHandle get() const { return plan_; }

 private:
  cufftHandle plan_ = 0;
};

std::vector<int> subharmonic_row_table(const AccelPlan& plan) {
  std::vector<int> table(size_t(6) * 16 * plan.numz, 0);
  for (int stage = 1; stage < plan.numharm_stages; ++stage) {
    const int harmtosum = 1 << stage;
    for (int harm = 1; harm < harmtosum; harm += 2) {
      for (int row = 0; row < plan.numz; ++row) {
        table[(size_t(stage) * 16 + harm / 2) * plan.numz + row] =
            subharmonic_row(plan, row, harm, harmtosum);
      }
    }
  }
  return table;
}

template <typename T>
DeviceBuffer<T> upload(const std::vector<T>& values, cudaStream_t stream) {
  DeviceBuffer<T> buffer(values.size());
  if (!values.empty()) {
    RAPT_CUDA_CHECK(cudaMemcpyAsync(buffer.get(), values.data(), buffer.bytes(),
                                    cudaMemcpyHostToDevice, stream));
  }
  return buffer;
}

class GpuAccelEngine final : public AccelEngine {
 public:
  explicit GpuAccelEngine(int gpu_index)
      : gpu_index_(gpu_index), stream_([gpu_index] {
          cuda::DeviceGuard guard(gpu_index);
          return cuda::Stream();
        }()) {}

  std::vector<PlaneHit> search(const std::vector<std::complex<float>>& spectrum,
                               const AccelPlan& plan) override {
    cuda::DeviceGuard guard(gpu_index_);
    const cudaStream_t stream = stream_.get();
    const cuda::Event start(true), plane_done(true), stop(true);
    start.record(stream);
    prepare_kernels(plan);
    DeviceBuffer<float> plane = build_plane(spectrum, plan, stream);
    plane_done.record(stream);
    std::vector<PlaneHit> hits = search_plane(plane, plan, stream);
    stop.record(stream);
    stop.synchronize();
    timings_.plane_s = cuda::elapsed_seconds(start, plane_done);
    timings_.harmsum_s = cuda::elapsed_seconds(plane_done, stop);
    timings_.total_s = cuda::elapsed_seconds(start, stop);
    return hits;
  }

  std::string name() const override { return "gpu:" + std::to_string(gpu_index_); }
  AccelEngineTimings last_timings() const override { return timings_; }

 private:
  // Kernel spectra depend only on (fftlen, zmax); keep them across inputs.
  void prepare_kernels(const AccelPlan& plan) {
    const std::pair<int, int> key{plan.fftlen, plan.options.zmax};
    if (plan.options.plane_mode == PlaneMode::Interbin) return;  // no correlation
    if (kernels_key_ == key && kernels_.get()) return;
    const FdotKernelBank bank = make_fdot_kernel_bank(plan);
    kernels_ = DeviceBuffer<float2>(bank.spectra.size());
    RAPT_CUDA_CHECK(cudaMemcpy(kernels_.get(), bank.spectra.data(), kernels_.bytes(),
                               cudaMemcpyHostToDevice));
    kernels_key_ = key;
  }

  DeviceBuffer<float> build_plane(const std::vector<std::complex<float>>& spectrum,
                                  const AccelPlan& plan, cudaStream_t stream) {
    const std::vector<PlaneSegment> segments = plane_build_segments(plan);
    const size_t nwarmup = plan.warmup_segment_starts().size();
    const int64_t search_first_column = static_cast<int64_t>(plan.rlo) * kAccelNumBetween;
    std::vector<AccelSegmentGeometry> geometry;
    for (size_t i = 0; i < segments.size(); ++i) {
      const int64_t limit = i < nwarmup ? search_first_column : INT64_MAX;
      geometry.push_back({segments[i].first_bin, segments[i].first_column, limit});
    }
    const int nsegments = int(geometry.size());
    const int half = plan.fftlen / 2;
    DeviceBuffer<AccelSegmentGeometry> d_geometry = upload(geometry, stream);
    DeviceBuffer<float> plane(size_t(plan.numz) * plan.plane_columns());
    RAPT_CUDA_CHECK(cudaMemsetAsync(plane.get(), 0, plane.bytes(), stream));
    DeviceBuffer<float2> amplitudes(size_t(nsegments) * half);
    load_amplitudes(spectrum, plan, segments, geometry, d_geometry, amplitudes, stream);
    if (plan.options.plane_mode == PlaneMode::Interbin) {
      cuda::launch_interbin_powers(amplitudes.get(), d_geometry.get(), nsegments, half,
                                   plan.kernel_halfwidth, plan.uselen, plane.get(),
                                   plan.plane_columns(), stream);
      RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));
      return plane;
    }
    {
      const CufftPlan forward(half, nsegments, stream);
      check_cufft(cufftExecC2C(forward.get(), reinterpret_cast<cufftComplex*>(amplitudes.get()),
                               reinterpret_cast<cufftComplex*>(amplitudes.get()), CUFFT_FORWARD),
                  "forward segment FFTs");
    }
    const size_t per_segment = size_t(plan.numz) * plan.fftlen * sizeof(float2);
    const int chunk = int(std::max<size_t>(1, std::min<size_t>(nsegments,
                                                                kProductBudgetBytes / per_segment)));
    DeviceBuffer<float2> product(size_t(chunk) * plan.numz * plan.fftlen);
    const CufftPlan inverse(plan.fftlen, chunk * plan.numz, stream);
    const float scale = 1.0f / (float(plan.fftlen) * float(plan.fftlen));
    const int offset = kAccelNumBetween * plan.kernel_halfwidth;
    for (int first = 0; first < nsegments; first += chunk) {
      const int count = std::min(chunk, nsegments - first);
      cuda::launch_multiply_kernels(amplitudes.get(), kernels_.get(), first, count, plan.numz,
                                    plan.fftlen, product.get(), stream);
      // A short last chunk still runs the full batch; the extra rows are never read.
      check_cufft(cufftExecC2C(inverse.get(), reinterpret_cast<cufftComplex*>(product.get()),
                               reinterpret_cast<cufftComplex*>(product.get()), CUFFT_INVERSE),
                  "inverse correlation FFTs");
      cuda::launch_store_powers(product.get(), d_geometry.get(), first, count, plan.numz,
                                plan.fftlen, offset, plan.uselen, scale, plane.get(),
                                plan.plane_columns(), stream);
    }
    RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));  // scratch buffers die here
    return plane;
  }

  void load_amplitudes(const std::vector<std::complex<float>>& spectrum, const AccelPlan& plan,
                       const std::vector<PlaneSegment>& segments,
                       const std::vector<AccelSegmentGeometry>& geometry,
                       const DeviceBuffer<AccelSegmentGeometry>& d_geometry,
                       DeviceBuffer<float2>& amplitudes, cudaStream_t stream) {
    const int half = plan.fftlen / 2;
    if (plan.options.normalisation == SpectrumNormalisation::BlockMedian) {
      DeviceBuffer<float2> d_spectrum(spectrum.size());
      RAPT_CUDA_CHECK(cudaMemcpyAsync(d_spectrum.get(), spectrum.data(), d_spectrum.bytes(),
                                      cudaMemcpyHostToDevice, stream));
      cuda::launch_load_segments(d_spectrum.get(), int64_t(spectrum.size()), plan.options.lobin,
                                 d_geometry.get(), int(geometry.size()), half, true,
                                 amplitudes.get(), stream);
      RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));
      return;
    }
    // Local-power and photon normalisation are rare; the host does them.
    std::vector<std::complex<float>> host(size_t(segments.size()) * half);
    for (size_t i = 0; i < segments.size(); ++i) {
      load_segment_amplitudes(spectrum, plan, segments[i], host.data() + i * half);
    }
    RAPT_CUDA_CHECK(cudaMemcpy(amplitudes.get(), host.data(), amplitudes.bytes(),
                               cudaMemcpyHostToDevice));
  }

  std::vector<PlaneHit> search_plane(const DeviceBuffer<float>& plane, const AccelPlan& plan,
                                     cudaStream_t stream) {
    const int64_t first_column = static_cast<int64_t>(plan.rlo) * kAccelNumBetween;
    const int64_t ncolumns = int64_t(plan.search_segment_starts().size()) * plan.uselen;
    DeviceBuffer<float> d_powcut = upload(plan.powcut, stream);
    DeviceBuffer<int> d_sub_rows = upload(subharmonic_row_table(plan), stream);
    DeviceBuffer<unsigned long long> d_count(1);
    unsigned long long max_hits = kInitialMaxHits;
    for (;;) {
      DeviceBuffer<AccelDeviceHit> d_hits(max_hits);
      RAPT_CUDA_CHECK(cudaMemsetAsync(d_count.get(), 0, sizeof(unsigned long long), stream));
      cuda::launch_harmonic_search(plane.get(), plan.plane_columns(), plan.numz, first_column,
                                   ncolumns, plan.numharm_stages, d_powcut.get(),
                                   d_sub_rows.get(), d_hits.get(), d_count.get(), max_hits,
                                   stream);
      unsigned long long count = 0;
      RAPT_CUDA_CHECK(cudaMemcpyAsync(&count, d_count.get(), sizeof(count),
                                      cudaMemcpyDeviceToHost, stream));
      RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));
      if (count > max_hits) {  // too many to hold: search again with room for all of them
        max_hits = count;
        continue;
      }
      std::vector<AccelDeviceHit> device_hits(count);
      if (count) {
        RAPT_CUDA_CHECK(cudaMemcpy(device_hits.data(), d_hits.get(),
                                   count * sizeof(AccelDeviceHit), cudaMemcpyDeviceToHost));
      }
      std::vector<PlaneHit> hits;
      hits.reserve(count);
      for (const AccelDeviceHit& h : device_hits) {
        const int32_t segment = int32_t((h.column - first_column) / plan.uselen);
        hits.push_back(PlaneHit{segment, h.stage, h.row, h.column, h.power});
      }
      std::sort(hits.begin(), hits.end(), precedes_in_search_order);
      return hits;
    }
  }

  int gpu_index_;
  cuda::Stream stream_;
  DeviceBuffer<float2> kernels_;
  std::pair<int, int> kernels_key_{0, 0};
  AccelEngineTimings timings_;
};

}  // namespace

std::unique_ptr<AccelEngine> make_gpu_accel_engine(int gpu_index) {
  return std::make_unique<GpuAccelEngine>(gpu_index);
}

}  // namespace rapt
