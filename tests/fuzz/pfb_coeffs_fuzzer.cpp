// libFuzzer target for the channeliser's coefficients file (--coeffs), parsed from text. Not
// part of the default build.
//
//   make fuzz
//   ./build/fuzz/pfb_coeffs_fuzzer -max_len=8192 tests/fuzz/corpus/pfb_coeffs_fuzzer/
//
// The first byte picks the filter's frame (real or complex input, 1 to 64 fine channels); the
// rest is the file's text. Any input must either parse or throw DataError; a crash, a
// sanitizer report or another exception is a bug. A parsed file gives a whole number of
// frames, at most kMaxPfbTaps of them, every coefficient finite and their squares summing to 1.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "ppf/channeliser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const int selector = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  rapt::ChanneliserShape shape;
  shape.real_input = (selector & 1) != 0;
  shape.nfine = 1 + (selector >> 1) % 64;
  const size_t frame = size_t(shape.frame());
  try {
    const std::vector<float> h = rapt::parse_pfb_coefficients(text, "fuzz", shape);
    if (h.empty() || h.size() % frame != 0 || h.size() / frame > size_t(rapt::kMaxPfbTaps))
      __builtin_trap();
    double sum2 = 0;
    for (float v : h) {
      if (!std::isfinite(v)) __builtin_trap();
      sum2 += double(v) * v;
    }
    if (!(std::fabs(sum2 - 1.0) < 1e-3)) __builtin_trap();
  } catch (const rapt::DataError&) {
  }
  return 0;
}
