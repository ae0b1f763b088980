// The CPU dedispersion engine: the readable reference, and fast enough to use.
//
// Each block is first unpacked into channel-major float rows (one row per unzapped channel).
// The output is then cut into tiles of (time x DM) handed to threads. Within a tile, channels
// are taken in blocks so that the rows' windows for every DM of the tile stay in L1/L2 (delays
// of neighbouring DMs differ little, so the windows overlap: that is the reuse), and each DM
// sums 64 consecutive samples at a time in registers: one load and one add per sample and
// channel, no store until the channel block is done.
#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "dedisp/channel_rows.hpp"
#include "dedisp/dedisp_engine.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

// Eight floats; aligned(4) and may_alias let a plain dereference load them from any float
// address (compiled to one unaligned AVX load, or two SSE loads).
typedef float Vec8 __attribute__((vector_size(32), aligned(4), may_alias));

constexpr size_t kChunk = 64;           // samples summed in registers at once (8 vectors)
// Tile shape measured on a 2-core AMD EPYC (1024 channels, 256 DMs): the windows of a block of 16
// channels stay in L1 while 32 DMs are summed from them.
constexpr size_t kTileSamples = 256;    // input samples per time tile (before downsampling)
constexpr int kDmsPerTile = 32;
constexpr int kChannelsPerBlock = 16;

struct TileJob {
  const float* rows;        // channel-major input, row_stride floats per channel
  size_t row_stride;
  const int32_t* delays;    // [dm][channel] for the tile's first DM, nchannels per DM
  int nchannels;
  int ndms;
  size_t t0;                // first input sample of the tile
  size_t nsamples;          // input samples in the tile, rounded up to kChunk
  float* sums;              // [dm][sums_stride]
  size_t sums_stride;
};

// Adds channels [c0, c1) of one DM into sums[0..64), samples t..t+64.
__attribute__((always_inline)) inline void add_chunk(const float* rows, size_t row_stride,
                                                     const int32_t* delays, int c0, int c1,
                                                     size_t t, float* sums, bool first) {
  Vec8* out = reinterpret_cast<Vec8*>(sums);
  Vec8 a0, a1, a2, a3, a4, a5, a6, a7;
  if (first) {
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = Vec8{};
  } else {
    a0 = out[0], a1 = out[1], a2 = out[2], a3 = out[3];
    a4 = out[4], a5 = out[5], a6 = out[6], a7 = out[7];
  }
  for (int c = c0; c < c1; ++c) {
    const Vec8* p = reinterpret_cast<const Vec8*>(rows + size_t(c) * row_stride + t + delays[c]);
    a0 += p[0], a1 += p[1], a2 += p[2], a3 += p[3];
    a4 += p[4], a5 += p[5], a6 += p[6], a7 += p[7];
  }
  out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3;
  out[4] = a4, out[5] = a5, out[6] = a6, out[7] = a7;
}

__attribute__((target_clones("avx2", "default"))) void dedisperse_tile(const TileJob& job) {
  if (job.nchannels == 0) {
    for (int d = 0; d < job.ndms; ++d)
      std::fill_n(job.sums + d * job.sums_stride, job.nsamples, 0.0f);
    return;
  }
  for (int c0 = 0; c0 < job.nchannels; c0 += kChannelsPerBlock) {
    const int c1 = std::min(job.nchannels, c0 + kChannelsPerBlock);
    for (int d = 0; d < job.ndms; ++d) {
      const int32_t* delays = job.delays + size_t(d) * job.nchannels;
      float* sums = job.sums + d * job.sums_stride;
      for (size_t k = 0; k < job.nsamples; k += kChunk)
        add_chunk(job.rows, job.row_stride, delays, c0, c1, job.t0 + k, sums + k, c0 == 0);
    }
  }
}

size_t round_up(size_t n, size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

class CpuDedispEngine final : public DedispEngine {
 public:
  CpuDedispEngine(const DedispPlan& plan, int nthreads) : DedispEngine(plan) {
    nthreads_ = nthreads > 0 ? nthreads : std::max(1, int(std::thread::hardware_concurrency()));
    for (int c = 0; c < plan.nchans; ++c)
      if (plan.zapped.empty() || !plan.zapped[c]) channels_.push_back(c);
    const std::vector<int32_t> table = plan.delay_table();
    delays_.reserve(plan.dms.size() * channels_.size());
    for (size_t d = 0; d < plan.dms.size(); ++d)
      for (int c : channels_) delays_.push_back(table[d * plan.nchans + c]);
    const int ds = plan.downsamp;
    tile_samples_ = size_t(ds) * std::max<size_t>(1, kTileSamples / ds);
    sums_stride_ = round_up(tile_samples_, kChunk);
    sums_.assign(size_t(nthreads_) * kDmsPerTile * sums_stride_, 0.0f);
  }

  std::string name() const override {
    return "cpu (" + std::to_string(nthreads_) + " thread" + (nthreads_ == 1 ? "" : "s") + ")";
  }

 private:
  void do_execute(const SpectraBlock& in, float* out, size_t out_stride) override {
    const size_t valid = in.nspectra - size_t(max_delay());
    unpack(in);
    const size_t ntiles = (valid + tile_samples_ - 1) / tile_samples_;
    const size_t ndms = plan().dms.size();
    const size_t ndm_tiles = (ndms + kDmsPerTile - 1) / kDmsPerTile;
    parallel_for(nthreads_, ndm_tiles * ntiles, [&](size_t item, int worker) {
      const size_t dm0 = (item / ntiles) * kDmsPerTile;
      const size_t t0 = (item % ntiles) * tile_samples_;
      run_tile(dm0, std::min<size_t>(kDmsPerTile, ndms - dm0), t0,
               std::min(tile_samples_, valid - t0), out, out_stride, worker);
    });
  }

  // Sums one (time x DM) tile into the worker's scratch, then downsamples it into `out`.
  void run_tile(size_t dm0, size_t ndms, size_t t0, size_t nsamples, float* out,
                size_t out_stride, int worker) {
    float* sums = sums_.data() + size_t(worker) * kDmsPerTile * sums_stride_;
    const TileJob job{rows_.data(), row_stride_, delays_.data() + dm0 * channels_.size(),
                      int(channels_.size()), int(ndms), t0, round_up(nsamples, kChunk),
                      sums, sums_stride_};
    dedisperse_tile(job);
    const size_t ds = size_t(plan().downsamp);
    for (size_t d = 0; d < ndms; ++d) {
      const float* line = sums + d * sums_stride_;
      float* dst = out + (dm0 + d) * out_stride + t0 / ds;
      if (ds == 1) {
        std::copy_n(line, nsamples, dst);
        continue;
      }
      for (size_t k = 0; k < nsamples / ds; ++k) {
        float total = 0.0f;
        for (size_t j = 0; j < ds; ++j) total += line[k * ds + j];
        dst[k] = total;
      }
    }
  }

  void unpack(const SpectraBlock& in) {
    row_stride_ = round_up(in.nspectra + kChunk, 16);
    // Rows a multiple of 4 KiB apart would all fall into the same cache sets.
    if ((row_stride_ / 16) % 2 == 0) row_stride_ += 16;
    const size_t needed = row_stride_ * channels_.size();
    if (rows_.size() < needed) rows_.assign(needed, 0.0f);
    const size_t nparts = size_t(nthreads_) * 4;
    const size_t part = round_up((in.nspectra + nparts - 1) / nparts, 64);
    parallel_for(nthreads_, nparts, [&](size_t i, int) {
      const size_t t_begin = std::min(in.nspectra, i * part);
      const size_t t_end = std::min(in.nspectra, t_begin + part);
      if (t_begin < t_end)
        unpack_channel_rows(in, plan().nchans, channels_, t_begin, t_end,
                            rows_.data() + t_begin, row_stride_);
    });
  }

  int nthreads_ = 1;
  std::vector<int> channels_;      // unzapped channels, in plan order
  std::vector<int32_t> delays_;    // [dm][unzapped channel index], input samples
  std::vector<float> rows_;        // channel-major input of the current block
  size_t row_stride_ = 0;
  size_t tile_samples_ = 0;        // input samples per tile, a multiple of downsamp
  size_t sums_stride_ = 0;
  std::vector<float> sums_;        // per-thread tile sums
};

}  // namespace

std::unique_ptr<DedispEngine> make_cpu_dedisp_engine(const DedispPlan& plan, int nthreads) {
  return std::make_unique<CpuDedispEngine>(plan, nthreads);
}

}  // namespace rapt
