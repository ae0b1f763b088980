// Energy per unit of work on the GPU. Board energy over a sustained run of the same kernels the
// main table times: the difference of NVML's total-energy counter where the GPU has one, or
// else the integral of its power sampled every 10 ms. "GFLOP/J" counts one add per DM, channel
// and output sample, as GFLOP/s does, per joule (GFLOP/s per watt).
#include "bench_energy.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/dedisp/dedisp_gpu_options.hpp"
#include "../../gpu/bench/gpu_bench.hpp"
#include "cli/errors.hpp"
#include "power/nvml_source.hpp"
#include "power/power_sampler.hpp"
#include "power/power_trace.hpp"
#endif

namespace rapt::bench {
namespace {

#ifdef RAPT_WITH_CUDA

constexpr double kRowSeconds = 1.5;      // of back-to-back runs per row (split over D6's plans)
constexpr double kMinPartSeconds = 0.4;  // a D6 plan below this is too short for the counter
constexpr double kSampleIntervalMs = 10.0;

// One workload's energy, summed over its parts (D6 has one part per DM range).
struct EnergyTotals {
  double wall_s = 0.0, joules = 0.0;          // of the sustained runs
  double joules_per_block = 0.0, adds = 0.0;  // one pass over the workload's data
  bool from_counter = true;
};

struct EnergyPart {
  DedispPlan plan;
  size_t nspectra = 0;
  double adds = 0.0;  // per run of the block
};

EnergyPart make_part(const DedispPlan& plan, size_t data_samples) {
  EnergyPart part{plan, size_t(plan.max_delay_samples()) + data_samples, 0.0};
  const size_t n_out = data_samples / size_t(plan.downsamp) * size_t(plan.downsamp);
  part.adds = double(plan.dms.size()) * plan.nchans * double(n_out);
  return part;
}

void measure_part(NvmlSource& nvml, const BenchSettings& s, const gpu::GpuDedispOptions& options,
                  const EnergyPart& part, int nbits, double seconds, EnergyTotals& totals) {
  EnergyIntegrator integrator(nvml.sensors());
  PowerSampler sampler({&nvml}, kSampleIntervalMs, {&integrator});
  gpu::GpuSustainedRun run;
  run.min_seconds = seconds;
  run.begin = [&] { sampler.start(); };
  run.end = [&] { sampler.stop(); };
  const gpu::GpuDedispTiming t =
      gpu::time_gpu_dedisp(part.plan, nbits, part.nspectra, s.gpu, options, 1, &run);
  if (!sampler.failure().empty()) throw DataError(sampler.failure());
  if (t.mismatches) throw DataError("the GPU output disagrees with the CPU sum");
  const SensorSummary sensor = integrator.summaries().at(size_t(s.gpu));
  if (!(sensor.energy_j > 0.0) || !(sensor.duration_s > 0.0) || t.sustained_runs == 0)
    throw DataError("NVML measured no energy over " + std::to_string(sensor.duration_s) + " s");
  totals.wall_s += sensor.duration_s;
  totals.joules += sensor.energy_j;
  totals.joules_per_block += sensor.energy_j / double(t.sustained_runs);
  totals.adds += part.adds;
  totals.from_counter = totals.from_counter && sensor.from_counter;
}

void add_energy_row(BenchTable& table, NvmlSource& nvml, const BenchSettings& s,
                    const std::string& workload, const std::string& input, const std::string& dms,
                    const std::vector<EnergyPart>& parts, int nbits, double data_seconds,
                    std::vector<std::string>& failures) {
  std::fprintf(stderr, "rapt_bench: energy of %s %s, %s DMs\n", workload.c_str(), input.c_str(),
               dms.c_str());
  gpu::GpuDedispOptions options;
  options.tuning = s.tune ? gpu::TuneMode::cached : gpu::TuneMode::off;
  const double part_s = std::max(kMinPartSeconds, kRowSeconds / double(parts.size()));
  try {
    EnergyTotals totals;
    for (const EnergyPart& part : parts) measure_part(nvml, s, options, part, nbits, part_s, totals);
    table.add_row({workload, input, dms, number_cell(totals.wall_s),
                   number_cell(totals.joules / totals.wall_s),
                   number_cell(totals.joules_per_block / data_seconds),
                   number_cell(totals.adds / totals.joules_per_block * 1e-9),
                   totals.from_counter ? "counter" : "sampled W"});
  } catch (const std::exception& e) {
    failures.push_back("# energy: failed: " + workload + " " + input + " " + dms +
                       " DMs: " + e.what());
  }
}

void measure_energy(std::FILE* out, const BenchSettings& s) {
  NvmlSource nvml;
  if (size_t(s.gpu) >= nvml.sensors().size())
    throw DataError("NVML sees " + std::to_string(nvml.sensors().size()) + " GPUs, no gpu" +
                    std::to_string(s.gpu));
  BenchTable table({"workload", "input", "DMs", "seconds", "mean W", "J per s of data", "GFLOP/J",
                    "energy from"});
  std::vector<std::string> failures;
  const std::vector<EnergyPart> d1{make_part(apertif_plan(2048), kSamplesPerSecond)};
  add_energy_row(table, nvml, s, "D1", "8-bit", "2048", d1, 8, 1.0, failures);
  add_energy_row(table, nvml, s, "D1", "float", "2048", d1, 32, 1.0, failures);
  const double d6_seconds = 60.0;
  std::vector<EnergyPart> d6;
  size_t d6_dms = 0;
  for (const DedispPlan& plan : realistic_plans(3000.0, nullptr)) {
    d6.push_back(make_part(plan, size_t(d6_seconds) * kSamplesPerSecond));
    d6_dms += plan.dms.size();
  }
  add_energy_row(table, nvml, s, "D6", "8-bit", std::to_string(d6_dms), d6, 8, d6_seconds,
                 failures);
  std::fprintf(out,
               "# energy (NVML, gpu:%d, %s): board energy over back-to-back kernel runs "
               "(input on the GPU); J per s of data and GFLOP/J per pass over the data\n",
               s.gpu, nvml.device().c_str());
  table.print(out);
  for (const std::string& line : failures) std::fprintf(out, "%s\n", line.c_str());
}

#endif

}  // namespace

void print_energy(std::FILE* out, const BenchSettings& s) {
  if (!s.run_gpu) return;
  std::fflush(out);  // the main table shows while the energy runs
#ifndef RAPT_WITH_CUDA
  std::fprintf(out, "# energy: skipped: built without CUDA\n");
#else
  if (gpu_device_count() == 0) {
    std::fprintf(out, "# energy: skipped: no GPU\n");
    return;
  }
  try {
    measure_energy(out, s);
  } catch (const DataError& e) {
    std::fprintf(out, "# energy: skipped: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(out, "# energy: failed: %s\n", e.what());
  }
#endif
}

}  // namespace rapt::bench
