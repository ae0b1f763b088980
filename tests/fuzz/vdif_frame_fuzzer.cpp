// libFuzzer target for the VDIF frame-header parser. Not part of the default build.
//
//   make fuzz
//   ./build/fuzz/vdif_frame_fuzzer -max_len=64 corpus/   (seed: the first frame of a sample)
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must have a payload and sizes that stay in range.
#include <cstddef>
#include <cstdint>

#include "cli/errors.hpp"
#include "io/vdif.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rapt::VdifFrameHeader h;
  try {
    h = rapt::parse_vdif_frame_header(data, size, "fuzz");
  } catch (const rapt::DataError&) {
    return 0;
  }
  if (h.payload_bytes() <= 0 || h.bits < 1 || h.bits > 32 || h.nchan < 1 ||
      h.samples_per_frame() < 0 || h.edv3_sample_rate_hz < 0)
    __builtin_trap();
  (void)rapt::vdif_epoch_mjd(h.ref_epoch);
  return 0;
}
