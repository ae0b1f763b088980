// libFuzzer target for the beamformer's beams-file parser. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/beams_file_fuzzer -max_len=4096 tests/fuzz/corpus/beams_file_fuzzer/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses is read twice, around a pointing centre near the equator and
// one near the south pole, and must hold at least one beam, each named, with a finite direction
// (right ascension in [0, 2 pi)) and direction cosines inside the sky.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "bf/beam_directions.hpp"
#include "cli/errors.hpp"

namespace {

void check(std::string_view text, const rapt::SkyDirection& pointing) {
  std::vector<rapt::BeamDirection> beams;
  try {
    beams = rapt::parse_beams_text(text, "fuzz", pointing);
  } catch (const rapt::DataError&) {
    return;
  }
  if (beams.empty()) __builtin_trap();
  for (const rapt::BeamDirection& beam : beams) {
    if (beam.name.empty()) __builtin_trap();
    const double ra = beam.direction.ra_rad, dec = beam.direction.dec_rad;
    if (!(ra >= 0.0 && ra < 2.0 * 3.14159265358979323846)) __builtin_trap();
    if (!(std::fabs(dec) <= 1.5707963267948967)) __builtin_trap();
    if (!(beam.l * beam.l + beam.m * beam.m <= 1.0)) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check(text, rapt::SkyDirection{1.2, -0.5});
  check(text, rapt::SkyDirection{6.28, -1.5707});
  return 0;
}
