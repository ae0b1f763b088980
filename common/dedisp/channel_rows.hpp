// Unpacking time-major spectra (packed 1/2/4/8-bit unsigned, LSB-first as in SIGPROC, or
// float32) into channel-major float rows: the layout the CPU dedispersion kernel streams over.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dedisp/dedisp_engine.hpp"

namespace rapt {

// rows[i * row_stride + (t - t_begin)] = sample of channel channels[i] at spectrum t, for t in
// [t_begin, t_end). `nchans` is the number of channels stored per spectrum.
void unpack_channel_rows(const SpectraBlock& in, int nchans, const std::vector<int>& channels,
                         size_t t_begin, size_t t_end, float* rows, size_t row_stride);

// Bytes one spectrum takes in a block of `nbits` samples.
size_t packed_spectrum_bytes(int nchans, int nbits);

// Value of channel c in spectrum t of a packed (nbits < 32) block.
inline uint32_t packed_sample(const uint8_t* data, size_t spectrum_bytes, int nbits, size_t t,
                              int c) {
  const size_t bit = size_t(c) * nbits;
  const uint8_t byte = data[t * spectrum_bytes + bit / 8];
  return (byte >> (bit % 8)) & ((1u << nbits) - 1u);
}

}  // namespace rapt
