// libFuzzer target for the prepfold .pfd reader. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/pfd_fuzzer -max_len=65536 tests/fuzz/corpus/pfd_fuzzer/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must format (little-endian) and come back to the same bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "io/pfd.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::string formatted;
  try {
    formatted = rapt::format_pfd(rapt::parse_pfd(bytes, "fuzz"));
  } catch (const rapt::DataError&) {
    return 0;
  }
  if (rapt::format_pfd(rapt::parse_pfd(formatted, "fuzz")) != formatted) __builtin_trap();
  return 0;
}
