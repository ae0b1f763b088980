// Sample decoding for PSRFITS search-mode rows: unpacking and calibration, no file access.
#include <algorithm>

#include "io/psrfits.hpp"

namespace rapt {

void unpack_psrfits_samples(const uint8_t* cell, int nbits, bool int8_samples, size_t first,
                            size_t count, float* out) {
  if (nbits == 8) {
    const uint8_t* in = cell + first;
    if (int8_samples) {
      for (size_t i = 0; i < count; ++i) out[i] = float(int8_t(in[i]));
    } else {
      for (size_t i = 0; i < count; ++i) out[i] = float(in[i]);
    }
    return;
  }
  if (nbits == 16) {
    const uint8_t* in = cell + 2 * first;
    for (size_t i = 0; i < count; ++i) {
      out[i] = float(int16_t(uint16_t(in[2 * i] << 8 | in[2 * i + 1])));
    }
    return;
  }
  // 1, 2 or 4 bits: the first sample of each byte sits in its most significant bits.
  const unsigned per_byte = 8u / unsigned(nbits);
  const unsigned mask = (1u << nbits) - 1u;
  for (size_t i = 0; i < count; ++i) {
    const size_t index = first + i;
    const unsigned slot = unsigned(index % per_byte);
    const unsigned shift = 8u - unsigned(nbits) * (slot + 1u);
    out[i] = float((cell[index / per_byte] >> shift) & mask);
  }
}

void psrfits_row_intensity(const PsrfitsCell& cell, const PsrfitsSampleLayout& layout,
                           const PsrfitsRowScaling& scaling, float* scratch, float* out) {
  const size_t nchans = size_t(layout.nchans);
  const float* weights = scaling.weights.data();
  for (size_t s = 0; s < size_t(layout.nsblk); ++s) {
    float* spectrum = out + s * nchans;
    std::fill(spectrum, spectrum + nchans, 0.0f);
    for (int p = layout.first_pol; p < layout.first_pol + layout.pols_summed; ++p) {
      const size_t first = (s * size_t(layout.npol) + size_t(p)) * nchans;
      const float* raw = cell.values ? cell.values + first : scratch;
      if (!cell.values) {
        unpack_psrfits_samples(cell.bytes, layout.nbits, layout.int8_samples, first, nchans,
                               scratch);
      }
      const float* scales = scaling.scales.data() + size_t(p) * nchans;
      const float* offsets = scaling.offsets.data() + size_t(p) * nchans;
      for (size_t c = 0; c < nchans; ++c) {
        spectrum[c] += ((raw[c] - layout.zero_offset) * scales[c] + offsets[c]) * weights[c];
      }
    }
  }
}

}  // namespace rapt
