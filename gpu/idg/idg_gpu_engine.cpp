// The CUDA IDG engine: the CPU engine's steps (common/idg/cpu_idg_engine.cpp) on one GPU, on the
// same host plan. W-layers one after another into one device grid; each layer's subgrids in
// batches: the host packs a batch's weighted visibilities into page-locked memory, they go up,
// and gridder, batched subgrid FFT and adder (or splitter, FFT and degridder) run on the
// engine's stream. The grid FFT, w-term, taper division all stay on the device; only the
// finished image (or the predictions of each batch) come back. Batches are double-buffered: the
// host packs (or unpacks) one batch while the device runs its neighbour, and the copies go on
// a stream of their own, so a call runs at about the slower of the host and the device.
// A-terms, when the call has them, go up whole at its start into a buffer the engine keeps;
// each subgrid's descriptor names its two stations' matrices in it.
// Held visibilities (IdgEngine::hold, for major cycles): every batch packed once, values and
// weights, into device memory with its descriptors, uvw, frequencies and A-terms; the held
// calls then run the same device passes on them with no packing, and subtract_held turns the
// values into residuals on the device. Only the images cross the bus.
#include "idg_gpu_engine.hpp"

#include <cufft.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../cuda/cuda_device_query.hpp"
#include "../cuda/device_buffer.hpp"
#include "cli/errors.hpp"
#include "dedisp/parallel_for.hpp"
#include "geometry/interferometer_geometry.hpp"
#include "idg/idg_aterms.hpp"
#include "idg/idg_gpu_factory.hpp"
#include "idg/idg_host_passes.hpp"
#include "idg/idg_subgrid_kernels.hpp"
#include "idg/idg_taper.hpp"
#include "idg_kernels.hpp"

namespace rapt::gpu {
namespace {

constexpr size_t kSubgridBufferBytes = size_t(128) << 20;  // subgrid pixels of one batch
constexpr size_t kBatchVisibilities = size_t(1) << 22;     // visibilities of one batch
constexpr size_t kPairedMinChannels = 4;  // channels per subgrid from which the kernels pair them

// The host packs std::complex<float> (idg_host_passes.hpp) straight into float2 buffers.
static_assert(sizeof(float2) == sizeof(std::complex<float>) &&
              alignof(float2) >= alignof(std::complex<float>));
std::complex<float>* as_complex(float2* p) { return reinterpret_cast<std::complex<float>*>(p); }
const std::complex<float>* as_complex(const float2* p) {
  return reinterpret_cast<const std::complex<float>*>(p);
}

// Channels evenly spaced to 1e-12 of the first frequency (the CPU engine's test, made once for
// the whole band): every subgrid's channels are then too.
bool evenly_spaced(const double* freq_hz, size_t nchan) {
  if (nchan < 3) return true;
  const double step = freq_hz[1] - freq_hz[0];
  for (size_t c = 2; c < nchan; ++c)
    if (std::fabs(freq_hz[c] - freq_hz[0] - double(c) * step) > 1e-12 * std::fabs(freq_hz[0]))
      return false;
  return true;
}

int host_thread_count() { return int(std::clamp(std::thread::hardware_concurrency(), 1u, 16u)); }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void check_cufft(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS)
    throw DataError(std::string("cuFFT error ") + std::to_string(int(status)) + " in " + what);
}

// `howmany` in-place 2-D C2C transforms of side `side`, planes one after another.
class FftPlan {
 public:
  FftPlan() = default;
  FftPlan(int side, long long howmany, cudaStream_t stream) {
    check_cufft(cufftCreate(&plan_), "cufftCreate");
    long long n[2] = {side, side};
    size_t work = 0;
    const long long plane = n[0] * n[1];
    const cufftResult made = cufftMakePlanMany64(plan_, 2, n, nullptr, 1, plane, nullptr, 1, plane,
                                                 CUFFT_C2C, howmany, &work);
    if (made != CUFFT_SUCCESS) {
      cufftDestroy(plan_);
      if (made == CUFFT_ALLOC_FAILED)
        throw DataError(cuda::gpu_out_of_memory_text(size_t(howmany) * size_t(plane) * 8));
      check_cufft(made, "cufftMakePlanMany64");
    }
    made_ = true;
    check_cufft(cufftSetStream(plan_, stream), "cufftSetStream");
  }
  ~FftPlan() {
    if (made_) cufftDestroy(plan_);
  }
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  FftPlan& operator=(FftPlan&& o) noexcept {
    std::swap(plan_, o.plan_);
    std::swap(made_, o.made_);
    return *this;
  }
  // sign: CUFFT_FORWARD (-1, FFTW_FORWARD) or CUFFT_INVERSE (+1, FFTW_BACKWARD); unnormalised.
  void run(float2* data, int sign) const {
    auto* d = reinterpret_cast<cufftComplex*>(data);
    check_cufft(cufftExecC2C(plan_, d, d, sign), "cufftExecC2C");
  }

 private:
  cufftHandle plan_ = 0;
  bool made_ = false;  // cuFFT does not promise that 0 is no handle
};

// cuFFT's own estimate of a plan's work area (0 when it will not say).
size_t fft_work_estimate(int side, int howmany) {
  int n[2] = {side, side};
  size_t work = 0;
  // Plain layout (no embedding): the distances are then ignored, so N^2 need not fit an int.
  if (cufftEstimateMany(2, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, howmany, &work) !=
      CUFFT_SUCCESS)
    return 0;
  return work;
}

template <typename T>
void upload(T* device, const T* host, size_t count, cudaStream_t stream) {
  if (count) RAPT_CUDA_CHECK(cudaMemcpyAsync(device, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
}

template <typename T>
void grow(cuda::DeviceBuffer<T>& buffer, size_t count) {
  if (buffer.size() >= count) return;
  buffer = cuda::DeviceBuffer<T>();
  buffer = cuda::DeviceBuffer<T>(count);
}

// The first COUNT values of FROM in a buffer of their own (at least one value long).
template <typename T>
cuda::DeviceBuffer<T> copy_of(const cuda::DeviceBuffer<T>& from, size_t count, cudaStream_t stream) {
  cuda::DeviceBuffer<T> to(std::max<size_t>(count, 1));
  if (count)
    RAPT_CUDA_CHECK(cudaMemcpyAsync(to.get(), from.get(), count * sizeof(T),
                                    cudaMemcpyDeviceToDevice, stream));
  return to;
}

// One of the two batch buffers: a batch's descriptors and visibilities, on the host
// (page-locked) and on the device, with the events that order their reuse.
struct Slot {
  cuda::DeviceBuffer<float2> values;
  cuda::PinnedBuffer<float2> values_staging;
  cuda::DeviceBuffer<IdgGpuSubgrid> subgrids;
  cuda::PinnedBuffer<IdgGpuSubgrid> subgrids_staging;
  cuda::PinnedBuffer<float> weights_staging;  // hold(): a batch's weights (made at the first)
  cuda::Event uploaded, consumed, downloaded;  // copy stream / kernel stream / copy stream
};

class GpuIdgEngine final : public IdgEngine, public IdgGpuTimed {
 public:
  GpuIdgEngine(const IdgSettings& settings, int gpu)
      : IdgEngine(settings, host_thread_count()), gpu_(gpu) {
    const cuda::DeviceGuard device(gpu_);
    const IdgSettings& s = this->settings();
    const int nb = s.subgrid_size, npol = s.npol, n = s.grid_size;
    const size_t plane_bytes = size_t(nb) * nb * sizeof(float2);
    batch_subgrids_ = int(std::clamp<size_t>(kSubgridBufferBytes / (plane_bytes * npol), 1, 8192));
    batch_visibilities_ = std::max(kBatchVisibilities, size_t(s.max_timesteps_per_subgrid) *
                                                           size_t(s.max_channels_per_subgrid));
    check_memory();

    stream_ = cuda::Stream();  // on gpu_: the member's own was made before the guard
    copy_stream_ = cuda::Stream();
    const size_t grid_values = size_t(npol) * n * n;
    grid_ = cuda::DeviceBuffer<float2>(grid_values);
    image_ = cuda::DeviceBuffer<float2>(grid_values);
    pixels_ = cuda::DeviceBuffer<float2>(size_t(batch_subgrids_) * npol * nb * nb);
    for (Slot& slot : slots_) {
      slot.values = cuda::DeviceBuffer<float2>(batch_visibilities_ * npol);
      slot.values_staging = cuda::PinnedBuffer<float2>(batch_visibilities_ * npol);
      slot.subgrids = cuda::DeviceBuffer<IdgGpuSubgrid>(size_t(batch_subgrids_));
      slot.subgrids_staging = cuda::PinnedBuffer<IdgGpuSubgrid>(size_t(batch_subgrids_));
      // On gpu_, as the streams: the members' own were made before the guard.
      slot.uploaded = cuda::Event(), slot.consumed = cuda::Event(), slot.downloaded = cuda::Event();
    }
    grid_fft_ = FftPlan(n, npol, stream_.get());
    subgrid_fft_ = FftPlan(nb, (long long)batch_subgrids_ * npol, stream_.get());

    // The per-pixel tables of the CPU engine, rounded once to float.
    const IdgSubgridTables tables(s);
    std::vector<float> taper(tables.taper.begin(), tables.taper.end());
    std::vector<float> n_minus_1(tables.n_minus_1.begin(), tables.n_minus_1.end());
    taper_ = cuda::DeviceBuffer<float>(taper.size());
    n_minus_1_ = cuda::DeviceBuffer<float>(n_minus_1.size());
    const std::vector<double> image_taper = idg_image_taper(nb, n);
    image_taper_ = cuda::DeviceBuffer<double>(image_taper.size());
    upload(taper_.get(), taper.data(), taper.size(), stream_.get());
    upload(n_minus_1_.get(), n_minus_1.data(), n_minus_1.size(), stream_.get());
    upload(image_taper_.get(), image_taper.data(), image_taper.size(), stream_.get());
    stream_.synchronize();

    geometry_.npol = npol;
    geometry_.subgrid_size = nb;
    geometry_.grid_size = n;
    geometry_.to_px = s.image_size / kSpeedOfLight_m_s;
    geometry_.speed_of_light = kSpeedOfLight_m_s;
    geometry_.taper = taper_.get();
    geometry_.n_minus_1 = n_minus_1_.get();
  }

  std::string name() const override { return "gpu"; }
  IdgGpuCallTimes last_call_times() const override { return times_; }

 private:
  // The grid and the image it is transformed into must both fit, with one batch's buffers and
  // cuFFT's work areas; say so in bytes rather than fail in the middle of a call.
  void check_memory() const {
    const IdgSettings& s = settings();
    const size_t grid_bytes = size_t(s.npol) * s.grid_size * s.grid_size * sizeof(float2);
    const size_t batch_bytes = size_t(batch_subgrids_) * s.npol * s.subgrid_size * s.subgrid_size *
                                   sizeof(float2) +
                               2 * batch_visibilities_ * s.npol * sizeof(float2);
    const size_t fft_bytes = fft_work_estimate(s.grid_size, s.npol) +
                             fft_work_estimate(s.subgrid_size, batch_subgrids_ * s.npol);
    const size_t needed = 2 * grid_bytes + batch_bytes + fft_bytes;
    size_t free_bytes = 0, total_bytes = 0;
    RAPT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (needed > free_bytes)
      throw DataError("IDG on GPU " + std::to_string(gpu_) + ": a " + std::to_string(s.grid_size) +
                      " x " + std::to_string(s.grid_size) + " grid of " + std::to_string(s.npol) +
                      " polarisation(s) needs " + cuda::byte_size_text(needed) + " of GPU memory (" +
                      cuda::byte_size_text(2 * grid_bytes) + " for the grid and its image, " +
                      cuda::byte_size_text(batch_bytes + fft_bytes) +
                      " for subgrid batches and FFT work areas), but only " +
                      cuda::byte_size_text(free_bytes) + " of " + cuda::byte_size_text(total_bytes) +
                      " is free; use a smaller grid or --device cpu");
  }

  // Uploads what every batch of a call reads: the planned time steps' uvw and the frequencies.
  void upload_call_inputs(const IdgPlan& plan, const IdgVisibilities& vis) {
    if (plan.timestep_rows.size() > size_t(1) << 31)
      throw UsageError("IDG on the GPU takes plans of up to 2^31 time steps");
    const auto start = std::chrono::steady_clock::now();
    std::vector<double3> uvw(plan.timestep_rows.size());
    constexpr size_t kBlock = size_t(1) << 16;
    parallel_for(host_threads(), (uvw.size() + kBlock - 1) / kBlock, [&](size_t block, int) {
      for (size_t t = block * kBlock; t < std::min(uvw.size(), (block + 1) * kBlock); ++t) {
        const std::array<double, 3>& b = vis.uvw_m[plan.timestep_rows[t]];
        uvw[t] = make_double3(b[0], b[1], b[2]);
      }
    });
    times_.host_s += seconds_since(start);
    grow(uvw_, std::max<size_t>(uvw.size(), 1));
    grow(freq_, std::max<size_t>(vis.nchan, 1));
    upload(uvw_.get(), uvw.data(), uvw.size(), stream_.get());
    upload(freq_.get(), vis.freq_hz, vis.nchan, stream_.get());
    // Pairing channels pays where subgrids hold several: with one or two, its extra sines and
    // cosines (the run's centre, its outermost pair and the step) and the degridder's runs of
    // 8 channels a thread cost more than they save.
    geometry_.even_channels =
        std::min(vis.nchan, size_t(settings().max_channels_per_subgrid)) >= kPairedMinChannels &&
        evenly_spaced(vis.freq_hz, vis.nchan);
    upload_aterms(vis.aterms);
    stream_.synchronize();  // the host vector dies here
  }

  // The call's A-terms (or none) into aterms_, kept and grown between calls, and the geometry
  // the kernels get pointed at them. What the engine's own buffers leave free must hold them:
  // the constructor's check_memory() could not count them.
  void upload_aterms(const IdgATerms* aterms) {
    geometry_.aterms = nullptr;
    if (!aterms) return;
    const size_t count = aterms->jones.size();
    if (count > aterms_.size()) {
      size_t free_bytes = 0, total_bytes = 0;
      RAPT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
      const size_t needed = count * sizeof(float2);
      if (needed > free_bytes + aterms_.bytes())  // the old buffer goes before the new comes
        throw DataError("IDG on GPU " + std::to_string(gpu_) + ": the A-terms (" +
                        std::to_string(aterms->nr_slots) + " time slot(s) x " +
                        std::to_string(aterms->nr_stations) + " station(s) x " +
                        std::to_string(aterms->subgrid_size) + "^2 Jones matrices) need " +
                        cuda::byte_size_text(needed) + " of GPU memory, but only " +
                        cuda::byte_size_text(free_bytes + aterms_.bytes()) + " of " +
                        cuda::byte_size_text(total_bytes) +
                        " is free besides the grid and the subgrid batches; use fewer A-term "
                        "time slots, a smaller grid or --device cpu");
      grow(aterms_, count);
    }
    upload(aterms_.get(), reinterpret_cast<const float2*>(aterms->jones.data()), count,
           stream_.get());
    geometry_.aterms = aterms_.get();
  }

  // `bytes` from the device into the caller's pageable memory, through the two slots'
  // page-locked value buffers on the kernel stream: the host copies one chunk on all its
  // threads (`copy_out(staged, offset, size)`, offset and size in bytes) while the next is on
  // the bus (a pageable copy runs at a fraction of the bus rate). The slots must be idle: no
  // batch of the call in flight.
  template <typename CopyOut>
  void download_in_chunks(const void* device, size_t bytes, CopyOut copy_out) {
    cudaStream_t st = stream_.get();
    const size_t chunk = batch_visibilities_ * size_t(settings().npol) * sizeof(float2);
    const size_t nchunks = (bytes + chunk - 1) / chunk;
    auto size = [&](size_t k) { return std::min(chunk, bytes - k * chunk); };
    for (size_t k = 0; k <= nchunks; ++k) {
      if (k < nchunks) {  // slot k % 2 held chunk k - 2, copied out below on the last pass
        const Slot& slot = slots_[k % 2];
        RAPT_CUDA_CHECK(cudaMemcpyAsync(slot.values_staging.get(),
                                        static_cast<const char*>(device) + k * chunk, size(k),
                                        cudaMemcpyDeviceToHost, st));
        slot.downloaded.record(st);
      }
      if (k > 0) {
        const Slot& slot = slots_[(k - 1) % 2];
        slot.downloaded.synchronize();
        const auto start = std::chrono::steady_clock::now();
        copy_out(reinterpret_cast<const char*>(slot.values_staging.get()), (k - 1) * chunk,
                 size(k - 1));
        times_.host_s += seconds_since(start);
        times_.image_s += seconds_since(start);
      }
    }
  }

  // A whole image down, plane p divided by weight_sum[p] where that is not 0 (IdgEngine's
  // normalisation, done here in the same pass; the host's first touch of the new image, too).
  void download_image(const float2* device, std::complex<float>* host, size_t count,
                      const std::vector<double>& weight_sum) {
    const size_t plane = size_t(settings().grid_size) * size_t(settings().grid_size);
    download_in_chunks(device, count * sizeof(float2), [&](const char* staged, size_t offset, size_t bytes) {
      const std::complex<float>* from = reinterpret_cast<const std::complex<float>*>(staged);
      for (size_t i = offset / sizeof(float2), last = i + bytes / sizeof(float2); i < last;) {
        const size_t p = i / plane, end = std::min(last, (p + 1) * plane);
        if (weight_sum[p] == 0)
          idg_copy(from, host + i, end - i, host_threads());
        else
          idg_copy_scaled(from, host + i, end - i, float(1.0 / weight_sum[p]), host_threads());
        from += end - i;
        i = end;
      }
    });
  }

  // Real values down as they are.
  void download_reals(const float* device, float* host, size_t count) {
    download_in_chunks(device, count * sizeof(float), [&](const char* staged, size_t offset, size_t bytes) {
      idg_copy(reinterpret_cast<const float*>(staged), host + offset / sizeof(float),
               bytes / sizeof(float), host_threads());
    });
  }

  void upload_image(const std::complex<float>* host, float2* device, size_t count) {
    cudaStream_t st = stream_.get();
    const size_t chunk = batch_visibilities_ * size_t(settings().npol);
    for (size_t k = 0; k * chunk < count; ++k) {
      const Slot& slot = slots_[k % 2];
      slot.uploaded.synchronize();  // the slot's last chunk (or batch) has gone up
      const size_t size = std::min(chunk, count - k * chunk);
      const auto start = std::chrono::steady_clock::now();
      idg_copy(host + k * chunk, as_complex(slot.values_staging.get()), size, host_threads());
      times_.host_s += seconds_since(start);
      times_.image_s += seconds_since(start);
      RAPT_CUDA_CHECK(cudaMemcpyAsync(device + k * chunk, slot.values_staging.get(),
                                      size * sizeof(float2), cudaMemcpyHostToDevice, st));
      slot.uploaded.record(st);
    }
  }

  // Subgrids of layer z split into batches that fit the buffers: [begin, end) into `layer`.
  std::vector<std::pair<size_t, size_t>> batches(const IdgPlan& plan,
                                                 const std::vector<size_t>& layer) const {
    std::vector<std::pair<size_t, size_t>> out;
    size_t begin = 0, vis = 0;
    for (size_t i = 0; i < layer.size(); ++i) {
      const IdgSubgrid& sub = plan.subgrids[layer[i]];
      const size_t nvis = size_t(sub.nr_timesteps) * sub.nr_channels;
      if (i > begin && (i - begin == size_t(batch_subgrids_) || vis + nvis > batch_visibilities_)) {
        out.emplace_back(begin, i);
        begin = i, vis = 0;
      }
      vis += nvis;
    }
    if (begin < layer.size()) out.emplace_back(begin, layer.size());
    return out;
  }

  // The descriptors of subgrids layer[begin, end) into out[0, end - begin), their values one
  // after another from offset 0. Returns the batch's visibilities.
  int fill_descriptors(const IdgPlan& plan, const std::vector<size_t>& layer, size_t begin,
                       size_t end, const IdgVisibilities& vis, IdgGpuSubgrid* out) const {
    int offset = 0;
    for (size_t i = begin; i < end; ++i) {
      const IdgSubgrid& sub = plan.subgrids[layer[i]];
      IdgGpuSubgrid& g = out[i - begin];
      g.first_timestep = int(sub.first_timestep);
      g.nr_timesteps = sub.nr_timesteps;
      g.first_channel = sub.first_channel;
      g.nr_channels = sub.nr_channels;
      g.x = sub.x;
      g.y = sub.y;
      g.vis_offset = offset;
      g.w_centre = idg_w_layer_centre(settings(), sub.w_layer);
      g.aterm1 = g.aterm2 = -1;
      if (vis.aterms) {  // the stations of the subgrid's baseline (all its rows share it)
        const int64_t row = plan.timestep_rows[size_t(sub.first_timestep)];
        const int base = sub.aterm_slot * vis.aterms->nr_stations;
        g.aterm1 = base + vis.antenna1[row];
        g.aterm2 = base + vis.antenna2[row];
      }
      offset += sub.nr_timesteps * sub.nr_channels;
    }
    return offset;
  }

  // The visibility offsets of a slot's first `count` staged descriptors, as the host's packing
  // and unpacking take them.
  static std::vector<size_t> staged_offsets(const Slot& slot, size_t count) {
    std::vector<size_t> offsets(count);
    for (size_t i = 0; i < count; ++i)
      offsets[i] = size_t(slot.subgrids_staging.get()[i].vis_offset);
    return offsets;
  }

  // Fills slot `slot`'s page-locked subgrid descriptors of a batch (and, when `vis_values`, the
  // weighted visibilities, time-then-channel per subgrid) and sends them up on the copy stream
  // once the device is done with the slot's last batch. Packing reads the caller's arrays
  // scattered by row, so it runs on all host threads (idg_pack_subgrids); with the values it
  // sums each subgrid's weights into weight_sums[subgrid][pol].
  int stage_batch(const IdgPlan& plan, const std::vector<size_t>& layer, size_t begin, size_t end,
                  const IdgVisibilities& vis, bool unit, bool vis_values, Slot& slot,
                  double* weight_sums = nullptr) {
    const IdgSettings& s = settings();
    slot.uploaded.synchronize();  // the staging buffers' last contents have gone up
    const auto start = std::chrono::steady_clock::now();
    const int offset = fill_descriptors(plan, layer, begin, end, vis, slot.subgrids_staging.get());
    const size_t count = end - begin;
    if (vis_values) {
      const std::vector<size_t> offsets = staged_offsets(slot, count);
      idg_pack_subgrids(plan, vis, unit, layer.data() + begin, offsets.data(), count,
                        as_complex(slot.values_staging.get()), weight_sums, host_threads());
    }
    times_.host_s += seconds_since(start);
    cudaStream_t cs = copy_stream_.get();
    slot.consumed.make_wait(cs);  // the device buffers' last batch is done with
    upload(slot.subgrids.get(), slot.subgrids_staging.get(), count, cs);
    if (vis_values) upload(slot.values.get(), slot.values_staging.get(), size_t(offset) * s.npol, cs);
    slot.uploaded.record(cs);
    return offset;
  }

  // The subgrids of every w-layer, and the batches [begin, end) of each, in call order.
  struct Batch {
    int z;
    size_t begin, end;
    bool first, last;  // of its layer
  };
  std::vector<Batch> call_batches(const IdgPlan& plan,
                                  std::vector<std::vector<size_t>>& layers) const {
    layers.assign(size_t(std::max(settings().nr_w_layers, 0)), {});
    for (size_t i = 0; i < plan.subgrids.size(); ++i) {
      const int z = plan.subgrids[i].w_layer;
      if (z >= 0 && z < int(layers.size())) layers[size_t(z)].push_back(i);
    }
    std::vector<Batch> out;
    for (int z = 0; z < int(layers.size()); ++z) {
      const auto parts = batches(plan, layers[size_t(z)]);
      for (size_t b = 0; b < parts.size(); ++b)
        out.push_back({z, parts[b].first, parts[b].second, b == 0, b + 1 == parts.size()});
    }
    return out;
  }

  // The weight sums of the subgrids that no batch packs (those on no w-layer), which the
  // normalisation counts all the same.
  void add_off_layer_weight_sums(const IdgPlan& plan, const IdgVisibilities& vis,
                                 std::vector<double>& weight_sums) const {
    const IdgSettings& s = settings();
    for (size_t i = 0; i < plan.subgrids.size(); ++i)
      if (plan.subgrids[i].w_layer < 0 || plan.subgrids[i].w_layer >= s.nr_w_layers)
        idg_subgrid_weight_sums(plan, plan.subgrids[i], vis,
                                weight_sums.data() + i * size_t(s.npol));
  }

  // Timing events of one batch or layer pass, read once the call's work is done.
  struct Timed {
    cuda::Event start{true}, kernel_start{true}, kernel_stop{true}, stop{true};
  };

  // One batch's gridding on the kernel stream: gridder, subgrid FFT, adder into grid_. The
  // caller records t.start and t.stop around it, so that what a held call adds to a batch (the
  // PSF's weights turned into values, the subtraction of predictions) is in the batch's time.
  void grid_batch(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                  const double3* uvw, const double* freq, const float2* values, const Timed& t) {
    cudaStream_t st = stream_.get();
    t.kernel_start.record(st);
    launch_idg_gridder(g, subgrids, count, uvw, freq, values, pixels_.get(), st);
    t.kernel_stop.record(st);
    subgrid_fft_.run(pixels_.get(), CUFFT_FORWARD);
    launch_idg_adder(g, subgrids, count, pixels_.get(), grid_.get(), st);
  }

  // A gridded layer's grid into image_: centring, backward FFT, its w-term.
  void add_layer_to_image(const IdgGpuGeometry& g, int z, const Timed& t) {
    cudaStream_t st = stream_.get();
    t.start.record(st);
    launch_idg_checker(g, grid_.get(), st);
    grid_fft_.run(grid_.get(), CUFFT_INVERSE);
    launch_idg_accumulate_layer(g, settings().image_size, idg_w_layer_centre(settings(), z),
                                grid_.get(), image_.get(), st);
    t.stop.record(st);
  }

  // Layer z of the model in image_ into grid_'s uv: its w-term, forward FFT, centring.
  void model_layer_to_grid(const IdgGpuGeometry& g, int z, const Timed& t) {
    cudaStream_t st = stream_.get();
    t.start.record(st);
    launch_idg_model_to_layer(g, settings().image_size, idg_w_layer_centre(settings(), z),
                              image_taper_.get(), image_.get(), grid_.get(), st);
    grid_fft_.run(grid_.get(), CUFFT_FORWARD);
    launch_idg_checker(g, grid_.get(), st);
    t.stop.record(st);
  }

  // One batch's prediction on the kernel stream: splitter, subgrid FFT, degridder. The caller
  // records t.start and t.stop, as for grid_batch.
  void degrid_batch(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                    const double3* uvw, const double* freq, float2* predictions, const Timed& t) {
    cudaStream_t st = stream_.get();
    launch_idg_splitter(g, subgrids, count, grid_.get(), pixels_.get(), st);
    subgrid_fft_.run(pixels_.get(), CUFFT_INVERSE);
    t.kernel_start.record(st);
    launch_idg_degridder(g, subgrids, count, uvw, freq, pixels_.get(), predictions, st);
    t.kernel_stop.record(st);
  }

  // image_ divided by the taper and brought down into `image`, normalised by `weight_sum`.
  void finish_image(const IdgGpuGeometry& g, const std::vector<double>& weight_sum,
                    IdgImage& image, const Timed& t) {
    const size_t grid_values = size_t(settings().npol) * settings().grid_size * settings().grid_size;
    cudaStream_t st = stream_.get();
    t.start.record(st);
    launch_idg_divide_taper(g, image_taper_.get(), image_.get(), st);
    t.stop.record(st);
    image.weight_sum = weight_sum;
    download_image(image_.get(), image.pixels.data(), grid_values, weight_sum);
  }

  // The call's device times from its events, once the stream is done: each batch's and each
  // layer pass's (a layer's pass is timed with its first batch when `layer_first`, else with
  // its last), and `extra` on top.
  void add_device_times(const std::vector<Batch>& list, const std::vector<Timed>& batch_times,
                        const std::vector<Timed>& layer_times, bool layer_first,
                        const Timed* extra, std::chrono::steady_clock::time_point call_start) {
    for (size_t i = 0; i < list.size(); ++i) {
      const Timed& t = batch_times[i];
      times_.subgrid_s += cuda::elapsed_seconds(t.start, t.stop);
      times_.kernel_s += cuda::elapsed_seconds(t.kernel_start, t.kernel_stop);
      if (layer_first ? list[i].first : list[i].last) {
        const Timed& l = layer_times[size_t(list[i].z)];
        times_.grid_s += cuda::elapsed_seconds(l.start, l.stop);
      }
    }
    if (extra) times_.grid_s += cuda::elapsed_seconds(extra->start, extra->stop);
    times_.call_s = seconds_since(call_start);
  }

  bool grid_image(const IdgPlan& plan, const IdgVisibilities& vis, bool unit,
                  IdgImage& image) override {
    const cuda::DeviceGuard device(gpu_);
    const IdgSettings& s = settings();
    const size_t grid_values = size_t(s.npol) * s.grid_size * s.grid_size;
    times_ = IdgGpuCallTimes{};
    const auto call_start = std::chrono::steady_clock::now();
    upload_call_inputs(plan, vis);
    cudaStream_t st = stream_.get();
    RAPT_CUDA_CHECK(cudaMemsetAsync(image_.get(), 0, grid_values * sizeof(float2), st));
    std::vector<std::vector<size_t>> layers;
    const std::vector<Batch> list = call_batches(plan, layers);
    std::vector<Timed> batch_times(list.size()), layer_times(layers.size());
    const Timed last;
    // Each subgrid's weight sums, from the packing (subgrids on no w-layer are summed below).
    std::vector<double> weight_sums(plan.subgrids.size() * size_t(s.npol), 0.0);
    if (!list.empty())
      stage_batch(plan, layers[size_t(list[0].z)], list[0].begin, list[0].end, vis, unit, true,
                  slots_[0], weight_sums.data());
    for (size_t i = 0; i < list.size(); ++i) {
      const Batch& b = list[i];
      Slot& slot = slots_[i % 2];
      if (b.first) RAPT_CUDA_CHECK(cudaMemsetAsync(grid_.get(), 0, grid_values * sizeof(float2), st));
      slot.uploaded.make_wait(st);
      batch_times[i].start.record(st);
      grid_batch(geometry_, slot.subgrids.get(), int(b.end - b.begin), uvw_.get(), freq_.get(),
                 slot.values.get(), batch_times[i]);
      batch_times[i].stop.record(st);
      slot.consumed.record(st);
      if (b.last) add_layer_to_image(geometry_, b.z, layer_times[size_t(b.z)]);
      // The host packs the next batch while the device grids this one.
      if (i + 1 < list.size())
        stage_batch(plan, layers[size_t(list[i + 1].z)], list[i + 1].begin, list[i + 1].end, vis,
                    unit, true, slots_[(i + 1) % 2], weight_sums.data());
    }
    add_off_layer_weight_sums(plan, vis, weight_sums);
    finish_image(geometry_, idg_total_weight_sums(weight_sums, s.npol), image, last);
    stream_.synchronize();
    add_device_times(list, batch_times, layer_times, false, &last, call_start);
    return true;  // normalised on the way down
  }

  void degrid_image(const IdgPlan& plan, const IdgImage& model, const IdgVisibilities& vis,
                    std::complex<float>* predicted) override {
    const cuda::DeviceGuard device(gpu_);
    const IdgSettings& s = settings();
    const size_t grid_values = size_t(s.npol) * s.grid_size * s.grid_size;
    times_ = IdgGpuCallTimes{};
    const auto call_start = std::chrono::steady_clock::now();
    upload_call_inputs(plan, vis);
    cudaStream_t st = stream_.get(), cs = copy_stream_.get();
    upload_image(model.pixels.data(), image_.get(), grid_values);
    std::vector<std::vector<size_t>> layers;
    const std::vector<Batch> list = call_batches(plan, layers);
    std::vector<Timed> batch_times(list.size()), layer_times(layers.size());
    std::vector<int> nvis(list.size(), 0);
    auto stage = [&](size_t i) {
      nvis[i] = stage_batch(plan, layers[size_t(list[i].z)], list[i].begin, list[i].end, vis, true,
                            false, slots_[i % 2]);
    };
    if (!list.empty()) stage(0);
    for (size_t i = 0; i < list.size(); ++i) {
      const Batch& b = list[i];
      Slot& slot = slots_[i % 2];
      if (b.first) model_layer_to_grid(geometry_, b.z, layer_times[size_t(b.z)]);
      slot.uploaded.make_wait(st);
      slot.downloaded.make_wait(st);  // the slot's last predictions have come down
      batch_times[i].start.record(st);
      degrid_batch(geometry_, slot.subgrids.get(), int(b.end - b.begin), uvw_.get(), freq_.get(),
                   slot.values.get(), batch_times[i]);
      batch_times[i].stop.record(st);
      slot.consumed.record(st);
      slot.consumed.make_wait(cs);
      RAPT_CUDA_CHECK(cudaMemcpyAsync(slot.values_staging.get(), slot.values.get(),
                                      size_t(nvis[i]) * s.npol * sizeof(float2),
                                      cudaMemcpyDeviceToHost, cs));
      slot.downloaded.record(cs);
      // The host unpacks the previous batch (and stages the next) while the device runs this one.
      if (i > 0) scatter_predictions(plan, layers[size_t(list[i - 1].z)], list[i - 1],
                                     slots_[(i - 1) % 2], vis, predicted);
      if (i + 1 < list.size()) stage(i + 1);
    }
    if (!list.empty())
      scatter_predictions(plan, layers[size_t(list.back().z)], list.back(),
                          slots_[(list.size() - 1) % 2], vis, predicted);
    stream_.synchronize();
    copy_stream_.synchronize();
    add_device_times(list, batch_times, layer_times, true, nullptr, call_start);
  }

  // Held visibilities: every batch of the plan packed once, on the device. A batch's
  // descriptors keep their offsets into its own values, which start at `first_value`.
  struct Held {
    IdgGpuGeometry geometry;  // the engine's, pointing at the held A-terms
    std::vector<Batch> list;
    std::vector<size_t> first_subgrid, first_value, values;  // per batch; values in float2
    cuda::DeviceBuffer<IdgGpuSubgrid> subgrids;
    cuda::DeviceBuffer<float2> values_device;  // weight x V, the residuals' after subtract_held
    cuda::DeviceBuffer<float> weights;         // [value]: weight, 0 where flagged
    cuda::DeviceBuffer<double3> uvw;
    cuda::DeviceBuffer<double> freq;
    cuda::DeviceBuffer<float2> aterms;
    std::vector<double> weight_sum;
  };

  void hold_visibilities(const IdgPlan& plan, const IdgVisibilities& vis) override {
    const cuda::DeviceGuard device(gpu_);
    const IdgSettings& s = settings();
    held_.reset();  // its memory first
    times_ = IdgGpuCallTimes{};
    const auto call_start = std::chrono::steady_clock::now();
    auto h = std::make_unique<Held>();
    std::vector<std::vector<size_t>> layers;
    h->list = call_batches(plan, layers);
    size_t nsub = 0, nval = 0;
    for (const Batch& b : h->list) {
      size_t nvis = 0;
      for (size_t i = b.begin; i < b.end; ++i) {
        const IdgSubgrid& sub = plan.subgrids[layers[size_t(b.z)][i]];
        nvis += size_t(sub.nr_timesteps) * size_t(sub.nr_channels);
      }
      h->first_subgrid.push_back(nsub);
      h->first_value.push_back(nval);
      h->values.push_back(nvis * size_t(s.npol));
      nsub += b.end - b.begin;
      nval += nvis * size_t(s.npol);
    }
    check_held_memory(plan, vis, nsub, nval);
    h->subgrids = cuda::DeviceBuffer<IdgGpuSubgrid>(std::max<size_t>(nsub, 1));
    h->values_device = cuda::DeviceBuffer<float2>(std::max<size_t>(nval, 1));
    h->weights = cuda::DeviceBuffer<float>(std::max<size_t>(nval, 1));
    // The call's inputs go up into the engine's buffers as for any call, and the held calls get
    // copies: the engine's stay for the ordinary calls made while visibilities are held.
    upload_call_inputs(plan, vis);
    cudaStream_t st = stream_.get();
    h->geometry = geometry_;
    h->uvw = copy_of(uvw_, plan.timestep_rows.size(), st);
    h->freq = copy_of(freq_, vis.nchan, st);
    if (vis.aterms) {
      h->aterms = copy_of(aterms_, vis.aterms->jones.size(), st);
      h->geometry.aterms = h->aterms.get();
    }
    for (Slot& slot : slots_)
      if (slot.weights_staging.size() < batch_visibilities_ * size_t(s.npol))
        slot.weights_staging = cuda::PinnedBuffer<float>(batch_visibilities_ * size_t(s.npol));
    // The host packs batch i + 1 while batch i goes up.
    std::vector<double> weight_sums(plan.subgrids.size() * size_t(s.npol), 0.0);
    cudaStream_t cs = copy_stream_.get();
    for (size_t i = 0; i < h->list.size(); ++i) {
      const Batch& b = h->list[i];
      Slot& slot = slots_[i % 2];
      slot.uploaded.synchronize();  // the staging buffers' last contents have gone up
      const auto start = std::chrono::steady_clock::now();
      const size_t count = b.end - b.begin;
      const std::vector<size_t>& layer = layers[size_t(b.z)];
      fill_descriptors(plan, layer, b.begin, b.end, vis, slot.subgrids_staging.get());
      const std::vector<size_t> offsets = staged_offsets(slot, count);
      idg_pack_subgrids_and_weights(plan, vis, layer.data() + b.begin, offsets.data(), count,
                                    as_complex(slot.values_staging.get()),
                                    slot.weights_staging.get(), weight_sums.data(), host_threads());
      times_.host_s += seconds_since(start);
      upload(h->subgrids.get() + h->first_subgrid[i], slot.subgrids_staging.get(), count, cs);
      upload(h->values_device.get() + h->first_value[i], slot.values_staging.get(), h->values[i], cs);
      upload(h->weights.get() + h->first_value[i], slot.weights_staging.get(), h->values[i], cs);
      slot.uploaded.record(cs);
    }
    add_off_layer_weight_sums(plan, vis, weight_sums);
    h->weight_sum = idg_total_weight_sums(weight_sums, s.npol);
    copy_stream_.synchronize();
    stream_.synchronize();
    held_ = std::move(h);
    times_.call_s = seconds_since(call_start);
  }

  // The held values, weights, descriptors and copies of the call's inputs, and the engine's
  // input buffers where the call's inputs outgrow them, must fit in what is free.
  void check_held_memory(const IdgPlan& plan, const IdgVisibilities& vis, size_t subgrids,
                         size_t values) const {
    size_t free_bytes = 0, total_bytes = 0;
    RAPT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const size_t steps = plan.timestep_rows.size(), jones = vis.aterms ? vis.aterms->jones.size() : 0;
    const auto growth = [](size_t count, size_t have) { return count > have ? count : 0; };
    const size_t inputs = steps * sizeof(double3) + vis.nchan * sizeof(double) + jones * sizeof(float2);
    const size_t engine_growth = growth(steps, uvw_.size()) * sizeof(double3) +
                                 growth(vis.nchan, freq_.size()) * sizeof(double) +
                                 growth(jones, aterms_.size()) * sizeof(float2);
    const size_t needed = values * (sizeof(float2) + sizeof(float)) +
                          subgrids * sizeof(IdgGpuSubgrid) + inputs + engine_growth;
    if (needed > free_bytes)
      throw DataError("IDG on GPU " + std::to_string(gpu_) + ": holding " +
                      std::to_string(plan.visibilities_placed) + " visibilities of " +
                      std::to_string(settings().npol) + " polarisation(s) needs " +
                      cuda::byte_size_text(needed) + " of GPU memory, but only " +
                      cuda::byte_size_text(free_bytes) + " of " + cuda::byte_size_text(total_bytes) +
                      " is free besides the grid and the subgrid batches; hold fewer "
                      "visibilities or use --device cpu");
  }

  // The held visibilities (or, when `unit`, their weights) gridded into image_, on the kernel
  // stream: every layer's grid in, not yet divided by the taper.
  void grid_held_into_image(bool unit, std::vector<Timed>& batch_times,
                            std::vector<Timed>& layer_times) {
    const IdgSettings& s = settings();
    const Held& h = *held_;
    const size_t grid_values = size_t(s.npol) * s.grid_size * s.grid_size;
    cudaStream_t st = stream_.get();
    RAPT_CUDA_CHECK(cudaMemsetAsync(image_.get(), 0, grid_values * sizeof(float2), st));
    batch_times = std::vector<Timed>(h.list.size());
    layer_times = std::vector<Timed>(size_t(std::max(s.nr_w_layers, 0)));
    float2* unit_values = slots_[0].values.get();  // the PSF's values of one batch
    for (size_t i = 0; i < h.list.size(); ++i) {
      const Batch& b = h.list[i];
      if (b.first) RAPT_CUDA_CHECK(cudaMemsetAsync(grid_.get(), 0, grid_values * sizeof(float2), st));
      const float2* values = h.values_device.get() + h.first_value[i];
      batch_times[i].start.record(st);
      if (unit) {
        launch_idg_weights_as_values(h.weights.get() + h.first_value[i], unit_values, h.values[i], st);
        values = unit_values;
      }
      grid_batch(h.geometry, h.subgrids.get() + h.first_subgrid[i], int(b.end - b.begin),
                 h.uvw.get(), h.freq.get(), values, batch_times[i]);
      batch_times[i].stop.record(st);
      if (b.last) add_layer_to_image(h.geometry, b.z, layer_times[size_t(b.z)]);
    }
  }

  void grid_held_image(bool unit, IdgImage& image) override {
    const cuda::DeviceGuard device(gpu_);
    times_ = IdgGpuCallTimes{};
    const auto call_start = std::chrono::steady_clock::now();
    std::vector<Timed> batch_times, layer_times;
    grid_held_into_image(unit, batch_times, layer_times);
    const Timed last;
    finish_image(held_->geometry, held_->weight_sum, image, last);
    stream_.synchronize();
    add_device_times(held_->list, batch_times, layer_times, false, &last, call_start);
  }

  // As grid_held_image, with only plane `pol`'s real part leaving the device: divided by the
  // taper, then normalised, the same float products as on the host.
  void grid_held_real_plane(int pol, std::vector<float>& plane) override {
    const cuda::DeviceGuard device(gpu_);
    const Held& h = *held_;
    const size_t count = size_t(settings().grid_size) * size_t(settings().grid_size);
    times_ = IdgGpuCallTimes{};
    const auto call_start = std::chrono::steady_clock::now();
    std::vector<Timed> batch_times, layer_times;
    grid_held_into_image(false, batch_times, layer_times);
    cudaStream_t st = stream_.get();
    float* reals = reinterpret_cast<float*>(grid_.get());  // the grid is done with
    const double weight_sum = h.weight_sum[size_t(pol)];
    const Timed last;
    last.start.record(st);
    IdgGpuGeometry one_plane = h.geometry;  // only plane `pol` is read
    one_plane.npol = 1;
    launch_idg_divide_taper(one_plane, image_taper_.get(), image_.get() + size_t(pol) * count, st);
    launch_idg_real_part(image_.get() + size_t(pol) * count, count,
                         weight_sum == 0 ? 1.0f : float(1.0 / weight_sum), reals, st);
    last.stop.record(st);
    download_reals(reals, plane.data(), count);
    stream_.synchronize();
    add_device_times(h.list, batch_times, layer_times, false, &last, call_start);
  }

  void subtract_held_model(const IdgImage& model) override {
    const cuda::DeviceGuard device(gpu_);
    const IdgSettings& s = settings();
    times_ = IdgGpuCallTimes{};
    const auto call_start = std::chrono::steady_clock::now();
    upload_image(model.pixels.data(), image_.get(), size_t(s.npol) * s.grid_size * s.grid_size);
    subtract_image_from_held(nullptr, call_start);
  }

  // The model made on the device: image_ zeroed and the points written into it.
  void subtract_held_model_points(const std::vector<IdgModelPoint>& points) override {
    const cuda::DeviceGuard device(gpu_);
    const IdgSettings& s = settings();
    times_ = IdgGpuCallTimes{};
    const auto call_start = std::chrono::steady_clock::now();
    const size_t plane = size_t(s.grid_size) * size_t(s.grid_size);
    std::vector<IdgGpuPoint> staged(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
      const IdgModelPoint& p = points[i];
      staged[i].index = (long long)(size_t(p.pol) * plane + size_t(p.index));
      staged[i].value = make_float2(p.value.real(), p.value.imag());
    }
    grow(points_, std::max<size_t>(staged.size(), 1));
    cudaStream_t st = stream_.get();
    const Timed model;
    model.start.record(st);
    RAPT_CUDA_CHECK(cudaMemsetAsync(image_.get(), 0, size_t(s.npol) * plane * sizeof(float2), st));
    RAPT_CUDA_CHECK(cudaMemcpyAsync(points_.get(), staged.data(), staged.size() * sizeof(IdgGpuPoint),
                                    cudaMemcpyHostToDevice, st));
    launch_idg_scatter_points(points_.get(), staged.size(), image_.get(), st);
    model.stop.record(st);
    subtract_image_from_held(&model, call_start);  // synchronises: `staged` may go after
  }

  // Held values -= weight x degrid(model in image_), batch by batch; `extra` timed work before.
  void subtract_image_from_held(const Timed* extra, std::chrono::steady_clock::time_point call_start) {
    const IdgSettings& s = settings();
    Held& h = *held_;
    cudaStream_t st = stream_.get();
    std::vector<Timed> batch_times(h.list.size()), layer_times(size_t(std::max(s.nr_w_layers, 0)));
    float2* predictions = slots_[0].values.get();  // one batch's
    for (size_t i = 0; i < h.list.size(); ++i) {
      const Batch& b = h.list[i];
      if (b.first) model_layer_to_grid(h.geometry, b.z, layer_times[size_t(b.z)]);
      batch_times[i].start.record(st);
      degrid_batch(h.geometry, h.subgrids.get() + h.first_subgrid[i], int(b.end - b.begin),
                   h.uvw.get(), h.freq.get(), predictions, batch_times[i]);
      launch_idg_subtract_weighted(h.weights.get() + h.first_value[i], predictions,
                                   h.values_device.get() + h.first_value[i], h.values[i], st);
      batch_times[i].stop.record(st);
    }
    stream_.synchronize();
    add_device_times(h.list, batch_times, layer_times, true, extra, call_start);
  }

  void release_held_visibilities() override {
    const cuda::DeviceGuard device(gpu_);
    held_.reset();
  }

  void scatter_predictions(const IdgPlan& plan, const std::vector<size_t>& layer, const Batch& b,
                           const Slot& slot, const IdgVisibilities& vis,
                           std::complex<float>* predicted) {
    slot.downloaded.synchronize();
    const auto start = std::chrono::steady_clock::now();
    const size_t count = b.end - b.begin;
    const std::vector<size_t> offsets = staged_offsets(slot, count);
    idg_unpack_subgrids(plan, vis, layer.data() + b.begin, offsets.data(), count,
                        as_complex(slot.values_staging.get()), predicted, host_threads());
    times_.host_s += seconds_since(start);
  }

  int gpu_;
  int batch_subgrids_ = 0;
  size_t batch_visibilities_ = 0;
  IdgGpuGeometry geometry_;
  cuda::Stream stream_, copy_stream_;  // kernels and FFTs; batch uploads and downloads
  cuda::DeviceBuffer<float2> grid_, image_, pixels_;
  Slot slots_[2];
  cuda::DeviceBuffer<float> taper_, n_minus_1_;
  cuda::DeviceBuffer<double> image_taper_, freq_;
  cuda::DeviceBuffer<double3> uvw_;
  cuda::DeviceBuffer<float2> aterms_;  // the last call's A-terms; geometry_.aterms when in use
  cuda::DeviceBuffer<IdgGpuPoint> points_;  // subtract_held_points' model, grown as needed
  FftPlan grid_fft_, subgrid_fft_;
  IdgGpuCallTimes times_;
  std::unique_ptr<Held> held_;  // hold()'s, or null
};

}  // namespace
}  // namespace rapt::gpu

namespace rapt {

std::unique_ptr<IdgEngine> make_cuda_idg_engine(const IdgSettings& settings, int gpu_index) {
  settings.validate();
  std::string why;
  const int count = cuda::device_count(&why);
  if (gpu_index < 0 || gpu_index >= count)
    throw UsageError("IDG: no GPU " + std::to_string(gpu_index) +
                     (count ? " (" + std::to_string(count) + " found)" : " (" + why + ")"));
  return std::make_unique<gpu::GpuIdgEngine>(settings, gpu_index);
}

}  // namespace rapt
