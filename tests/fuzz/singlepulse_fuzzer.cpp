// libFuzzer target for the .singlepulse reader. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/singlepulse_fuzzer -max_len=4096 corpus/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must format and parse again to as many events.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "io/singlepulse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto events = rapt::parse_singlepulse(text, "fuzz");
    const auto again = rapt::parse_singlepulse(rapt::format_singlepulse(events), "fuzz");
    if (again.size() != events.size()) __builtin_trap();
  } catch (const rapt::DataError&) {
  }
  return 0;
}
