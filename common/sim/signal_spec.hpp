// The text forms of the simulator's signals: comma-separated key=value lists, e.g.
//   --pulsar "P=0.0873,DM=56,snr=20,duty=0.03"
//   --burst "t=1.5,DM=500,width=0.002,snr=15,scatter=0.001"
//   --rfi-line "freq=1400.5,amp=3,period=0.02"
//   --rfi-impulse "t=2.0,amp=10,width=0.001"
// Keys are case-insensitive; every value is a number. Parsing checks the syntax, the key names
// and the keys that must be present; SimulationPlan::validate() checks the values.
// Errors are UsageError: `--pulsar "P=0.1,foo=3": unknown key "foo"; known keys: P, DM, ...`.
#pragma once
#include <string>

#include "sim/simulation_plan.hpp"

namespace rapt {

PulsarSpec parse_pulsar_spec(const std::string& text);
BurstSpec parse_burst_spec(const std::string& text);
RfiLineSpec parse_rfi_line_spec(const std::string& text);
RfiImpulseSpec parse_rfi_impulse_spec(const std::string& text);

// "hh:mm:ss.s" (also "hh:mm" or "hh") to SIGPROC's packed hhmmss.s; `option` names the option
// in messages.
double parse_right_ascension(const std::string& text, const std::string& option);
// "[+-]dd:mm:ss.s" to SIGPROC's packed +-ddmmss.s (the sign belongs to the whole number).
double parse_declination(const std::string& text, const std::string& option);

}  // namespace rapt
