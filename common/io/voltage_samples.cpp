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

void copy_time_range(const float* src, int64_t src_ntime, int64_t src_t0, float* dst,
                     int64_t dst_ntime, int64_t dst_t0, int64_t count, int64_t nrows,
                     int64_t values_per_time) {
  const size_t row_bytes = size_t(count * values_per_time) * sizeof(float);
  for (int64_t r = 0; r < nrows; ++r)
    std::memcpy(dst + (r * dst_ntime + dst_t0) * values_per_time,
                src + (r * src_ntime + src_t0) * values_per_time, row_bytes);
}

void shrink_time_rows(float* data, int64_t from_ntime, int64_t to_ntime, int64_t nrows,
                      int64_t values_per_time) {
  // Row r moves down to r * to_ntime; rows go in increasing order, so no row is overwritten
  // before it has moved (memmove covers the overlap within one row).
  for (int64_t r = 1; r < nrows; ++r)
    std::memmove(data + r * to_ntime * values_per_time, data + r * from_ntime * values_per_time,
                 size_t(to_ntime * values_per_time) * sizeof(float));
}

int64_t fill_time_rows(const std::vector<float>& chunk, const int64_t& chunk_ntime,
                       int64_t& chunk_pos, const std::function<bool()>& refill, int64_t nsamples,
                       int64_t nrows, int64_t values_per_time, float* out) {
  int64_t done = 0;
  while (done < nsamples) {
    if (chunk_pos == chunk_ntime) {
      if (!refill()) break;
      continue;
    }
    const int64_t n = std::min(nsamples - done, chunk_ntime - chunk_pos);
    copy_time_range(chunk.data(), chunk_ntime, chunk_pos, out, nsamples, done, n, nrows,
                    values_per_time);
    chunk_pos += n;
    done += n;
  }
  if (done < nsamples) shrink_time_rows(out, nsamples, done, nrows, values_per_time);
  return done;
}

}  // namespace rapt
