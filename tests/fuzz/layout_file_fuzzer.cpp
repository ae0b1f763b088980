// libFuzzer target for the antenna layout-file parser. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/layout_file_fuzzer -max_len=4096 corpus/   (seed corpus: examples/layouts/)
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must hold at least one antenna with finite positions.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cli/errors.hpp"
#include "geometry/array_layout.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rapt::ArrayLayout layout;
  try {
    layout = rapt::parse_layout_text(text, "fuzz");
  } catch (const rapt::DataError&) {
    return 0;
  }
  if (layout.antennas.empty()) __builtin_trap();
  for (const rapt::Antenna& antenna : layout.antennas) {
    for (const double x : antenna.itrf_m) {
      if (!std::isfinite(x)) __builtin_trap();
    }
  }
  for (const double x : layout.reference_itrf_m) {
    if (!std::isfinite(x)) __builtin_trap();
  }
  return 0;
}
