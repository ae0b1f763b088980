// The energy of the GPU workloads, from NVML: D1 at 2048 DMs (8-bit and float) and D6, each run
// back to back for about 1.5 s with the GPU's energy counter (or its sampled power) read around
// the runs. A second small table, printed after the main one.
#pragma once
#include <cstdio>

#include "bench_workloads.hpp"

namespace rapt::bench {

// Prints "# energy (NVML, gpu:N ...)" and the table, or one line saying why energy is skipped;
// a row that cannot be measured becomes an "# energy: failed: <reason>" line. Never throws.
void print_energy(std::FILE* out, const BenchSettings& settings);

}  // namespace rapt::bench
