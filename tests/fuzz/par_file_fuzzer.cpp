// libFuzzer target for the TEMPO-style par-file reader that fold --par uses. Not part of the
// default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/par_file_fuzzer -max_len=4096 tests/fuzz/corpus/par_file_fuzzer/
//
// Any input must either give a candidate or throw DataError; a crash, a sanitizer report or
// another exception is a bug. A candidate always has a positive, finite spin frequency at
// PEPOCH, and a name starting "PSR_".
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "fold/fold_candidate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const rapt::FoldCandidate at_pepoch = rapt::parse_par_candidate(text, "fuzz", 0.0);
    if (!(at_pepoch.spin.f_hz > 0.0) || !std::isfinite(at_pepoch.spin.f_hz)) __builtin_trap();
    if (at_pepoch.name.compare(0, 4, "PSR_") != 0) __builtin_trap();
    rapt::parse_par_candidate(text, "fuzz", 55000.0);
  } catch (const rapt::DataError&) {
  }
  return 0;
}
