// The CPU rows: the CPU engine on a smaller D1 (256 DMs), all of the machine's cores.
#include <cstdio>

#include "bench_workloads.hpp"

namespace rapt::bench {

std::vector<std::string> add_cpu_rows(BenchTable& table, const BenchSettings& s) {
  std::vector<std::string> notes;
  if (!s.run_cpu) return notes;
  const double bandwidth = host_copy_bandwidth();
  char line[200];
  std::snprintf(line, sizeof line,
                "# host memory copy %.1f GB/s (read + write): the cpu rows' %%copy is of this",
                bandwidth * 1e-9);
  notes.push_back(line);
  const int ndm = 256;
  const DedispPlan plan = apertif_plan(ndm);
  auto engine = make_cpu_dedisp_engine(plan);
  const size_t nspectra = kSamplesPerSecond + size_t(engine->max_delay());
  for (int nbits : {8, 32}) {
    const std::string input = nbits == 32 ? "float" : "8-bit";
    std::fprintf(stderr, "rapt_bench: D1 %s, %d DMs, CPU\n", input.c_str(), ndm);
    const std::vector<uint8_t> block = random_block(plan.nchans, nbits, nspectra, 11);
    const EngineTiming e = time_engine(*engine, block, nbits, nspectra, std::min(s.repeats, 2));
    const double adds = double(ndm) * plan.nchans * double(kSamplesPerSecond);
    const double bytes = double(block.size()) + double(ndm) * kSamplesPerSecond * 4.0;
    table.add_row({"D1", input, std::to_string(ndm), engine->name(), "-", "-",
                   number_cell(e.seconds * 1e3), number_cell(adds / e.seconds * 1e-9),
                   percent_cell(bytes / e.seconds / bandwidth), "-", e.check.cell(), "-"});
  }
  return notes;
}

}  // namespace rapt::bench
