// libFuzzer target for the voltage readers on whole files (GUPPI RAW blocks, PSRDADA, VDIF
// frames), opened by content as bf, corr and channelize open them. Not part of the default
// build.
//
//   make fuzz
//   ./build/fuzz/voltage_file_fuzzer -max_len=40000 corpus/   (seed: small files of each kind)
//
// Byte 0 of an input sets what VDIF does not say (a sample rate, signed codes); the rest is the
// file. It must be refused with DataError or read in consistent blocks (voltage_file_check.hpp);
// a crash, a sanitizer report, another exception or an inconsistent block is a bug.
#include <cstddef>
#include <cstdint>

#include "fuzz_temp_file.hpp"
#include "voltage_file_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  rapt::fuzzing::with_temp_file(data + 1, size - 1, [&](const std::string& path) {
    if (!rapt::fuzzing::voltage_file_reads_consistently(data[0], path)) __builtin_trap();
  });
  return 0;
}
