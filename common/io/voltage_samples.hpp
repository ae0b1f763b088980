// Stored voltage samples <-> floats for the formats whose integers are two's complement
// (GUPPI RAW, PSRDADA). Little-endian bytes, as every one of these formats stores them.
//   nbits 4:  two values per byte, the first in the high nibble (a complex GUPPI sample is
//             one byte: real high, imaginary low)
//   nbits 8:  int8;  nbits 16: int16;  nbits 32: IEEE float32 (no rounding, no clipping)
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace rapt {

// True for the nbits decode_voltage_values understands (4, 8, 16, 32).
bool voltage_nbits_supported(int nbits);

// Bytes holding `nvalues` values of `nbits` (nvalues * nbits / 8; 4-bit counts pairs).
size_t voltage_bytes(size_t nvalues, int nbits);

// Decodes `nvalues` stored values (4-bit: nvalues even) to floats.
void decode_voltage_values(const uint8_t* in, size_t nvalues, int nbits, float* out);

// Rounds to nearest and clips to the nbits range (8, 16; 32 copies floats); returns how many
// values were clipped. NaN becomes 0 and counts as clipped.
int64_t encode_voltage_values(const float* in, size_t nvalues, int nbits, uint8_t* out);

}  // namespace rapt

namespace rapt {

// Canonical blocks are rows ([channel][antenna]) of time samples, `values_per_time` floats
// each (npol x re/im). Copies samples src_t0 .. src_t0 + count - 1 of every row of `src`
// (rows of src_ntime samples) to dst_t0 .. of `dst` (rows of dst_ntime samples).
void copy_time_range(const float* src, int64_t src_ntime, int64_t src_t0, float* dst,
                     int64_t dst_ntime, int64_t dst_t0, int64_t count, int64_t nrows,
                     int64_t values_per_time);

// copy_time_range from stored values (rows of src_ntime samples, `nbits` each) rather than
// floats: decoding and copying in one pass. 4-bit values need an even values_per_time, so that
// every row starts on a byte.
void decode_time_range(const uint8_t* src, int64_t src_ntime, int64_t src_t0, int nbits,
                       float* dst, int64_t dst_ntime, int64_t dst_t0, int64_t count,
                       int64_t nrows, int64_t values_per_time);

// Shrinks rows of `from_ntime` samples in place to rows of their first `to_ntime` samples.
void shrink_time_rows(float* data, int64_t from_ntime, int64_t to_ntime, int64_t nrows,
                      int64_t values_per_time);

// Fills `out` (rows of `nsamples` time samples) from a reader's decoded chunks: `chunk` holds rows
// of `chunk_ntime` samples, the next unread one at `chunk_pos`; `refill` decodes the next chunk
// into them and returns false at the end of the data. Returns the samples filled; when fewer
// than `nsamples`, the rows are shrunk in place to that many (the caller resizes `out`).
int64_t fill_time_rows(const std::vector<float>& chunk, const int64_t& chunk_ntime,
                       int64_t& chunk_pos, const std::function<bool()>& refill, int64_t nsamples,
                       int64_t nrows, int64_t values_per_time, float* out);
// The same with the chunk's rows copied by copy(chunk_pos, count, done): samples chunk_pos ..
// chunk_pos + count - 1 of every row into samples done .. of `out`'s rows.
int64_t fill_time_rows(const std::function<void(int64_t, int64_t, int64_t)>& copy,
                       const int64_t& chunk_ntime, int64_t& chunk_pos,
                       const std::function<bool()>& refill, int64_t nsamples, int64_t nrows,
                       int64_t values_per_time, float* out);

}  // namespace rapt
