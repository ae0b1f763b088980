// Host-side packing of a canonical block of voltages into the kernels' input layout
// (corr_kernels.hpp), converted as the precision asks: int8 (rounded and clamped by
// round_to_int8, the CPU engine's own rule), IEEE half (round_to_half), or float as given.
// So the bus carries 1, 2 or 4 bytes per value, and the corner turn (each receiver's samples
// made one row) costs nothing beyond the pass over the data the conversion makes anyway.
#pragma once
#include <cstdint>

#include "corr/correlator_engine.hpp"

namespace rapt::gpu {

// Channels [chan0, chan0 + nchan) and samples [t0, t0 + nt) of a block of `nsamples` samples,
// written as rows of `tpad` samples (those from nt on zero).
struct CorrChunk {
  int chan0 = 0;
  int nchan = 0;
  int64_t t0 = 0;
  int64_t nt = 0;
  int64_t tpad = 0;
};

// Packs `chunk` of `voltages` ([chan][ant][time][pol][re, im], `nsamples` samples) into `out`
// on up to `threads` threads. Returns the number of values clamped (int8; else 0).
int64_t pack_correlator_chunk(const CorrelatorShape& shape, const float* voltages, int64_t nsamples,
                              const CorrChunk& chunk, void* out, int threads);

}  // namespace rapt::gpu
