// libFuzzer target for the ACCEL text reader (and the .txtcand log). Not part of the default
// build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/accel_text_fuzzer -max_len=65536 tests/fuzz/corpus/accel_text_fuzzer/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. An ACCEL file that parses with a usable observation length must format
// and parse again to as many candidates.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "io/accel_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const rapt::AccelCandidates accel = rapt::parse_accel_text(text, "fuzz");
    if (accel.obs_length_s > 0.0 && std::isfinite(accel.obs_length_s)) {
      const auto again = rapt::parse_accel_text(rapt::format_accel_text(accel), "fuzz");
      if (again.candidates.size() != accel.candidates.size()) __builtin_trap();
    }
  } catch (const rapt::DataError&) {
  }
  try {
    rapt::parse_txtcand(text, "fuzz");
  } catch (const rapt::DataError&) {
  }
  return 0;
}
