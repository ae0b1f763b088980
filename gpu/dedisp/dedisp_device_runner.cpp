#include "dedisp_device_runner.hpp"

#include <stdexcept>
#include <vector>

#include "dedisp_kernels.hpp"

namespace rapt::gpu {
namespace {

cuda::DeviceBuffer<int32_t> upload(const std::vector<int32_t>& values) {
  cuda::DeviceBuffer<int32_t> buffer(values.size());
  if (!values.empty())
    RAPT_CUDA_CHECK(cudaMemcpy(buffer.get(), values.data(), values.size() * sizeof(int32_t),
                               cudaMemcpyHostToDevice));
  return buffer;
}

}  // namespace

size_t device_shared_memory_limit() {
  int device = 0, limit = 0;
  RAPT_CUDA_CHECK(cudaGetDevice(&device));
  RAPT_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return size_t(limit);
}

DedispDeviceRunner::DedispDeviceRunner(std::shared_ptr<const DedispDelays> delays,
                                       DedispSampleKind kind, int downsamp,
                                       std::optional<DedispTileConfig> config)
    : delays_(std::move(delays)), kind_(kind), downsamp_(downsamp), config_(config) {
  active_channels_ = upload(delays_->active_channels);
  if (!config_) {
    direct_delays_ = upload(delays_->delays);
    return;
  }
  if (!is_compiled_config(*config_, kind_))
    throw std::logic_error("dedispersion runner: no kernel for " + config_->text());
  DedispTileTables t = make_tile_tables(*delays_, kind_, *config_);
  if (t.shared_bytes() > device_shared_memory_limit())
    throw std::logic_error("dedispersion runner: " + config_->text() + " needs " +
                           std::to_string(t.shared_bytes()) + " bytes of shared memory");
  window_start_ = upload(t.window_start);
  window_words_ = upload(t.window_words);
  stage_offsets_ = upload(t.stage_offsets);
  t.window_start = {};
  t.window_words = {};
  t.stage_offsets = {};
  tables_ = std::move(t);
}

int DedispDeviceRunner::dm_units() const { return tiled() ? tables_.ndm_blocks : delays_->ndm(); }
int DedispDeviceRunner::dms_per_unit() const { return tiled() ? tables_.dms_per_block : 1; }
int DedispDeviceRunner::samples_per_block() const {
  return tiled() ? tables_.samples_per_block : kDirectThreads;
}

size_t DedispDeviceRunner::table_bytes() const {
  return (active_channels_.size() + direct_delays_.size() + window_start_.size() +
          window_words_.size() + stage_offsets_.size()) *
         sizeof(int32_t);
}

std::string DedispDeviceRunner::description() const {
  return tiled() ? "tiled " + config_->text() : std::string("direct");
}

void DedispDeviceRunner::unpack(const uint8_t* raw, int nbits, int nchans, size_t nspectra,
                                void* rows, size_t row_stride, cudaStream_t stream) const {
  UnpackParams p;
  p.raw = raw;
  p.spectrum_bytes = size_t(nchans) * size_t(nbits) / 8;
  p.nbits = nbits;
  p.nspectra = nspectra;
  p.active_channels = active_channels_.get();
  p.nactive = delays_->nactive();
  p.rows = rows;
  p.row_stride = row_stride;
  launch_unpack(p, stream);
}

void DedispDeviceRunner::dedisperse(const DedispChunk& chunk, const void* rows, size_t row_stride,
                                    float* out, size_t out_stride, void* full, size_t full_stride,
                                    cudaStream_t stream) const {
  const bool downsampling = downsamp_ > 1;
  if (downsampling && !full) throw std::logic_error("dedispersion runner: no downsampling buffer");
  const bool exact = downsampling && kind_ == DedispSampleKind::u8;
  void* dest = downsampling ? full : out;
  const size_t dest_stride = downsampling ? full_stride : out_stride;
  if (tiled()) {
    const TileTablePointers at{window_start_.get(), window_words_.get(), stage_offsets_.get()};
    launch_tiled_dedisp(
        make_tiled_params(tables_, at, chunk, rows, row_stride, dest, dest_stride, exact), kind_,
        *config_, stream);
  } else {
    launch_direct_dedisp(
        make_direct_params(*delays_, direct_delays_.get(), chunk, kind_ == DedispSampleKind::u8,
                           rows, row_stride, dest, dest_stride, exact),
        stream);
  }
  if (!downsampling) return;
  DownsampleParams d;
  d.full = full;
  d.full_u32 = exact;
  d.full_stride = full_stride;
  d.downsamp = downsamp_;
  d.nrows = chunk_dms(chunk, dms_per_unit(), delays_->ndm()).count;
  d.nout = chunk.nsamp / size_t(downsamp_);
  d.out = out;
  d.out_stride = out_stride;
  launch_downsample(d, stream);
}

}  // namespace rapt::gpu
