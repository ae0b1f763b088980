// SIGPROC sample encodings (formats.md 1.4): 1/2/4-bit unsigned packed LSB-first, 8-bit
// unsigned or int8, 16-bit uint16, 32-bit float; all little-endian. IFs are summed on reading.
#include <cstring>

#include "io/sigproc.hpp"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "SIGPROC samples are copied as little-endian words; port the loads for this host"
#endif

namespace rapt {

namespace {

// Sub-byte samples: each byte value maps to its 8/kBits channel values, looked up whole.
template <int kBits>
struct ByteValues {
  static constexpr int kPerByte = 8 / kBits;
  float value[256][kPerByte];
};

template <int kBits>
constexpr ByteValues<kBits> make_byte_values() {
  ByteValues<kBits> table{};
  for (unsigned byte = 0; byte < 256; ++byte)
    for (int j = 0; j < ByteValues<kBits>::kPerByte; ++j)
      table.value[byte][j] = float((byte >> (j * kBits)) & ((1u << kBits) - 1));
  return table;
}

template <int kBits>
constexpr ByteValues<kBits> kByteValues = make_byte_values<kBits>();

// kAdd: accumulate into `out` (further IFs) instead of overwriting it (the first IF).
template <int kBits, bool kAdd>
void unpack_packed(const uint8_t* in, size_t nbytes, float* out) {
  constexpr int kPerByte = ByteValues<kBits>::kPerByte;
  const auto& table = kByteValues<kBits>.value;
  for (size_t b = 0; b < nbytes; ++b) {
    const float* values = table[in[b]];
    float* o = out + b * kPerByte;
    if (kAdd) {
      for (int j = 0; j < kPerByte; ++j) o[j] += values[j];
    } else {
      std::memcpy(o, values, sizeof(float) * kPerByte);
    }
  }
}

template <typename T, bool kAdd>
void unpack_words(const uint8_t* in, size_t nvalues, float* out) {
  for (size_t i = 0; i < nvalues; ++i) {
    T v;
    std::memcpy(&v, in + i * sizeof(T), sizeof(T));
    if (kAdd) out[i] += float(v); else out[i] = float(v);
  }
}

template <bool kAdd>
void unpack_row(const uint8_t* in, size_t nvalues, const SigprocHeader& h, float* out) {
  switch (h.nbits) {
    case 1: unpack_packed<1, kAdd>(in, nvalues / 8, out); break;
    case 2: unpack_packed<2, kAdd>(in, nvalues / 4, out); break;
    case 4: unpack_packed<4, kAdd>(in, nvalues / 2, out); break;
    case 8:
      if (h.samples_signed()) unpack_words<int8_t, kAdd>(in, nvalues, out);
      else unpack_words<uint8_t, kAdd>(in, nvalues, out);
      break;
    case 16: unpack_words<uint16_t, kAdd>(in, nvalues, out); break;
    case 32: unpack_words<float, kAdd>(in, nvalues, out); break;
  }
}

// Round to nearest (halves up) after clipping to [lo, hi]; NaN becomes lo.
inline unsigned quantise_unsigned(float x, float hi) {
  x = x > 0.0f ? x : 0.0f;
  x = x < hi ? x : hi;
  return unsigned(double(x) + 0.5);  // in double, so x + 0.5 cannot round up
}

template <int kBits>
void pack_packed(const float* in, size_t nbytes, uint8_t* out) {
  constexpr int kPerByte = 8 / kBits;
  constexpr float kMax = float((1u << kBits) - 1);
  for (size_t b = 0; b < nbytes; ++b) {
    unsigned byte = 0;
    for (int j = 0; j < kPerByte; ++j)
      byte |= quantise_unsigned(in[b * kPerByte + j], kMax) << (j * kBits);
    out[b] = uint8_t(byte);
  }
}

template <typename T>
void pack_unsigned_words(const float* in, size_t nvalues, float max, uint8_t* out) {
  for (size_t i = 0; i < nvalues; ++i) {
    const T v = T(quantise_unsigned(in[i], max));
    std::memcpy(out + i * sizeof(T), &v, sizeof(T));
  }
}

void pack_int8(const float* in, size_t nvalues, uint8_t* out) {
  for (size_t i = 0; i < nvalues; ++i)
    out[i] = uint8_t(int(quantise_unsigned(in[i] + 128.0f, 255.0f)) - 128);
}

}  // namespace

void unpack_sigproc_samples(const uint8_t* raw, size_t nspectra, const SigprocHeader& header,
                            float* out) {
  const size_t nchans = size_t(header.nchans);
  const size_t if_bytes = nchans * size_t(header.nbits) / 8;
  const size_t nifs = size_t(header.nifs);
  if (nifs == 1) {  // the common case: one pass over the whole block
    unpack_row<false>(raw, nspectra * nchans, header, out);
    return;
  }
  for (size_t s = 0; s < nspectra; ++s) {
    const uint8_t* spectrum = raw + s * nifs * if_bytes;
    float* o = out + s * nchans;
    unpack_row<false>(spectrum, nchans, header, o);
    for (size_t i = 1; i < nifs; ++i) unpack_row<true>(spectrum + i * if_bytes, nchans, header, o);
  }
}

void pack_sigproc_samples(const float* in, size_t nvalues, const SigprocHeader& header,
                          uint8_t* out) {
  switch (header.nbits) {
    case 1: pack_packed<1>(in, nvalues / 8, out); break;
    case 2: pack_packed<2>(in, nvalues / 4, out); break;
    case 4: pack_packed<4>(in, nvalues / 2, out); break;
    case 8:
      if (header.samples_signed()) pack_int8(in, nvalues, out);
      else pack_unsigned_words<uint8_t>(in, nvalues, 255.0f, out);
      break;
    case 16: pack_unsigned_words<uint16_t>(in, nvalues, 65535.0f, out); break;
    case 32: std::memcpy(out, in, nvalues * sizeof(float)); break;
  }
}

}  // namespace rapt
