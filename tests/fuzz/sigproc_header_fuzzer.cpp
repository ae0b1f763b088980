// libFuzzer target for the SIGPROC header parser. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
// or by hand, from the repository root:
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -Icommon
//       tests/fuzz/sigproc_header_fuzzer.cpp common/io/sigproc_header_parse.cpp
//       -o sigproc_header_fuzzer           (one command line)
//   ./sigproc_header_fuzzer -max_len=4096 corpus/   (seed corpus: a few .fil headers)
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> warnings;
  try {
    const rapt::SigprocHeader header = rapt::parse_sigproc_header(data, size, "fuzz", &warnings);
    if (header.header_bytes > size) __builtin_trap();  // parsed past the end of the input
    if (header.bytes_per_spectrum() == 0) __builtin_trap();
  } catch (const rapt::DataError&) {
  }
  return 0;
}
