// libFuzzer target for the PRESTO .inf reader. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/presto_inf_fuzzer -max_len=4096 corpus/   (seed corpus: a few .inf files)
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must also survive format_inf() and come back unchanged
// from a second parse-and-format.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "io/presto_inf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string formatted;
  try {
    formatted = rapt::format_inf(rapt::parse_inf(text, "fuzz"));
  } catch (const rapt::DataError&) {
    return 0;
  }
  if (rapt::format_inf(rapt::parse_inf(formatted, "fuzz")) != formatted) __builtin_trap();
  return 0;
}
