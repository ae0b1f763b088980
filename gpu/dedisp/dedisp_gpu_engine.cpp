// The CUDA dedispersion engine: DedispEngine on one GPU.
//
// A block is cut into chunks (dedisp_chunks.hpp) that run as a pipeline on three streams:
//   upload:   host copies the chunk's spectra into page-locked staging; H2D copy; unpack kernel
//   compute:  dedispersion (and downsampling) kernels, one launch per DM chunk
//   download: D2H copy of the finished DM chunk into page-locked staging
// and the host copies each finished chunk into the caller's output while the GPU works on the
// next. Input and output staging have two slots each; events order the reuse of a slot after
// the work that read it. The packed input stays packed until the unpack kernel (1/2/4/8-bit
// samples become bytes, never floats); the kernel choice is made once per sample width. Every
// block ends with a CPU recomputation of four outputs (dedisp_self_check.hpp).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>

#include "cli/errors.hpp"
#include "../cuda/cuda_device_query.hpp"
#include "dedisp/dedisp_gpu_factory.hpp"
#include "dedisp/parallel_for.hpp"
#include "dedisp_autotune.hpp"
#include "dedisp_chunks.hpp"
#include "dedisp_device_runner.hpp"
#include "dedisp_gpu_options.hpp"
#include "dedisp_self_check.hpp"
#include "../cuda/device_buffer.hpp"

namespace rapt::gpu {
namespace {

constexpr size_t kDefaultPinnedBudget = size_t(1) << 30;
constexpr size_t kCopyPiece = size_t(8) << 20;  // bytes per host copy task

// Copies with several host threads: one thread cannot fill the memory bandwidth, and the
// copies into and out of staging are as large as the GPU's work.
void copy_parallel(void* dst, const void* src, size_t bytes, int nthreads) {
  const size_t pieces = (bytes + kCopyPiece - 1) / kCopyPiece;
  parallel_for(nthreads, pieces, [&](size_t i, int) {
    const size_t first = i * kCopyPiece;
    std::memcpy(static_cast<char*>(dst) + first, static_cast<const char*>(src) + first,
                std::min(kCopyPiece, bytes - first));
  });
}

struct InputSlot {
  cuda::PinnedBuffer<uint8_t> pinned;
  cuda::DeviceBuffer<uint8_t> raw;
  cuda::DeviceBuffer<uint32_t> rows;  // uint8 or float rows
  cuda::Event uploaded;               // the H2D copy from `pinned` is done
  cuda::Event unpacked;               // `rows` hold the chunk
  cuda::Event released;               // the kernels reading `rows` are done
};

struct OutputSlot {
  cuda::DeviceBuffer<float> out;
  cuda::PinnedBuffer<float> pinned;
  cuda::Event downloaded;  // the D2H copy from `out` is done
};

// Grows a buffer to at least `count` elements (freeing the old one first: never both held).
template <class Buffer>
void grow(Buffer& buffer, size_t count) {
  if (buffer.size() >= count) return;
  buffer = Buffer();
  buffer = Buffer(count);
}

// Every CUDA object of the engine, created with the engine's device current.
struct Resources {
  cuda::Stream upload, compute, download;
  InputSlot inputs[2];
  OutputSlot outputs[2];
  cuda::DeviceBuffer<uint32_t> full;  // full-resolution sums before downsampling
  cuda::Event computed;
};

class GpuDedispEngine final : public DeviceDedispEngine {
 public:
  GpuDedispEngine(const DedispPlan& plan, int gpu, const GpuDedispOptions& options)
      : DeviceDedispEngine(plan), gpu_(gpu), options_(options) {
    const cuda::DeviceGuard device(gpu_);
    description_ = "gpu:" + std::to_string(gpu_) + " (" + cuda::device_name(gpu_) + ")";
    delays_ = std::make_shared<const DedispDelays>(make_dedisp_delays(this->plan()));
    if (delays_->max_delay != max_delay())
      throw std::logic_error("GPU dedispersion: maximum delay differs from the plan's");
    for (size_t j = 0; j < delays_->dm_order.size(); ++j)
      sorted_is_plan_order_ = sorted_is_plan_order_ && delays_->dm_order[j] == int32_t(j);
    nthreads_ = options_.host_threads > 0
                    ? options_.host_threads
                    : int(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
    res_ = std::make_unique<Resources>();
  }

  // Frees everything with the engine's device current, then gives the thread its device back.
  ~GpuDedispEngine() override {
    int previous = -1;
    if (cudaGetDevice(&previous) != cudaSuccess) previous = -1;
    cudaSetDevice(gpu_);
    cudaStreamSynchronize(res_->upload.get());
    cudaStreamSynchronize(res_->compute.get());
    cudaStreamSynchronize(res_->download.get());
    res_.reset();
    runners_[0].reset();
    runners_[1].reset();
    if (previous >= 0) cudaSetDevice(previous);
  }

  std::string name() const override {
    std::string text = description_;
    for (int k = 0; k < 2; ++k)
      if (runners_[k])
        text += std::string(", ") + sample_kind_name(runners_[k]->kind()) +
                " input: " + runners_[k]->description() + " [" + choices_[k].source + "]";
    return text;
  }

  int gpu() const override { return gpu_; }

  void execute_to_device(const SpectraBlock& in, float* out_device, size_t out_stride) override {
    check_block(in, out_device, out_stride);
    const cuda::DeviceGuard device(gpu_);
    // No synchronisation with earlier calls: the staging and row slots wait on their events,
    // and each call writes other columns of the output.
    const DedispDeviceRunner& runner = runner_for(in.nbits);
    DedispChunkMemory memory;
    const std::vector<DedispChunk> schedule = plan_block(in, runner, false, memory);
    for (size_t i = 0; i < schedule.size(); ++i) {
      const DedispChunk& chunk = schedule[i];
      InputSlot& input = res_->inputs[chunk.time_chunk % 2];
      if (chunk.new_time_chunk) upload(in, chunk, memory, input, runner);
      const bool last_use = i + 1 == schedule.size() || schedule[i + 1].new_time_chunk;
      compute_into(chunk, memory, input, runner, last_use, out_device, out_stride);
    }
  }

  void synchronize() override {
    const cuda::DeviceGuard device(gpu_);
    synchronize_all();
  }

 private:
  void do_execute(const SpectraBlock& in, float* out, size_t out_stride) override {
    const cuda::DeviceGuard device(gpu_);
    synchronize_all();  // a previous call that failed half-way may have left work behind
    const DedispDeviceRunner& runner = runner_for(in.nbits);
    DedispChunkMemory memory;
    const std::vector<DedispChunk> schedule = plan_block(in, runner, true, memory);
    const DedispChunk* pending = nullptr;
    for (size_t i = 0; i < schedule.size(); ++i) {
      const DedispChunk& chunk = schedule[i];
      InputSlot& input = res_->inputs[chunk.time_chunk % 2];
      if (chunk.new_time_chunk) upload(in, chunk, memory, input, runner);
      const bool last_use = i + 1 == schedule.size() || schedule[i + 1].new_time_chunk;
      compute(chunk, memory, input, res_->outputs[i % 2], runner, last_use);
      if (pending) finish(*pending, res_->outputs[(i - 1) % 2], memory, runner, out, out_stride);
      pending = &chunk;
    }
    finish(*pending, res_->outputs[(schedule.size() - 1) % 2], memory, runner, out, out_stride);
    if (options_.self_check) {
      const std::string problem = check_output_samples(plan(), *delays_, in, out, out_stride);
      if (!problem.empty())
        throw DataError("GPU dedispersion self-check failed (" + runner.description() +
                        "): " + problem);
    }
  }

  // The chunks of a block, their buffers grown to fit (output staging only for host output).
  std::vector<DedispChunk> plan_block(const SpectraBlock& in, const DedispDeviceRunner& runner,
                                      bool host_output, DedispChunkMemory& memory) {
    const DedispGeometry geometry = geometry_for(runner, in.nbits);
    const size_t n_out = in.nspectra - size_t(max_delay());
    const DedispChunking chunking =
        choose_chunking(geometry, n_out, device_budget(), pinned_budget());
    memory = chunk_memory(geometry, chunking);
    reserve(memory, geometry.kind, host_output);
    return chunk_schedule(n_out, runner.dm_units(), chunking);
  }

  // The kernel for this sample width, chosen (tuned, cached) on first use.
  const DedispDeviceRunner& runner_for(int nbits) {
    const int k = sample_kind_for_nbits(nbits) == DedispSampleKind::u8 ? 0 : 1;
    if (!runners_[k]) {
      choices_[k] = choose_dedisp_kernel(delays_, plan(), nbits, gpu_, options_);
      runners_[k] = std::make_unique<DedispDeviceRunner>(delays_, sample_kind_for_nbits(nbits),
                                                         plan().downsamp, choices_[k].config);
    }
    return *runners_[k];
  }

  DedispGeometry geometry_for(const DedispDeviceRunner& runner, int nbits) const {
    DedispGeometry g;
    g.kind = runner.kind();
    g.nbits = nbits;
    g.nchans = plan().nchans;
    g.nactive = delays_->nactive();
    g.max_delay = max_delay();
    g.downsamp = plan().downsamp;
    g.dm_units = runner.dm_units();
    g.dms_per_unit = runner.dms_per_unit();
    g.samples_per_block = runner.samples_per_block();
    g.table_bytes = 0;  // already allocated: counted in the free memory below
    return g;
  }

  size_t held_bytes() const {
    size_t bytes = res_->full.bytes();
    for (const InputSlot& s : res_->inputs) bytes += s.raw.bytes() + s.rows.bytes();
    for (const OutputSlot& s : res_->outputs) bytes += s.out.bytes();
    return bytes;
  }

  // What this engine may hold: the option, or 80% of what is free plus what it holds already.
  size_t device_budget() const {
    if (options_.device_memory_bytes) return options_.device_memory_bytes;
    size_t free_bytes = 0, total_bytes = 0;
    RAPT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return (free_bytes + held_bytes()) / 10 * 8;
  }

  size_t pinned_budget() const {
    return options_.pinned_memory_bytes ? options_.pinned_memory_bytes : kDefaultPinnedBudget;
  }

  // Grows the buffers to `m` (never shrinks: the next gulp is usually the same size). Output
  // staging only for output that goes to the host.
  void reserve(const DedispChunkMemory& m, DedispSampleKind kind, bool host_output) {
    const size_t row_words = (m.rows_elems * (kind == DedispSampleKind::u8 ? 1 : 4) + 3) / 4 + 4;
    for (InputSlot& s : res_->inputs) {
      grow(s.pinned, m.raw_bytes);
      grow(s.raw, m.raw_bytes);
      grow(s.rows, row_words);
    }
    for (OutputSlot& s : res_->outputs) {
      grow(s.out, m.out_elems);
      if (host_output) grow(s.pinned, m.out_elems);
    }
    grow(res_->full, m.full_elems);
  }

  void upload(const SpectraBlock& in, const DedispChunk& chunk, const DedispChunkMemory& m,
              InputSlot& input, const DedispDeviceRunner& runner) {
    const size_t spectrum_bytes = size_t(plan().nchans) * size_t(in.nbits) / 8;
    const size_t nspectra = chunk.nsamp + size_t(max_delay());
    const size_t bytes = nspectra * spectrum_bytes;
    input.uploaded.synchronize();  // the copy from this staging slot two time chunks ago
    copy_parallel(input.pinned.get(),
                  static_cast<const uint8_t*>(in.data) + chunk.first_sample * spectrum_bytes, bytes,
                  nthreads_);
    const cudaStream_t stream = res_->upload.get();
    RAPT_CUDA_CHECK(cudaMemcpyAsync(input.raw.get(), input.pinned.get(), bytes,
                                    cudaMemcpyHostToDevice, stream));
    input.uploaded.record(stream);
    input.released.make_wait(stream);  // the kernels of two time chunks ago read these rows
    runner.unpack(input.raw.get(), in.nbits, plan().nchans, nspectra, input.rows.get(),
                  m.row_stride, stream);
    input.unpacked.record(stream);
  }

  void compute(const DedispChunk& chunk, const DedispChunkMemory& m, InputSlot& input,
               OutputSlot& output, const DedispDeviceRunner& runner, bool last_use) {
    const cudaStream_t stream = res_->compute.get();
    input.unpacked.make_wait(stream);
    output.downloaded.make_wait(stream);  // this slot's previous chunk has left the GPU
    runner.dedisperse(chunk, input.rows.get(), m.row_stride, output.out.get(), m.out_stride,
                      res_->full.get(), m.full_stride, stream);
    if (last_use) input.released.record(stream);
    res_->computed.record(stream);
    const cudaStream_t down = res_->download.get();
    res_->computed.make_wait(down);
    const size_t rows = size_t(chunk_dms(chunk, runner.dms_per_unit(), delays_->ndm()).count);
    RAPT_CUDA_CHECK(cudaMemcpyAsync(output.pinned.get(), output.out.get(),
                                    rows * m.out_stride * sizeof(float), cudaMemcpyDeviceToHost,
                                    down));
    output.downloaded.record(down);
  }

  // The kernels write straight into the caller's rows where the sorted DM order is the plan's
  // and the rows keep the vector stores aligned; otherwise through an output slot, row by row.
  void compute_into(const DedispChunk& chunk, const DedispChunkMemory& m, InputSlot& input,
                    const DedispDeviceRunner& runner, bool last_use, float* out,
                    size_t out_stride) {
    const cudaStream_t stream = res_->compute.get();
    input.unpacked.make_wait(stream);
    const SortedDmRange dms = chunk_dms(chunk, runner.dms_per_unit(), delays_->ndm());
    const size_t ds = size_t(plan().downsamp);
    const size_t col = chunk.first_sample / ds;
    float* direct = out + size_t(dms.first) * out_stride + col;
    const bool aligned = out_stride % 4 == 0 && reinterpret_cast<uintptr_t>(direct) % 16 == 0;
    if (sorted_is_plan_order_ && aligned) {
      runner.dedisperse(chunk, input.rows.get(), m.row_stride, direct, out_stride,
                        res_->full.get(), m.full_stride, stream);
    } else {
      OutputSlot& slot = res_->outputs[0];
      runner.dedisperse(chunk, input.rows.get(), m.row_stride, slot.out.get(), m.out_stride,
                        res_->full.get(), m.full_stride, stream);
      for (int r = 0; r < dms.count; ++r)
        RAPT_CUDA_CHECK(cudaMemcpyAsync(
            out + size_t(delays_->dm_order[size_t(dms.first + r)]) * out_stride + col,
            slot.out.get() + size_t(r) * m.out_stride, chunk.nsamp / ds * sizeof(float),
            cudaMemcpyDeviceToDevice, stream));
    }
    if (last_use) input.released.record(stream);
  }

  // Waits for a chunk's output to reach staging and copies it into the caller's buffer.
  void finish(const DedispChunk& chunk, OutputSlot& output, const DedispChunkMemory& m,
              const DedispDeviceRunner& runner, float* out, size_t out_stride) {
    output.downloaded.synchronize();
    const SortedDmRange dms = chunk_dms(chunk, runner.dms_per_unit(), delays_->ndm());
    const size_t ds = size_t(plan().downsamp);
    const int rows_per_task = std::max(1, int(kCopyPiece / (m.out_stride * sizeof(float) + 1)));
    const size_t tasks = (size_t(dms.count) + rows_per_task - 1) / rows_per_task;
    parallel_for(nthreads_, tasks, [&](size_t task, int) {
      SortedDmRange part;
      part.first = dms.first + int(task) * rows_per_task;
      part.count = std::min(rows_per_task, dms.first + dms.count - part.first);
      copy_rows_to_output(output.pinned.get() + size_t(part.first - dms.first) * m.out_stride,
                          m.out_stride, part, delays_->dm_order, chunk.first_sample / ds,
                          chunk.nsamp / ds, out, out_stride);
    });
  }

  void synchronize_all() const {
    res_->upload.synchronize();
    res_->compute.synchronize();
    res_->download.synchronize();
  }

  int gpu_;
  GpuDedispOptions options_;
  std::string description_;
  std::shared_ptr<const DedispDelays> delays_;
  bool sorted_is_plan_order_ = true;  // DMs given ascending: rows can go straight to the caller
  int nthreads_ = 1;
  std::unique_ptr<Resources> res_;
  KernelChoice choices_[2];  // 8-bit and float input
  std::unique_ptr<DedispDeviceRunner> runners_[2];
};

}  // namespace

std::unique_ptr<DedispEngine> make_gpu_dedisp_engine(const DedispPlan& plan, int gpu_index,
                                                     const GpuDedispOptions& options) {
  std::string why_none;
  const int count = cuda::device_count(&why_none);
  if (count == 0)
    throw UsageError("gpu:" + std::to_string(gpu_index) + ": no CUDA device found (" + why_none +
                     ")");
  if (gpu_index < 0 || gpu_index >= count)
    throw UsageError("gpu:" + std::to_string(gpu_index) + ": no such device; this machine has " +
                     std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s"));
  return std::make_unique<GpuDedispEngine>(plan, gpu_index, options);
}

std::unique_ptr<DeviceDedispEngine> make_device_dedisp_engine(const DedispPlan& plan,
                                                              int gpu_index,
                                                              const GpuDedispOptions& options) {
  std::unique_ptr<DedispEngine> engine = make_gpu_dedisp_engine(plan, gpu_index, options);
  return std::unique_ptr<DeviceDedispEngine>(static_cast<DeviceDedispEngine*>(engine.release()));
}

}  // namespace rapt::gpu

namespace rapt {

std::unique_ptr<DedispEngine> make_gpu_dedisp_engine(const DedispPlan& plan, int gpu_index) {
  return gpu::make_gpu_dedisp_engine(plan, gpu_index, gpu::GpuDedispOptions{});
}

}  // namespace rapt
