// libFuzzer target for the PSRDADA reader on whole streams, header and payload, in every sample
// order (TFP, TPF, FTP, TAFTP, TFATP). Not part of the default build.
//
//   make fuzz
//   ./build/fuzz/psrdada_stream_fuzzer -max_len=40000 corpus/   (seed: small .dada streams)
//
// Byte 0 of an input says how many bytes (64 x it) are read before the reader is made and
// handed to it, as inspect - hands a pipe's first bytes on; the rest is the stream. Opened so
// and by its path alone, the reader must refuse it with DataError both times or read the same
// samples both times; a crash, a sanitizer report, another exception or a disagreement is a bug.
#include <cstddef>
#include <cstdint>

#include "fuzz_temp_file.hpp"
#include "psrdada_stream_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  rapt::fuzzing::with_temp_file(data + 1, size - 1, [&](const std::string& path) {
    if (!rapt::fuzzing::psrdada_stream_agrees(data, size, path)) __builtin_trap();
  });
  return 0;
}
