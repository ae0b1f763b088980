// The two array modes of simulate, start to finish: plan, simulator, writer, block loop,
// commit, and the lines they print on stderr.
#pragma once
#include <cxxopts.hpp>
#include <string>

#include "cli/program.hpp"

namespace rapt {

// simulate --voltages / --real-voltages: writes `output` ("-": PSRDADA on stdout).
void run_voltage_simulation(const cxxopts::ParseResult& r, const Messages& messages,
                            const std::string& output, bool overwrite, int threads);

// simulate --visibilities: writes `output` as UVFITS or a Measurement Set.
void run_visibility_simulation(const cxxopts::ParseResult& r, const Messages& messages,
                               const std::string& output, bool overwrite);

}  // namespace rapt
