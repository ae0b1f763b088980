// The voltage_file target's check, shared by the fuzzer and the corpus replay: a file opened as
// bf, corr and channelize open theirs (open_voltage_file: GUPPI RAW, PSRDADA or VDIF by content)
// and read to its end (or a bound) in blocks. It must be refused with DataError, or read in
// blocks that hold what their headers say: consecutive samples from 0, the values the header's
// shape asks for, no more samples than it claims; and read as a pipe, the same values.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/byte_stream.hpp"
#include "io/voltage_stream.hpp"

namespace rapt::fuzzing {

// Reads `reader` to its end (or a bound) in blocks, the values appended to `values`. False where a
// block breaks the rules above; `too_big` where a block would pass what a check may hold.
inline bool read_voltages_consistently(VoltageReader& reader, std::vector<float>& values,
                                       bool& too_big) {
  const VoltageHeader& h = reader.header();
  constexpr int64_t kBlock = 53, kMostValues = int64_t(1) << 22, kMostSamples = 1 << 16;
  too_big = int64_t(h.block_values(kBlock)) > kMostValues;
  if (too_big) return true;
  VoltageBlock block;
  int64_t next = 0;
  while (next < kMostSamples) {
    const int64_t n = reader.read(kBlock, block);
    if (n == 0) break;
    if (n < 0 || n > kBlock || block.nsamples != n || block.first_sample != next ||
        block.data.size() != h.block_values(n))
      return false;
    values.insert(values.end(), block.data.begin(), block.data.end());
    next += n;
  }
  return h.nsamples < 0 || next <= h.nsamples;
}

// Byte 0 of an input sets what VDIF frames do not tell (a sample rate, signed codes); the rest
// is the file at `path`. It is read by name and again as a pipe would give it (a stream that
// cannot seek, its first bytes read to tell the format), which may refuse what a file reads (a
// VDIF rate a pipe cannot find, channel-major PSRDADA) but where both read, they read the same
// values. False where a block breaks the rules above or the two disagree.
inline bool voltage_file_reads_consistently(uint8_t options, const std::string& path) {
  VdifReadOptions vdif;
  if (options & 1) vdif.sample_rate_hz = 1.28e6;
  vdif.twos_complement = (options & 2) != 0;
  std::vector<float> by_name, by_pipe;
  bool too_big = false, read_by_name = false, read_by_pipe = false;
  try {
    const std::unique_ptr<VoltageReader> reader = open_voltage_file(path, vdif);
    if (!read_voltages_consistently(*reader, by_name, too_big)) return false;
    read_by_name = !too_big;
  } catch (const DataError&) {
  }
  std::string bytes = read_file_contents(path);
  if (bytes.empty()) return true;
  // fmemopen gives a stream with no file behind it: read as a pipe is.
  std::FILE* stream = fmemopen(bytes.data(), bytes.size(), "rb");
  if (!stream) return true;
  try {
    const std::unique_ptr<VoltageReader> reader =
        open_voltage_stream(std::make_unique<ByteStream>("-", stream, std::vector<uint8_t>()), vdif);
    if (!read_voltages_consistently(*reader, by_pipe, too_big)) return false;
    read_by_pipe = !too_big;
  } catch (const DataError&) {
  }
  if (!read_by_name || !read_by_pipe) return true;
  // (Bit for bit, as NaN compares unequal to itself.)
  return by_name.size() == by_pipe.size() &&
         (by_name.empty() ||
          std::memcmp(by_name.data(), by_pipe.data(), by_name.size() * sizeof(float)) == 0);
}

}  // namespace rapt::fuzzing
