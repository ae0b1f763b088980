// The PSRDADA stream target's check, shared by the fuzzer and the corpus replay: the reader on a
// whole stream (header and payload), opened by its path and opened with its first bytes read
// already and handed over (as inspect - does with a pipe's probe). Both must refuse it with
// DataError or both read the same samples, value for value.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/psrdada.hpp"

namespace rapt::fuzzing {

struct DadaStreamRead {
  bool refused = false;
  bool too_big = false;     // a block of this stream's samples would pass what a check may hold
  int64_t nsamples = -2;    // from the header
  std::vector<uint8_t> values;  // the float values read, as bytes (NaN compares too)
};

inline DadaStreamRead read_dada_stream(const std::string& path, size_t handed_over) {
  DadaStreamRead out;
  try {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return out;
    std::vector<uint8_t> first(handed_over);
    first.resize(std::fread(first.data(), 1, first.size(), file));
    PsrdadaReader reader(path, file, std::move(first));
    out.nsamples = reader.header().nsamples;
    constexpr int64_t kBlock = 37, kMostBytes = int64_t(1) << 24, kMostSamples = 20000;
    if (reader.dada_header().bytes_per_sample() * kBlock > kMostBytes) {
      out.too_big = true;
      return out;
    }
    VoltageBlock block;
    for (int64_t total = 0; total < kMostSamples && reader.read(kBlock, block) > 0;
         total += block.nsamples) {
      const auto* bytes = reinterpret_cast<const uint8_t*>(block.data.data());
      out.values.insert(out.values.end(), bytes, bytes + block.data.size() * sizeof(float));
    }
  } catch (const DataError&) {
    out.refused = true;
  }
  return out;
}

// The input: byte 0 says how many bytes (64 x it) are handed over, the rest is the stream,
// written at `path`. False where the two ways of opening disagree.
inline bool psrdada_stream_agrees(const uint8_t* data, size_t size, const std::string& path) {
  if (size == 0) return true;
  const DadaStreamRead whole = read_dada_stream(path, 0);
  const DadaStreamRead cut = read_dada_stream(path, size_t(data[0]) * 64);
  if (whole.too_big || cut.too_big) return whole.too_big == cut.too_big;
  return whole.refused == cut.refused && whole.nsamples == cut.nsamples &&
         whole.values == cut.values;
}

}  // namespace rapt::fuzzing
