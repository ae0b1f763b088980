// simulate's interferometer modes on the command line: the options of --voltages and
// --visibilities, and the plans they fill. The filterbank options they share (--nchans, --bw,
// --tstart, --ra, --dec, --seed, --nbits, --noise-rms, --sefd, --npol, --pulsar, --burst,
// --source-name, --tobs, --nsamples) are declared once, in tools/simulate.cpp; here they are
// read with the array modes' defaults and meanings (man page, "Interferometer modes").
#pragma once
#include <cxxopts.hpp>
#include <string>

#include "sim/array_voltage_plan.hpp"
#include "sim/visibility_simulator.hpp"

namespace rapt {

enum class SimulateMode { filterbank, voltages, visibilities };

// Adds the option groups of the array modes.
void add_array_options(cxxopts::Options& options);

// Which mode the options ask for; throws UsageError for options that belong to another mode
// ("--fch1 does not apply to --voltages; give --freq", "--layout needs --voltages or
// --visibilities").
SimulateMode simulate_mode(const cxxopts::ParseResult& r);

ArrayVoltagePlan voltage_plan_from(const cxxopts::ParseResult& r);
VisibilityPlan visibility_plan_from(const cxxopts::ParseResult& r);

// "psrdada" or "guppi" (--format; PSRDADA by default).
std::string voltage_format_from(const cxxopts::ParseResult& r);
// "uvfits" or "ms": --format, else the output's name (.uvfits, .uvf, .fits / .ms).
std::string visibility_format_from(const cxxopts::ParseResult& r, const std::string& output);

}  // namespace rapt
