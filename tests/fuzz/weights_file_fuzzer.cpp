// libFuzzer target for the beamformer's weights-file parser. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/weights_file_fuzzer -max_len=4096 tests/fuzz/corpus/weights_file_fuzzer/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses holds nbeams x nchan x nant finite weights, all sizes >= 1.
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bf/beam_weights.hpp"
#include "cli/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rapt::RawBeamWeights weights;
  try {
    weights = rapt::parse_weights_text(text, "fuzz");
  } catch (const rapt::DataError&) {
    return 0;
  }
  if (weights.nbeams < 1 || weights.nchan < 1 || weights.nant < 1) __builtin_trap();
  const size_t expected = static_cast<size_t>(weights.nbeams) * static_cast<size_t>(weights.nchan) *
                          static_cast<size_t>(weights.nant);
  if (weights.values.size() != expected) __builtin_trap();
  for (const std::complex<double>& w : weights.values) {
    if (!std::isfinite(w.real()) || !std::isfinite(w.imag())) __builtin_trap();
  }
  return 0;
}
