// libFuzzer target for the binary .cand reader. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/accel_cand_fuzzer -max_len=8192 tests/fuzz/corpus/accel_cand_fuzzer/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. Records that parse must format back to the same bytes, except the
// alignment padding, which is written as zero.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "io/accel_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const auto records = rapt::parse_cand_records(bytes, "fuzz");
    const std::string formatted = rapt::format_cand_records(records);
    if (formatted.size() != bytes.size()) __builtin_trap();
    if (rapt::format_cand_records(rapt::parse_cand_records(formatted, "fuzz")) != formatted)
      __builtin_trap();
  } catch (const rapt::DataError&) {
  }
  return 0;
}
