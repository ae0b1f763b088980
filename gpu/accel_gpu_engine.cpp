// The CUDA acceleration-search engine. The whole f-fdot plane lives on the device: segments
// are loaded and normalised (block median) on the device, FFT'd in one batch, multiplied by the
// kernel spectra and inverse-FFT'd in chunks with cuFFT, and their good powers stored in the
// plane; one kernel then sums harmonics for every searched point and compacts the hits.
#include <cufft.h>

#include <algorithm>
#include <cmath>
#include <memory>
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

// Device memory and cuFFT plans kept from one search to the next: a batch of DM trials of one
// length reuses them all, so no search after the first allocates or plans anything.
struct AccelWorkspace {
  int64_t plane_floats = 0;
  DeviceBuffer<float> plane;
  DeviceBuffer<float2> spectrum, amplitudes, product;
  cuda::PinnedBuffer<float2> staging;
  DeviceBuffer<AccelSegmentGeometry> geometry;
  DeviceBuffer<float> powcut;
  DeviceBuffer<int> sub_rows;
  DeviceBuffer<unsigned long long> count;
  DeviceBuffer<AccelDeviceHit> hits;
  std::unique_ptr<CufftPlan> forward, inverse;
  std::pair<int, int> forward_key{0, 0}, inverse_key{0, 0};  // (length, batch)
};

template <typename T, typename Memory>
void ensure_size(cuda::OwnedBuffer<T, Memory>& buffer, size_t count) {
  if (buffer.size() < count) buffer = cuda::OwnedBuffer<T, Memory>(count);
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
    const float* plane = build_plane(spectrum, plan, stream);
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

  const float* build_plane(const std::vector<std::complex<float>>& spectrum,
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
    ensure_size(work_.geometry, geometry.size());
    RAPT_CUDA_CHECK(cudaMemcpyAsync(work_.geometry.get(), geometry.data(),
                                    geometry.size() * sizeof(AccelSegmentGeometry),
                                    cudaMemcpyHostToDevice, stream));
    // Every column a search reads is written by a segment, except the few below the first
    // segment: zeroing a new plane once is enough.
    const int64_t plane_floats = int64_t(plan.numz) * plan.plane_columns();
    if (work_.plane_floats != plane_floats) {
      work_.plane = DeviceBuffer<float>();
      work_.plane = DeviceBuffer<float>(size_t(plane_floats));
      RAPT_CUDA_CHECK(cudaMemsetAsync(work_.plane.get(), 0, work_.plane.bytes(), stream));
      work_.plane_floats = plane_floats;
    }
    float* plane = work_.plane.get();
    ensure_size(work_.amplitudes, size_t(nsegments) * half);
    load_amplitudes(spectrum, plan, segments, geometry, stream);
    if (plan.options.plane_mode == PlaneMode::Interbin) {
      cuda::launch_interbin_powers(work_.amplitudes.get(), work_.geometry.get(), nsegments, half,
                                   plan.kernel_halfwidth, plan.uselen, plane,
                                   plan.plane_columns(), stream);
      return plane;
    }
    const CufftPlan& forward = cufft_plan(work_.forward, work_.forward_key, half, nsegments,
                                          stream);
    check_cufft(cufftExecC2C(forward.get(), reinterpret_cast<cufftComplex*>(work_.amplitudes.get()),
                             reinterpret_cast<cufftComplex*>(work_.amplitudes.get()), CUFFT_FORWARD),
                "forward segment FFTs");
    const float scale = 1.0f / (float(plan.fftlen) * float(plan.fftlen));
    const int offset = kAccelNumBetween * plan.kernel_halfwidth;
    if (cuda::fused_correlation_supported(plan.fftlen)) {
      cuda::launch_correlate_fused(work_.amplitudes.get(), kernels_.get(), work_.geometry.get(),
                                   nsegments, plan.numz, plan.fftlen,
                                   offset, plan.uselen, scale, plane, plan.plane_columns(),
                                   stream);
      return plane;
    }
    // Longer FFTs (zmax above about 730): cuFFT in batches through device memory.
    const size_t per_segment = size_t(plan.numz) * plan.fftlen * sizeof(float2);
    const int chunk = int(std::max<size_t>(1, std::min<size_t>(nsegments,
                                                                kProductBudgetBytes / per_segment)));
    ensure_size(work_.product, size_t(chunk) * plan.numz * plan.fftlen);
    const CufftPlan& inverse = cufft_plan(work_.inverse, work_.inverse_key, plan.fftlen,
                                          chunk * plan.numz, stream);
    for (int first = 0; first < nsegments; first += chunk) {
      const int count = std::min(chunk, nsegments - first);
      cuda::launch_multiply_kernels(work_.amplitudes.get(), kernels_.get(), first, count,
                                    plan.numz, plan.fftlen, work_.product.get(), stream);
      // A short last chunk still runs the full batch; the extra rows are never read.
      check_cufft(cufftExecC2C(inverse.get(), reinterpret_cast<cufftComplex*>(work_.product.get()),
                               reinterpret_cast<cufftComplex*>(work_.product.get()),
                               CUFFT_INVERSE),
                  "inverse correlation FFTs");
      cuda::launch_store_powers(work_.product.get(), work_.geometry.get(), first, count,
                                plan.numz, plan.fftlen, offset, plan.uselen, scale, plane,
                                plan.plane_columns(), stream);
    }
    return plane;
  }

  static const CufftPlan& cufft_plan(std::unique_ptr<CufftPlan>& plan, std::pair<int, int>& key,
                                     int length, int batch, cudaStream_t stream) {
    if (!plan || key != std::make_pair(length, batch)) {
      plan.reset();
      plan = std::make_unique<CufftPlan>(length, batch, stream);
      key = {length, batch};
    }
    return *plan;
  }

  void load_amplitudes(const std::vector<std::complex<float>>& spectrum, const AccelPlan& plan,
                       const std::vector<PlaneSegment>& segments,
                       const std::vector<AccelSegmentGeometry>& geometry, cudaStream_t stream) {
    const int half = plan.fftlen / 2;
    if (plan.options.normalisation == SpectrumNormalisation::BlockMedian) {
      // Through page-locked memory, so the copy runs at full link speed.
      ensure_size(work_.staging, spectrum.size());
      ensure_size(work_.spectrum, spectrum.size());
      std::copy(spectrum.begin(), spectrum.end(),
                reinterpret_cast<std::complex<float>*>(work_.staging.get()));
      RAPT_CUDA_CHECK(cudaMemcpyAsync(work_.spectrum.get(), work_.staging.get(),
                                      spectrum.size() * sizeof(float2), cudaMemcpyHostToDevice,
                                      stream));
      cuda::launch_load_segments(work_.spectrum.get(), int64_t(spectrum.size()),
                                 plan.options.lobin, work_.geometry.get(), int(geometry.size()),
                                 half, true, work_.amplitudes.get(), stream);
      return;
    }
    // Local-power and photon normalisation are rare; the host does them.
    std::vector<std::complex<float>> host(size_t(segments.size()) * half);
    for (size_t i = 0; i < segments.size(); ++i) {
      load_segment_amplitudes(spectrum, plan, segments[i], host.data() + i * half);
    }
    RAPT_CUDA_CHECK(cudaMemcpyAsync(work_.amplitudes.get(), host.data(),
                                    host.size() * sizeof(float2), cudaMemcpyHostToDevice, stream));
    RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));  // `host` dies here
  }

  std::vector<PlaneHit> search_plane(const float* plane, const AccelPlan& plan,
                                     cudaStream_t stream) {
    const int64_t first_column = static_cast<int64_t>(plan.rlo) * kAccelNumBetween;
    const int64_t ncolumns = int64_t(plan.search_segment_starts().size()) * plan.uselen;
    const std::vector<int> sub_rows = subharmonic_row_table(plan);
    ensure_size(work_.powcut, plan.powcut.size());
    ensure_size(work_.sub_rows, sub_rows.size());
    ensure_size(work_.count, 1);
    RAPT_CUDA_CHECK(cudaMemcpyAsync(work_.powcut.get(), plan.powcut.data(),
                                    plan.powcut.size() * sizeof(float), cudaMemcpyHostToDevice,
                                    stream));
    RAPT_CUDA_CHECK(cudaMemcpyAsync(work_.sub_rows.get(), sub_rows.data(),
                                    sub_rows.size() * sizeof(int), cudaMemcpyHostToDevice, stream));
    ensure_size(work_.hits, kInitialMaxHits);
    for (;;) {
      const unsigned long long max_hits = work_.hits.size();
      RAPT_CUDA_CHECK(cudaMemsetAsync(work_.count.get(), 0, sizeof(unsigned long long), stream));
      cuda::launch_harmonic_search(plane, plan.plane_columns(), plan.numz, first_column, ncolumns,
                                   plan.numharm_stages, work_.powcut.get(), work_.sub_rows.get(),
                                   work_.hits.get(), work_.count.get(), max_hits, stream);
      unsigned long long count = 0;
      RAPT_CUDA_CHECK(cudaMemcpyAsync(&count, work_.count.get(), sizeof(count),
                                      cudaMemcpyDeviceToHost, stream));
      RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));
      if (count > max_hits) {  // too many to hold: search again with room for all of them
        work_.hits = DeviceBuffer<AccelDeviceHit>();
        work_.hits = DeviceBuffer<AccelDeviceHit>(count);
        continue;
      }
      std::vector<AccelDeviceHit> device_hits(count);
      if (count) {
        RAPT_CUDA_CHECK(cudaMemcpy(device_hits.data(), work_.hits.get(),
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
  AccelWorkspace work_;
  AccelEngineTimings timings_;
};

}  // namespace

std::unique_ptr<AccelEngine> make_gpu_accel_engine(int gpu_index) {
  return std::make_unique<GpuAccelEngine>(gpu_index);
}

}  // namespace rapt
