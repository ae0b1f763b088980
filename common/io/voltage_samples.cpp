// Two's-complement and float voltage samples <-> floats.
#include "io/voltage_samples.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

#include "dedisp/parallel_for.hpp"

namespace rapt {

bool voltage_nbits_supported(int nbits) {
  return nbits == 4 || nbits == 8 || nbits == 16 || nbits == 32;
}

size_t voltage_bytes(size_t nvalues, int nbits) { return nvalues * size_t(nbits) / 8; }

namespace {

void decode_range(const uint8_t* in, size_t nvalues, int nbits, float* out) {
  switch (nbits) {
    case 4:
      for (size_t i = 0; i < nvalues; i += 2) {
        const uint8_t byte = in[i / 2];
        // Sign-extend each nibble: shift it to the top of an int8, then arithmetic shift back.
        out[i] = float(int8_t(uint8_t(byte & 0xF0)) >> 4);
        if (i + 1 < nvalues) out[i + 1] = float(int8_t(uint8_t(byte << 4)) >> 4);
      }
      break;
    case 8:
      for (size_t i = 0; i < nvalues; ++i) out[i] = float(int8_t(in[i]));
      break;
    case 16:
      for (size_t i = 0; i < nvalues; ++i) {
        int16_t v;
        std::memcpy(&v, in + 2 * i, 2);
        out[i] = float(v);
      }
      break;
    default:
      std::memcpy(out, in, nvalues * sizeof(float));
  }
}

}  // namespace

// A block of a GPU pipeline is hundreds of MiB: decoded on one core it would take longer than
// the GPU's work on it, so large blocks are cut into pieces decoded on several threads.
void decode_voltage_values(const uint8_t* in, size_t nvalues, int nbits, float* out) {
  constexpr size_t kPieceValues = size_t(1) << 22;  // even: 4-bit pieces start on a byte
  const size_t npieces = (nvalues + kPieceValues - 1) / kPieceValues;
  if (npieces < 2) return decode_range(in, nvalues, nbits, out);
  const int threads = int(std::min<unsigned>(std::max(std::thread::hardware_concurrency(), 1u), 8u));
  parallel_for(threads, npieces, [&](size_t piece, int) {
    const size_t first = piece * kPieceValues;
    const size_t count = std::min(kPieceValues, nvalues - first);
    decode_range(in + voltage_bytes(first, nbits), count, nbits, out + first);
  });
}

namespace {
// Nearest integer in [lo, hi]; counts values that had to be clipped.
long clip_round(float v, long lo, long hi, int64_t& clipped) {
  if (std::isnan(v)) {
    ++clipped;
    return 0;
  }
  const float r = std::nearbyint(v);
  if (r < float(lo)) {
    ++clipped;
    return lo;
  }
  if (r > float(hi)) {
    ++clipped;
    return hi;
  }
  return long(r);
}
}  // namespace

int64_t encode_voltage_values(const float* in, size_t nvalues, int nbits, uint8_t* out) {
  int64_t clipped = 0;
  if (nbits == 8) {
    for (size_t i = 0; i < nvalues; ++i) out[i] = uint8_t(int8_t(clip_round(in[i], -128, 127, clipped)));
  } else if (nbits == 16) {
    for (size_t i = 0; i < nvalues; ++i) {
      const int16_t v = int16_t(clip_round(in[i], -32768, 32767, clipped));
      std::memcpy(out + 2 * i, &v, 2);
    }
  } else if (nbits == 4) {
    for (size_t i = 0; i < nvalues; i += 2) {
      const long hi = clip_round(in[i], -8, 7, clipped);
      const long lo = i + 1 < nvalues ? clip_round(in[i + 1], -8, 7, clipped) : 0;
      out[i / 2] = uint8_t(((hi & 0xF) << 4) | (lo & 0xF));
    }
  } else {
    std::memcpy(out, in, nvalues * sizeof(float));
  }
  return clipped;
}

}  // namespace rapt

namespace rapt {

namespace {

// Calls f(first, last) over rows [0, nrows) in pieces of about kPieceBytes of `row_bytes` rows,
// on several threads when there is enough to share: like decoding, a block of hundreds of MiB
// takes one core longer than the GPU's work on it.
template <typename F>
void for_row_pieces(int64_t nrows, size_t row_bytes, F&& f) {
  constexpr size_t kPieceBytes = size_t(16) << 20;
  const int threads = int(std::min<unsigned>(std::max(std::thread::hardware_concurrency(), 1u), 8u));
  if (row_bytes * size_t(nrows) < 2 * kPieceBytes || threads < 2 || nrows < 2) return f(int64_t(0), nrows);
  const int64_t rows_per_piece = std::max<int64_t>(1, int64_t(kPieceBytes / std::max<size_t>(row_bytes, 1)));
  const size_t npieces = size_t((nrows + rows_per_piece - 1) / rows_per_piece);
  parallel_for(threads, npieces, [&](size_t piece, int) {
    const int64_t first = int64_t(piece) * rows_per_piece;
    f(first, std::min(nrows, first + rows_per_piece));
  });
}

}  // namespace

void copy_time_range(const float* src, int64_t src_ntime, int64_t src_t0, float* dst,
                     int64_t dst_ntime, int64_t dst_t0, int64_t count, int64_t nrows,
                     int64_t values_per_time) {
  const size_t row_bytes = size_t(count * values_per_time) * sizeof(float);
  for_row_pieces(nrows, row_bytes, [&](int64_t first, int64_t last) {
    for (int64_t r = first; r < last; ++r)
      std::memcpy(dst + (r * dst_ntime + dst_t0) * values_per_time,
                  src + (r * src_ntime + src_t0) * values_per_time, row_bytes);
  });
}

void decode_time_range(const uint8_t* src, int64_t src_ntime, int64_t src_t0, int nbits,
                       float* dst, int64_t dst_ntime, int64_t dst_t0, int64_t count,
                       int64_t nrows, int64_t values_per_time) {
  const size_t row_values = size_t(count * values_per_time);
  for_row_pieces(nrows, row_values * sizeof(float), [&](int64_t first, int64_t last) {
    for (int64_t r = first; r < last; ++r)
      decode_range(src + voltage_bytes(size_t((r * src_ntime + src_t0) * values_per_time), nbits),
                   row_values, nbits, dst + (r * dst_ntime + dst_t0) * values_per_time);
  });
}

void shrink_time_rows(float* data, int64_t from_ntime, int64_t to_ntime, int64_t nrows,
                      int64_t values_per_time) {
  // Row r moves down to r * to_ntime; rows go in increasing order, so no row is overwritten
  // before it has moved (memmove covers the overlap within one row).
  for (int64_t r = 1; r < nrows; ++r)
    std::memmove(data + r * to_ntime * values_per_time, data + r * from_ntime * values_per_time,
                 size_t(to_ntime * values_per_time) * sizeof(float));
}

int64_t fill_time_rows(const std::function<void(int64_t, int64_t, int64_t)>& copy,
                       const int64_t& chunk_ntime, int64_t& chunk_pos,
                       const std::function<bool()>& refill, int64_t nsamples, int64_t nrows,
                       int64_t values_per_time, float* out) {
  int64_t done = 0;
  while (done < nsamples) {
    if (chunk_pos == chunk_ntime) {
      if (!refill()) break;
      continue;
    }
    const int64_t n = std::min(nsamples - done, chunk_ntime - chunk_pos);
    copy(chunk_pos, n, done);
    chunk_pos += n;
    done += n;
  }
  if (done < nsamples) shrink_time_rows(out, nsamples, done, nrows, values_per_time);
  return done;
}

int64_t fill_time_rows(const std::vector<float>& chunk, const int64_t& chunk_ntime,
                       int64_t& chunk_pos, const std::function<bool()>& refill, int64_t nsamples,
                       int64_t nrows, int64_t values_per_time, float* out) {
  return fill_time_rows(
      [&](int64_t from, int64_t count, int64_t done) {
        copy_time_range(chunk.data(), chunk_ntime, from, out, nsamples, done, count, nrows,
                        values_per_time);
      },
      chunk_ntime, chunk_pos, refill, nsamples, nrows, values_per_time, out);
}

}  // namespace rapt
