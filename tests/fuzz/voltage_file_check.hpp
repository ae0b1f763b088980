// The voltage_file target's check, shared by the fuzzer and the corpus replay: a file opened as
// bf, corr and channelize open theirs (open_voltage_file: GUPPI RAW, PSRDADA or VDIF by content)
// and read to its end (or a bound) in blocks. It must be refused with DataError, or read in
// blocks that hold what their headers say: consecutive samples from 0, the values the header's
// shape asks for, no more samples than it claims.
#pragma once
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "io/voltage_stream.hpp"

namespace rapt::fuzzing {

// Byte 0 of an input sets what VDIF frames do not tell (a sample rate, signed codes); the rest
// is the file at `path`. False where a block breaks the rules above.
inline bool voltage_file_reads_consistently(uint8_t options, const std::string& path) {
  VdifReadOptions vdif;
  if (options & 1) vdif.sample_rate_hz = 1.28e6;
  vdif.twos_complement = (options & 2) != 0;
  try {
    const std::unique_ptr<VoltageReader> reader = open_voltage_file(path, vdif);
    const VoltageHeader& h = reader->header();
    constexpr int64_t kBlock = 53, kMostValues = int64_t(1) << 22, kMostSamples = 1 << 16;
    if (int64_t(h.block_values(kBlock)) > kMostValues) return true;  // beyond what a check holds
    VoltageBlock block;
    int64_t next = 0;
    while (next < kMostSamples) {
      const int64_t n = reader->read(kBlock, block);
      if (n == 0) break;
      if (n < 0 || n > kBlock || block.nsamples != n || block.first_sample != next ||
          block.data.size() != h.block_values(n))
        return false;
      next += n;
    }
    if (h.nsamples >= 0 && next > h.nsamples) return false;
  } catch (const DataError&) {
  }
  return true;
}

}  // namespace rapt::fuzzing
