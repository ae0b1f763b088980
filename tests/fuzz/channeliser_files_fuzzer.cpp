// libFuzzer target for the channeliser's correction files (--delays, --bandpass). Not part of
// the default build.
//
//   make fuzz
//   ./build/fuzz/channeliser_files_fuzzer -max_len=8192 corpus/
//
// The first byte picks the parser and the table size; the rest is the file's text. Any input
// must either parse or throw DataError; a crash, a sanitizer report or another exception is a
// bug. A parsed file gives exactly one finite value per station or channel, and delays within
// +-1 s.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "ppf/pfb_options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const int selector = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  const int count = 1 + (selector >> 1) % 64;  // stations or output channels
  try {
    if (selector & 1) {
      const std::vector<float> gains = rapt::parse_bandpass_text(text, "fuzz", count);
      if (gains.size() != size_t(count)) __builtin_trap();
      for (float g : gains)
        if (!std::isfinite(g)) __builtin_trap();
    } else {
      const std::vector<std::string> names = {"s0", "s1", "m002", "3"};
      const std::vector<double> delays = rapt::parse_delays_text(text, "fuzz", count, names);
      if (delays.size() != size_t(count)) __builtin_trap();
      for (double d : delays)
        if (!(std::fabs(d) <= 1.0)) __builtin_trap();
    }
  } catch (const rapt::DataError&) {
  }
  return 0;
}
