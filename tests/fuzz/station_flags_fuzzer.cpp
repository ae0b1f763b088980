// libFuzzer target for the beamformer's station flags-file parser and the per-block flags made
// from it. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/station_flags_fuzzer -max_len=4096 tests/fuzz/corpus/station_flags_fuzzer/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses names only stations of the layout, with 0 <= start < end;
// its block flags count the stations kept, and flag every sample when none is kept.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bf/station_flags.hpp"
#include "cli/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> stations = {"m000", "m001", "2", "m003"};
  const int nant = static_cast<int>(stations.size());
  rapt::StationFlags flags;
  try {
    flags = rapt::parse_station_flags(text, "fuzz", stations);
  } catch (const rapt::DataError&) {
    return 0;
  }
  for (const rapt::StationFlagInterval& interval : flags.intervals) {
    if (interval.station < -1 || interval.station >= nant) __builtin_trap();
    if (!(interval.start_s >= 0.0) || !std::isfinite(interval.start_s)) __builtin_trap();
    if (!(interval.end_s > interval.start_s)) __builtin_trap();
  }
  for (const int64_t first_sample : {int64_t{0}, int64_t{37}, int64_t{1} << 40}) {
    const rapt::BlockFlags block = rapt::block_flags(flags, nant, first_sample, 256, 0.01, 0.25);
    if (block.station_valid.size() != static_cast<size_t>(nant)) __builtin_trap();
    if (block.sample_flags.size() != 256) __builtin_trap();
    int kept = 0;
    for (const uint8_t valid : block.station_valid) kept += valid;
    if (kept != block.nvalid) __builtin_trap();
    if (kept == 0) {
      for (const uint8_t flag : block.sample_flags) {
        if (flag != 1) __builtin_trap();
      }
    }
  }
  return 0;
}
