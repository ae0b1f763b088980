// The SIGPROC stream target's check, shared by the fuzzer and the corpus replay: a whole
// filterbank (header and samples) read by SigprocReader in blocks of two sizes, once opened by
// its path and once with its first bytes read already and handed over (as format sniffing does
// with a pipe). The reader promises the same samples and warnings whatever the blocks (NaNs and
// infinities in float data replaced, IFs summed, a partial last spectrum left out): all four
// reads must agree, or all four refuse the file with DataError.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"

namespace rapt::fuzzing {

struct SigprocStreamRead {
  bool refused = false;
  bool too_big = false;             // a block of this file's spectra would pass what a check holds
  std::vector<uint8_t> values;      // the floats read, as bytes (so NaNs compare too)
  std::vector<std::string> warnings;
};

inline SigprocStreamRead read_sigproc_stream(const std::string& path, size_t handed_over,
                                             size_t block) {
  SigprocStreamRead out;
  try {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return out;
    std::vector<uint8_t> first(handed_over);
    first.resize(std::fread(first.data(), 1, first.size(), file));
    SigprocReader reader(path, file, std::move(first));
    // The same limit for every block size (the largest), so that all reads agree on it.
    constexpr size_t kMostValues = size_t(1) << 22, kMostSpectra = 20000, kLargestBlock = 4096;
    const size_t nchans = size_t(reader.info().nchans);
    if (nchans * kLargestBlock > kMostValues ||
        reader.header().bytes_per_spectrum() * 2 * kLargestBlock > kMostValues * 4) {
      out.too_big = true;
      return out;
    }
    std::vector<float> spectra(nchans * block);
    for (size_t total = 0, got = 0; total < kMostSpectra; total += got) {
      got = reader.read(spectra.data(), block);
      if (got == 0) break;
      const auto* bytes = reinterpret_cast<const uint8_t*>(spectra.data());
      out.values.insert(out.values.end(), bytes, bytes + got * nchans * sizeof(float));
    }
    out.warnings = reader.warnings();
  } catch (const DataError&) {
    out.refused = true;
  }
  return out;
}

// A refusal ends the read, whatever came before it (with small blocks, the spectra before a
// joined header's key is complete have been returned already).
inline bool same_reads(const SigprocStreamRead& a, const SigprocStreamRead& b) {
  if (a.too_big || b.too_big) return a.too_big == b.too_big;
  if (a.refused || b.refused) return a.refused == b.refused;
  return a.values == b.values && a.warnings == b.warnings;
}

// The input: byte 0 says how many bytes (8 x it) are handed over, the rest is the file,
// written at `path`. False where two of the reads disagree.
inline bool sigproc_stream_agrees(const uint8_t* data, size_t size, const std::string& path) {
  if (size == 0) return true;
  const size_t handed_over = size_t(data[0]) * 8;
  const SigprocStreamRead whole = read_sigproc_stream(path, 0, 4096);
  return same_reads(whole, read_sigproc_stream(path, 0, 37)) &&
         same_reads(whole, read_sigproc_stream(path, handed_over, 4096)) &&
         same_reads(whole, read_sigproc_stream(path, handed_over, 1));
}

}  // namespace rapt::fuzzing
