#include "dedisp/channel_rows.hpp"

#include <algorithm>

namespace rapt {
namespace {

// Transposes in tiles of this many spectra so the strided source lines stay in cache while
// every selected channel is copied out of them.
constexpr size_t kTransposeTile = 64;

template <typename Get>
void transpose_tiles(const std::vector<int>& channels, size_t t_begin, size_t t_end, float* rows,
                     size_t row_stride, Get get) {
  for (size_t t0 = t_begin; t0 < t_end; t0 += kTransposeTile) {
    const size_t t1 = std::min(t_end, t0 + kTransposeTile);
    for (size_t i = 0; i < channels.size(); ++i) {
      float* row = rows + i * row_stride - t_begin;
      const int c = channels[i];
      for (size_t t = t0; t < t1; ++t) row[t] = get(t, c);
    }
  }
}

}  // namespace

size_t packed_spectrum_bytes(int nchans, int nbits) {
  return (size_t(nchans) * size_t(nbits) + 7) / 8;
}

void unpack_channel_rows(const SpectraBlock& in, int nchans, const std::vector<int>& channels,
                         size_t t_begin, size_t t_end, float* rows, size_t row_stride) {
  if (in.nbits == 32) {
    const float* data = static_cast<const float*>(in.data);
    transpose_tiles(channels, t_begin, t_end, rows, row_stride,
                    [&](size_t t, int c) { return data[t * nchans + c]; });
  } else if (in.nbits == 8) {
    const uint8_t* data = static_cast<const uint8_t*>(in.data);
    transpose_tiles(channels, t_begin, t_end, rows, row_stride,
                    [&](size_t t, int c) { return float(data[t * nchans + c]); });
  } else {
    const uint8_t* data = static_cast<const uint8_t*>(in.data);
    const size_t spectrum_bytes = packed_spectrum_bytes(nchans, in.nbits);
    const int nbits = in.nbits;
    transpose_tiles(channels, t_begin, t_end, rows, row_stride, [&](size_t t, int c) {
      return float(packed_sample(data, spectrum_bytes, nbits, t, c));
    });
  }
}

}  // namespace rapt
