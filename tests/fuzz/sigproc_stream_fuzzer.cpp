// libFuzzer target for the SIGPROC reader on whole files, header and samples: every sample size,
// several IFs, float data with NaNs and infinities, a partial last spectrum, a second header
// joined on. Not part of the default build.
//
//   make fuzz
//   ./build/fuzz/sigproc_stream_fuzzer -max_len=20000 corpus/   (seed: small filterbanks)
//
// Byte 0 of an input says how many bytes (8 x it) are read before the reader is made and handed
// to it; the rest is the file. Read in blocks of several sizes, from the file and through a pipe,
// with and without its first bytes handed over, the reader must refuse it with DataError every
// time or give the same samples and warnings every time; a crash, a sanitizer report, another
// exception or a disagreement is a bug.
#include <cstddef>
#include <cstdint>

#include "fuzz_temp_file.hpp"
#include "sigproc_stream_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  rapt::fuzzing::with_temp_file(data + 1, size - 1, [&](const std::string& path) {
    if (!rapt::fuzzing::sigproc_stream_agrees(data, size, path)) __builtin_trap();
  });
  return 0;
}
