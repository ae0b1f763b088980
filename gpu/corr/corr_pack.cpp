// Packing for the GPU correlator: one job per (channel, antenna), whose samples are one
// contiguous run of the canonical block, written to its npol receiver rows.
#include "corr_pack.hpp"

#include <cuda_fp16.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "dedisp/parallel_for.hpp"

namespace rapt::gpu {
namespace {

struct ToInt8 {
  using Out = int8_t;
  int64_t clamped = 0;
  int8_t operator()(float v) {
    bool was_clamped = false;
    const int8_t r = round_to_int8(v, &was_clamped);
    clamped += was_clamped;
    return r;
  }
};

struct ToHalf {
  using Out = __half;
  int64_t clamped = 0;
  // round_to_half gives a value half holds exactly (or an infinity), so this conversion is exact
  // and the GPU multiplies the very values the CPU engine does.
  __half operator()(float v) { return __float2half_rn(round_to_half(v)); }
};

struct ToFloat {
  using Out = float;
  int64_t clamped = 0;
  float operator()(float v) { return v; }
};

template <class Convert>
int64_t pack(const CorrelatorShape& s, const float* voltages, int64_t nsamples,
             const CorrChunk& chunk, void* out, int threads) {
  using Out = typename Convert::Out;
  const int npol = s.npol;
  const size_t jobs = size_t(chunk.nchan) * size_t(s.nant);
  // Small chunks on one thread: starting threads would cost more than the work.
  const size_t values = jobs * size_t(chunk.nt) * npol * 2;
  const int nthreads = values < (size_t(1) << 16) ? 1 : threads;
  std::atomic<int64_t> clamped{0};
  parallel_for(nthreads, jobs, [&](size_t job, int) {
    const int c = chunk.chan0 + int(job / size_t(s.nant)), a = int(job % size_t(s.nant));
    const float* src =
        voltages + ((size_t(c) * s.nant + a) * size_t(nsamples) + size_t(chunk.t0)) * npol * 2;
    Out* rows = static_cast<Out*>(out) + job * npol * size_t(chunk.tpad) * 2;
    Convert convert;
    if (npol == 1) {
      for (int64_t t = 0; t < 2 * chunk.nt; ++t) rows[t] = convert(src[t]);
    } else {
      Out* x = rows;
      Out* y = rows + size_t(chunk.tpad) * 2;
      for (int64_t t = 0; t < chunk.nt; ++t) {
        x[2 * t] = convert(src[4 * t]);
        x[2 * t + 1] = convert(src[4 * t + 1]);
        y[2 * t] = convert(src[4 * t + 2]);
        y[2 * t + 1] = convert(src[4 * t + 3]);
      }
    }
    const size_t pad = size_t(chunk.tpad - chunk.nt) * 2 * sizeof(Out);
    for (int p = 0; p < npol && pad; ++p)
      std::memset(rows + (size_t(p) * chunk.tpad + chunk.nt) * 2, 0, pad);
    if (convert.clamped) clamped += convert.clamped;
  });
  return clamped;
}

}  // namespace

int64_t pack_correlator_chunk(const CorrelatorShape& shape, const float* voltages, int64_t nsamples,
                              const CorrChunk& chunk, void* out, int threads) {
  switch (shape.precision) {
    case CorrPrecision::int8:
      return pack<ToInt8>(shape, voltages, nsamples, chunk, out, threads);
    case CorrPrecision::fp16:
      return pack<ToHalf>(shape, voltages, nsamples, chunk, out, threads);
    case CorrPrecision::fp32:
      break;
  }
  return pack<ToFloat>(shape, voltages, nsamples, chunk, out, threads);
}

}  // namespace rapt::gpu
