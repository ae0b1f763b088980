// libFuzzer target for powersensor-read --replay's trace reader (PMT and PowerSensor logs, and
// the program's own --csv/--dump traces). Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/power_trace_fuzzer -max_len=8192 tests/fuzz/corpus/power_trace_fuzzer/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must be a trace: a row of every sensor at each time, the
// times finite and never going back, and it must replay into finite energies.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "power/power_report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rapt::RecordedTrace trace;
  try {
    trace = rapt::parse_recorded_trace(text, "fuzz");
  } catch (const rapt::DataError&) {
    return 0;
  }
  if (trace.sensors.empty() || trace.times_s.empty()) __builtin_trap();
  if (trace.watts.size() != trace.times_s.size()) __builtin_trap();
  if (!trace.joules.empty() && trace.joules.size() != trace.times_s.size()) __builtin_trap();
  for (size_t row = 0; row < trace.times_s.size(); ++row) {
    if (!std::isfinite(trace.times_s[row])) __builtin_trap();
    if (row > 0 && trace.times_s[row] < trace.times_s[row - 1]) __builtin_trap();
    if (trace.watts[row].size() != trace.sensors.size()) __builtin_trap();
    for (double w : trace.watts[row])
      if (std::isinf(w)) __builtin_trap();
  }
  rapt::EnergyIntegrator integrator(trace.sensors);
  rapt::replay_trace(trace, integrator);
  if (std::isinf(integrator.total_energy_j())) __builtin_trap();
  return 0;
}
