// libFuzzer target for the rfifind .mask reader. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/rfifind_mask_fuzzer -max_len=65536 corpus/   (seed: a few .mask files)
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must serialise back to the same bytes and answer queries
// for every channel and interval.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "io/rfifind_mask.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const rapt::RfifindMask mask = rapt::parse_rfifind_mask(bytes, "fuzz");
    if (rapt::serialize_rfifind_mask(mask) != bytes) __builtin_trap();
    // Queries cost num_chan per interval: only for masks of a sane size.
    if (static_cast<int64_t>(mask.num_chan) * mask.num_int <= (1 << 20))
      for (int i = 0; i < mask.num_int; ++i) (void)rapt::masked_channels(mask, i);
    (void)rapt::zapped_channels(mask);
    (void)rapt::interval_at_time(mask, 1e300);
  } catch (const rapt::DataError&) {
  }
  return 0;
}
