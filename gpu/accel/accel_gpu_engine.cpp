// The CUDA acceleration-search engine. The whole f-fdot plane lives on the device: segments
// are loaded and normalised (block median) on the device, FFT'd in batches with cuFFT,
// correlated with the kernel spectra by fused multiply, inverse-FFT and power kernels, and
// their good powers stored in the plane as float or half; one kernel then sums harmonics for every searched point and
// compacts the hits. Searches may be called from several threads at once: each takes a
// workspace of its own (stream, buffers, cuFFT plans), so that several DM trials are in flight
// on the device, one's upload and host work overlapping another's kernels.
#include <cufft.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "accel/accel_gpu_factory.hpp"
#include "accel/fdot_kernels.hpp"
#include "accel/plane_segments.hpp"
#include "accel_kernels.hpp"
#include "../cuda/cuda_check.hpp"
#include "../cuda/device_buffer.hpp"

namespace rapt {
namespace {

using cuda::AccelDeviceHit;
using cuda::AccelSegmentGeometry;
using cuda::DeviceBuffer;

constexpr unsigned long long kInitialMaxHits = 1ULL << 22;

void check_cufft(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS) {
    throw DataError(std::string("cuFFT error ") + std::to_string(int(status)) + " in " + what);
  }
}

// The device memory a plan of `batch` transforms of length `n` asks for: cuFFT's estimate of
// its work area, or the batch itself when cuFFT gives none.
size_t cufft_plan_bytes(int n, int batch) {
  size_t work_bytes = 0;
  if (cufftEstimate1d(n, CUFFT_C2C, batch, &work_bytes) == CUFFT_SUCCESS && work_bytes > 0)
    return work_bytes;
  return size_t(n) * size_t(batch) * sizeof(cufftComplex);
}

// Plan creation reports a device allocation that did not fit as CUFFT_ALLOC_FAILED, and in
// some cuFFT versions as a setup or internal error; the latter count as out of memory when the
// free memory is below what the plan needs.
bool plan_failed_for_memory(cufftResult status, size_t plan_bytes) {
  if (status == CUFFT_ALLOC_FAILED) return true;
  if (status != CUFFT_INTERNAL_ERROR && status != CUFFT_SETUP_FAILED) return false;
  size_t free_bytes = 0, total_bytes = 0;
  const bool known = cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess;
  cudaGetLastError();
  return known && free_bytes < plan_bytes;
}

class CufftPlan {
 public:
  CufftPlan(int n, int batch, cudaStream_t stream) {
    const cufftResult status = cufftPlan1d(&plan_, n, CUFFT_C2C, batch);
    if (status != CUFFT_SUCCESS) {
      const size_t plan_bytes = cufft_plan_bytes(n, batch);
      if (plan_failed_for_memory(status, plan_bytes))
        throw DataError(cuda::gpu_out_of_memory_text(plan_bytes));
      check_cufft(status, "cufftPlan1d");
    }
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

constexpr int kUploadGroups = 2;  // the spectrum goes up in two parts (see build_plane)

// Device memory and cuFFT plans kept from one search to the next: a batch of DM trials of one
// length reuses them all, so no search after the first allocates or plans anything.
struct AccelWorkspace {
  cuda::Stream stream;
  cuda::Stream upload_stream;
  cuda::Event kernels_done;                   // the end of its last run of kernels (KernelTurn)
  cuda::Event uploaded[kUploadGroups];        // each part of the spectrum is on the device
  size_t plane_bytes = 0;
  DeviceBuffer<unsigned char> plane;
  DeviceBuffer<float2> spectrum, amplitudes;
  cuda::PinnedBuffer<float2> staging;
  DeviceBuffer<AccelSegmentGeometry> geometry;
  DeviceBuffer<float> powcut;
  DeviceBuffer<int> sub_rows;
  DeviceBuffer<unsigned long long> count;
  DeviceBuffer<AccelDeviceHit> hits;
  std::unique_ptr<CufftPlan> forward[kUploadGroups];
  std::pair<int, int> forward_key[kUploadGroups];  // (length, batch)
};

template <typename T, typename Memory>
void ensure_size(cuda::OwnedBuffer<T, Memory>& buffer, size_t count) {
  if (buffer.size() < count) buffer = cuda::OwnedBuffer<T, Memory>(count);
}

// Consecutive segments whose spectrum goes up together: they need the spectrum's values below
// spectrum_end (and the groups before them have uploaded all but the last part).
struct SegmentGroup {
  int first = 0, count = 0;
  size_t spectrum_end = 0;
};

// The segments in up to kUploadGroups groups of about equal size; the last group's end is the
// whole spectrum.
std::vector<SegmentGroup> segment_groups(const std::vector<AccelSegmentGeometry>& geometry,
                                         int half, int64_t lobin, size_t spectrum_size) {
  const int nsegments = int(geometry.size());
  const int ngroups = std::max(1, std::min(kUploadGroups, nsegments));
  std::vector<SegmentGroup> groups;
  size_t end = 0;
  for (int g = 0; g < ngroups; ++g) {
    SegmentGroup group;
    group.first = int(int64_t(nsegments) * g / ngroups);
    group.count = int(int64_t(nsegments) * (g + 1) / ngroups) - group.first;
    for (int i = group.first; i < group.first + group.count; ++i) {
      const int64_t last = geometry[size_t(i)].first_bin - lobin + half;
      end = std::max(end, size_t(std::clamp<int64_t>(last, 0, int64_t(spectrum_size))));
    }
    group.spectrum_end = g + 1 == ngroups ? spectrum_size : end;
    groups.push_back(group);
  }
  return groups;
}

// Spectra of the f-fdot kernels for one (fftlen, zmax): shared by the searches in flight.
struct KernelSpectra {
  std::pair<int, int> key{0, 0};
  DeviceBuffer<float2> spectra;
};

class GpuAccelEngine final : public AccelEngine {
 public:
  explicit GpuAccelEngine(int gpu_index) : gpu_index_(gpu_index) {}
  // The workspaces and kernel spectra live on this engine's device: they are freed with it
  // current, whichever device the destroying thread has.
  ~GpuAccelEngine() override {
    try {
      cuda::DeviceGuard guard(gpu_index_);
      free_workspaces_.clear();
      kernels_.reset();
      no_kernels_.reset();
    } catch (...) {  // the members then go with whatever device is current
    }
  }
  GpuAccelEngine(const GpuAccelEngine&) = delete;
  GpuAccelEngine& operator=(const GpuAccelEngine&) = delete;

  std::vector<PlaneHit> search(const std::vector<std::complex<float>>& spectrum,
                               const AccelPlan& plan, AccelEngineTimings& timings) override {
    cuda::DeviceGuard guard(gpu_index_);
    const std::shared_ptr<const KernelSpectra> kernels = kernel_spectra(plan);
    WorkspaceLease lease(*this, plan);
    AccelWorkspace& work = lease.get();
    if (plan.options.plane_precision == PlanePrecision::Float16) {
      return search_with<__half>(spectrum, plan, *kernels, work, timings);
    }
    return search_with<float>(spectrum, plan, *kernels, work, timings);
  }

  std::string name() const override { return "gpu:" + std::to_string(gpu_index_); }
  int concurrent_searches() const override { return kMaxSearchesInFlight; }

 private:
  static constexpr int kMaxSearchesInFlight = 2;

  // A workspace taken from the pool for one search and given back when it ends.
  class WorkspaceLease {
   public:
    WorkspaceLease(GpuAccelEngine& engine, const AccelPlan& plan)
        : engine_(engine), work_(engine.acquire_workspace(plan)) {}
    ~WorkspaceLease() { engine_.release_workspace(std::move(work_)); }
    WorkspaceLease(const WorkspaceLease&) = delete;
    WorkspaceLease& operator=(const WorkspaceLease&) = delete;
    AccelWorkspace& get() { return *work_; }

   private:
    GpuAccelEngine& engine_;
    std::unique_ptr<AccelWorkspace> work_;
  };

  // The kernels of the searches in flight take turns: each run of kernels waits (on the
  // device) for the run enqueued before it, while transfers and host work still overlap. Two
  // runs at once would share the L2 cache that the harmonic sums depend on, and were slower.
  class KernelTurn {
   public:
    KernelTurn(GpuAccelEngine& engine, AccelWorkspace& work)
        : engine_(engine), work_(work), lock_(engine.turn_mutex_) {
      if (engine_.last_turn_ && engine_.last_turn_ != &work_) {
        engine_.last_turn_->kernels_done.make_wait(work_.stream.get());
      }
    }
    ~KernelTurn() {
      if (cudaEventRecord(work_.kernels_done.get(), work_.stream.get()) == cudaSuccess) {
        engine_.last_turn_ = &work_;
      }
    }
    KernelTurn(const KernelTurn&) = delete;
    KernelTurn& operator=(const KernelTurn&) = delete;

   private:
    GpuAccelEngine& engine_;
    AccelWorkspace& work_;
    std::lock_guard<std::mutex> lock_;
  };

  // A free workspace, or a new one while fewer than kMaxSearchesInFlight exist and the device
  // has room for another plane; otherwise waits for one to be given back.
  std::unique_ptr<AccelWorkspace> acquire_workspace(const AccelPlan& plan) {
    std::unique_lock<std::mutex> lock(pool_mutex_);
    for (;;) {
      if (!free_workspaces_.empty()) {
        std::unique_ptr<AccelWorkspace> work = std::move(free_workspaces_.back());
        free_workspaces_.pop_back();
        return work;
      }
      if (workspaces_ == 0 || (workspaces_ < kMaxSearchesInFlight && room_for_another(plan))) {
        ++workspaces_;
        return std::make_unique<AccelWorkspace>();
      }
      pool_changed_.wait(lock);
    }
  }

  void release_workspace(std::unique_ptr<AccelWorkspace> work) {
    {
      std::lock_guard<std::mutex> lock(pool_mutex_);
      free_workspaces_.push_back(std::move(work));
    }
    pool_changed_.notify_one();
  }

  // Whether another plane (and its segment buffers) fits with 1 GiB to spare. Counted twice,
  // as the workspace in use may not have allocated its own yet.
  static bool room_for_another(const AccelPlan& plan) {
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return false;
    const size_t plane = size_t(plan.numz) * size_t(plan.plane_columns()) *
                         (plan.options.plane_precision == PlanePrecision::Float16 ? 2 : 4);
    const size_t segments = size_t(plan.numbins) * 2 * sizeof(float2);
    return free_bytes > 2 * (plane + segments) + (size_t(1) << 30);
  }

  // The kernel bank plans a double-precision FFTW transform; FFTW's planner is not
  // thread-safe, and engines of several GPUs may build their banks at once.
  static FdotKernelBank kernel_bank(const AccelPlan& plan) {
    static std::mutex planner_mutex;
    const std::lock_guard<std::mutex> lock(planner_mutex);
    return make_fdot_kernel_bank(plan);
  }

  // Kernel spectra depend only on (fftlen, zmax); kept across inputs.
  std::shared_ptr<const KernelSpectra> kernel_spectra(const AccelPlan& plan) {
    std::lock_guard<std::mutex> lock(kernels_mutex_);
    const std::pair<int, int> key{plan.fftlen, plan.options.zmax};
    if (plan.options.plane_mode == PlaneMode::Interbin) {  // no correlation
      if (!no_kernels_) no_kernels_ = std::make_shared<KernelSpectra>();
      return no_kernels_;
    }
    if (kernels_ && kernels_->key == key) return kernels_;
    const FdotKernelBank bank = kernel_bank(plan);
    auto fresh = std::make_shared<KernelSpectra>();
    fresh->key = key;
    fresh->spectra = DeviceBuffer<float2>(bank.spectra.size());
    RAPT_CUDA_CHECK(cudaMemcpy(fresh->spectra.get(), bank.spectra.data(), fresh->spectra.bytes(),
                               cudaMemcpyHostToDevice));
    kernels_ = fresh;
    return kernels_;
  }

  template <typename Power>
  std::vector<PlaneHit> search_with(const std::vector<std::complex<float>>& spectrum,
                                    const AccelPlan& plan, const KernelSpectra& kernels,
                                    AccelWorkspace& work, AccelEngineTimings& timings) {
    const cudaStream_t stream = work.stream.get();
    const cuda::Event start(true), plane_done(true), stop(true);
    start.record(stream);
    const Power* plane = build_plane<Power>(spectrum, plan, kernels, work);
    plane_done.record(stream);
    std::vector<PlaneHit> hits = search_plane(plane, plan, work);
    stop.record(stream);
    stop.synchronize();
    timings.plane_s = cuda::elapsed_seconds(start, plane_done);
    timings.harmsum_s = cuda::elapsed_seconds(plane_done, stop);
    timings.total_s = cuda::elapsed_seconds(start, stop);
    return hits;
  }

  template <typename Power>
  const Power* build_plane(const std::vector<std::complex<float>>& spectrum,
                           const AccelPlan& plan, const KernelSpectra& kernels,
                           AccelWorkspace& work) {
    const cudaStream_t stream = work.stream.get();
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
    ensure_size(work.geometry, geometry.size());
    RAPT_CUDA_CHECK(cudaMemcpyAsync(work.geometry.get(), geometry.data(),
                                    geometry.size() * sizeof(AccelSegmentGeometry),
                                    cudaMemcpyHostToDevice, stream));
    // Every column a search reads is written by a segment, except the few below the first
    // segment: zeroing a new plane once is enough.
    const size_t plane_bytes = size_t(plan.numz) * size_t(plan.plane_columns()) * sizeof(Power);
    if (work.plane_bytes != plane_bytes) {
      work.plane = DeviceBuffer<unsigned char>();
      work.plane = DeviceBuffer<unsigned char>(plane_bytes);
      RAPT_CUDA_CHECK(cudaMemsetAsync(work.plane.get(), 0, plane_bytes, stream));
      work.plane_bytes = plane_bytes;
    }
    Power* plane = reinterpret_cast<Power*>(work.plane.get());
    ensure_size(work.amplitudes, size_t(nsegments) * half);
    // The segments in two groups: the second group's part of the spectrum goes up while the
    // first group's kernels run.
    const std::vector<SegmentGroup> groups =
        segment_groups(geometry, half, plan.options.lobin, spectrum.size());
    upload_spectrum(spectrum, plan, segments, groups, work);
    const bool block_median = plan.options.normalisation == SpectrumNormalisation::BlockMedian;
    // The turn is taken once the first part is on the device, so that another search's
    // kernels run during this one's upload instead of waiting behind it.
    if (block_median) work.uploaded[0].synchronize();
    const KernelTurn turn(*this, work);
    const bool correlate = plan.options.plane_mode != PlaneMode::Interbin;
    if (correlate && !cuda::fused_correlation_supported(plan.fftlen)) {
      throw DataError("GPU engine: no correlation kernel for " + std::to_string(plan.fftlen) +
                      "-point segments");
    }
    const float scale = 1.0f / (float(plan.fftlen) * float(plan.fftlen));
    const int offset = kAccelNumBetween * plan.kernel_halfwidth;
    for (size_t g = 0; g < groups.size(); ++g) {
      const SegmentGroup& group = groups[g];
      float2* amplitudes = work.amplitudes.get() + size_t(group.first) * half;
      const AccelSegmentGeometry* group_geometry = work.geometry.get() + group.first;
      if (block_median) {
        work.uploaded[g].make_wait(stream);
        cuda::launch_load_segments(work.spectrum.get(), int64_t(spectrum.size()),
                                   plan.options.lobin, group_geometry, group.count, half, true,
                                   amplitudes, stream);
      }
      if (!correlate) continue;
      const CufftPlan& forward =
          cufft_plan(work.forward[g], work.forward_key[g], half, group.count, stream);
      check_cufft(cufftExecC2C(forward.get(), reinterpret_cast<cufftComplex*>(amplitudes),
                               reinterpret_cast<cufftComplex*>(amplitudes), CUFFT_FORWARD),
                  "forward segment FFTs");
      cuda::launch_correlate_fused(amplitudes, kernels.spectra.get(), group_geometry,
                                   group.count, plan.numz, plan.fftlen, offset, plan.uselen,
                                   scale, plane, plan.plane_columns(), stream);
    }
    if (!correlate) {
      cuda::launch_interbin_powers(work.amplitudes.get(), work.geometry.get(), nsegments, half,
                                   plan.kernel_halfwidth, plan.uselen, plane,
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

  // Copies spectrum[begin, end) to the device through page-locked memory, so that the copy
  // runs at full link speed: a few host threads copy pieces into the staging buffer, and each
  // piece's transfer (on the upload stream) overlaps the copying of the next.
  void upload_part(const std::vector<std::complex<float>>& spectrum, size_t begin, size_t end,
                   AccelWorkspace& work) {
    if (end <= begin) return;
    constexpr size_t kPiece = size_t(1) << 18;  // 2 MiB of amplitudes
    const size_t pieces = (end - begin + kPiece - 1) / kPiece;
    const int copiers = int(std::min<size_t>(
        pieces, std::min(4u, std::max(1u, std::thread::hardware_concurrency()))));
    auto* staging = reinterpret_cast<std::complex<float>*>(work.staging.get());
    const cudaStream_t upload = work.upload_stream.get();
    auto copy_pieces = [&](int copier) {
      cuda::DeviceGuard guard(gpu_index_);
      for (size_t piece = size_t(copier); piece < pieces; piece += size_t(copiers)) {
        const size_t first = begin + piece * kPiece;
        const size_t count = std::min(kPiece, end - first);
        std::copy_n(spectrum.begin() + ptrdiff_t(first), count, staging + first);
        RAPT_CUDA_CHECK(cudaMemcpyAsync(work.spectrum.get() + first, work.staging.get() + first,
                                        count * sizeof(float2), cudaMemcpyHostToDevice, upload));
      }
    };
    std::vector<std::thread> helpers;
    std::vector<std::exception_ptr> errors(static_cast<size_t>(copiers));
    for (int c = 1; c < copiers; ++c) {
      helpers.emplace_back([&, c] {
        try {
          copy_pieces(c);
        } catch (...) {
          errors[size_t(c)] = std::current_exception();
        }
      });
    }
    try {
      copy_pieces(0);
    } catch (...) {
      errors[0] = std::current_exception();
    }
    for (std::thread& helper : helpers) helper.join();
    for (const std::exception_ptr& error : errors) {
      if (error) std::rethrow_exception(error);
    }
  }

  // Block-median normalisation runs on the device: the raw spectrum goes up on the upload
  // stream, one part per segment group, and each part's event tells the kernels it is there.
  // Local-power and photon normalisation are rare; the host does them and the amplitudes go up
  // before any kernel.
  void upload_spectrum(const std::vector<std::complex<float>>& spectrum, const AccelPlan& plan,
                       const std::vector<PlaneSegment>& segments,
                       const std::vector<SegmentGroup>& groups, AccelWorkspace& work) {
    const cudaStream_t stream = work.stream.get();
    const int half = plan.fftlen / 2;
    if (plan.options.normalisation == SpectrumNormalisation::BlockMedian) {
      ensure_size(work.staging, spectrum.size());
      ensure_size(work.spectrum, spectrum.size());
      size_t begin = 0;
      for (size_t g = 0; g < groups.size(); ++g) {
        upload_part(spectrum, begin, groups[g].spectrum_end, work);
        work.uploaded[g].record(work.upload_stream.get());
        begin = std::max(begin, groups[g].spectrum_end);
      }
      return;
    }
    std::vector<std::complex<float>> host(size_t(segments.size()) * half);
    for (size_t i = 0; i < segments.size(); ++i) {
      load_segment_amplitudes(spectrum, plan, segments[i], host.data() + i * half);
    }
    RAPT_CUDA_CHECK(cudaMemcpyAsync(work.amplitudes.get(), host.data(),
                                    host.size() * sizeof(float2), cudaMemcpyHostToDevice, stream));
    RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));  // `host` dies here
  }

  template <typename Power>
  std::vector<PlaneHit> search_plane(const Power* plane, const AccelPlan& plan,
                                            AccelWorkspace& work) {
    const cudaStream_t stream = work.stream.get();
    const int64_t first_column = static_cast<int64_t>(plan.rlo) * kAccelNumBetween;
    const int64_t ncolumns = int64_t(plan.search_segment_starts().size()) * plan.uselen;
    const std::vector<int> sub_rows = subharmonic_row_table(plan);
    ensure_size(work.powcut, plan.powcut.size());
    ensure_size(work.sub_rows, sub_rows.size());
    ensure_size(work.count, 1);
    RAPT_CUDA_CHECK(cudaMemcpyAsync(work.powcut.get(), plan.powcut.data(),
                                    plan.powcut.size() * sizeof(float), cudaMemcpyHostToDevice,
                                    stream));
    RAPT_CUDA_CHECK(cudaMemcpyAsync(work.sub_rows.get(), sub_rows.data(),
                                    sub_rows.size() * sizeof(int), cudaMemcpyHostToDevice, stream));
    ensure_size(work.hits, kInitialMaxHits);
    for (;;) {
      const unsigned long long max_hits = work.hits.size();
      unsigned long long count = 0;
      {
        const KernelTurn turn(*this, work);
        RAPT_CUDA_CHECK(
            cudaMemsetAsync(work.count.get(), 0, sizeof(unsigned long long), stream));
        cuda::launch_harmonic_search(plane, plan.plane_columns(), plan.numz, first_column,
                                     ncolumns, plan.numharm_stages, work.powcut.get(),
                                     work.sub_rows.get(), work.hits.get(), work.count.get(),
                                     max_hits, stream);
        RAPT_CUDA_CHECK(cudaMemcpyAsync(&count, work.count.get(), sizeof(count),
                                        cudaMemcpyDeviceToHost, stream));
      }
      RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));
      if (count > max_hits) {  // too many to hold: search again with room for all of them
        work.hits = DeviceBuffer<AccelDeviceHit>();
        work.hits = DeviceBuffer<AccelDeviceHit>(count);
        continue;
      }
      std::vector<AccelDeviceHit> device_hits(count);
      if (count) {
        RAPT_CUDA_CHECK(cudaMemcpyAsync(device_hits.data(), work.hits.get(),
                                        count * sizeof(AccelDeviceHit), cudaMemcpyDeviceToHost,
                                        stream));
        RAPT_CUDA_CHECK(cudaStreamSynchronize(stream));
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
  std::mutex kernels_mutex_;
  std::shared_ptr<KernelSpectra> kernels_, no_kernels_;
  std::mutex pool_mutex_;
  std::condition_variable pool_changed_;
  std::vector<std::unique_ptr<AccelWorkspace>> free_workspaces_;
  int workspaces_ = 0;
  std::mutex turn_mutex_;
  AccelWorkspace* last_turn_ = nullptr;  // whose kernels were enqueued last
};

}  // namespace

std::unique_ptr<AccelEngine> make_gpu_accel_engine(int gpu_index) {
  return std::make_unique<GpuAccelEngine>(gpu_index);
}

}  // namespace rapt
