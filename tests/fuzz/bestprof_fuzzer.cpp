// libFuzzer target for the .bestprof reader. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/bestprof_fuzzer -max_len=8192 tests/fuzz/corpus/bestprof_fuzzer/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must format and parse again to as many profile bins.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "io/bestprof.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rapt::Bestprof bestprof;
  try {
    bestprof = rapt::parse_bestprof(text, "fuzz");
  } catch (const rapt::DataError&) {
    return 0;
  }
  const auto again = rapt::parse_bestprof(rapt::format_bestprof(bestprof), "fuzz");
  if (again.profile.size() != bestprof.profile.size()) __builtin_trap();
  return 0;
}
