// libFuzzer target for the PSRDADA header parser. Not part of the default build.
//
//   make fuzz
//   ./build/fuzz/psrdada_header_fuzzer -max_len=4096 corpus/   (seed: a few .dada headers)
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. A header that parses and that the native writer accepts must come back
// from format_dada_header and a second parse with the same shape and sample format, and
// its times, frequencies and antennas within rounding of the text, its pointing known or not
// as before, and its dish sizes and array reference the same.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "io/psrdada.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rapt::DadaHeader first;
  try {
    first = rapt::parse_dada_header(text, "fuzz");
  } catch (const rapt::DataError&) {
    return 0;
  }
  std::string formatted;
  try {
    formatted = rapt::format_dada_header(first.voltage, rapt::kDadaInnerT, "fuzz");
  } catch (const rapt::DataError&) {
    return 0;  // parses, but is not a header the native writer can write (nbits 32 int, ...)
  }
  const rapt::DadaHeader second = rapt::parse_dada_header(formatted, "fuzz");
  const rapt::VoltageHeader& a = first.voltage;
  const rapt::VoltageHeader& b = second.voltage;
  if (a.nchan != b.nchan || a.nant != b.nant || a.npol != b.npol || a.nbits != b.nbits ||
      a.complex_samples != b.complex_samples || a.float_samples != b.float_samples ||
      second.order != "TFATP" || second.inner_t != rapt::kDadaInnerT)
    __builtin_trap();
  const double start_diff_s = (a.start_mjd_day - b.start_mjd_day) * 86400.0 +
                              (a.start_mjd_seconds - b.start_mjd_seconds);
  if (std::fabs(b.tsamp_s - a.tsamp_s) > 1e-12 * a.tsamp_s || std::fabs(start_diff_s) > 1e-6 ||
      b.centre_freq_mhz != a.centre_freq_mhz || b.bandwidth_mhz != a.bandwidth_mhz ||
      b.array.size() != a.array.size() || b.pointing_known != a.pointing_known ||
      b.array.reference_itrf_m != a.array.reference_itrf_m)
    __builtin_trap();
  for (int i = 0; i < a.array.size(); ++i)
    if (b.array.antennas[size_t(i)].dish_diameter_m != a.array.antennas[size_t(i)].dish_diameter_m)
      __builtin_trap();
  return 0;
}
