// rapt_bench: fixed workloads of dedispersion, single-pulse and acceleration search (`make bench`).
//
// Times are per second of data. "kernel" is the GPU's unpack and dedispersion kernels with the
// input already on the GPU; "+H2D" adds the copy of the packed input from page-locked memory;
// "engine" is DedispEngine::execute from host memory to host memory (copies both ways
// included). GFLOP/s counts one add per DM, channel and sample. %copy is the bytes that must
// move (packed input + float output) per second over the measured device-to-device copy
// bandwidth; %smem is the samples read from shared memory per second (1 byte each for integer
// input, 4 for float) over the measured shared-memory bandwidth. Every row is checked against
// CPU sums. Without a GPU the GPU rows say so and the CPU rows still run.
#include <cstdio>

#include "bench_energy.hpp"
#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "cli/program.hpp"

namespace rapt::bench {
void print_snr_tables(const BenchSettings& settings);    // bench_snr.cpp
void print_accel_tables(const BenchSettings& settings);  // bench_accel.cpp
void print_fold_tables(const BenchSettings& settings);   // bench_fold.cpp
void print_brute_force_tables(const BenchSettings& settings);  // bench_brute_force.cpp
void print_bf_tables(const BenchSettings& settings);     // bench_bf.cpp
void print_ppf_tables(const BenchSettings& settings);    // bench_ppf.cpp
void print_corr_tables(const BenchSettings& settings);   // bench_corr.cpp
void print_idg_tables(const BenchSettings& settings);    // bench_idg.cpp
void print_idg_wsclean_tables(const BenchSettings& settings);  // bench_idg_wsclean.cpp
void print_scale_tables(const BenchSettings& settings);  // bench_scale.cpp
void print_clean_tables(const BenchSettings& settings);  // bench_clean.cpp
}

namespace {

void print_dedisp_tables(const rapt::bench::BenchSettings& settings) {
  rapt::bench::BenchTable table({"workload", "input", "DMs", "engine", "kernel ms/s", "+H2D ms/s",
                                 "engine ms/s", "GFLOP/s", "%copy", "%smem", "check", "kernel"});
  const auto gpu_notes = rapt::bench::add_gpu_rows(table, settings);
  const auto cpu_notes = rapt::bench::add_cpu_rows(table, settings);
  std::printf(
      "# rapt_bench: dedispersion, 1024 channels 1420-1720 MHz, 20,000 samples/s; "
      "times in ms per second of data\n");
  table.print(stdout);
  for (const auto& line : gpu_notes) std::printf("%s\n", line.c_str());
  for (const auto& line : cpu_notes) std::printf("%s\n", line.c_str());
  rapt::bench::print_energy(stdout, settings);
}

}  // namespace

int main(int argc, char** argv) {
  return rapt::run_program("rapt_bench", [&] {
    auto options = rapt::program_options("rapt_bench", "benchmarks: dedispersion, single-pulse search, acceleration search, folding, beam forming, correlation, channelisation, image-domain gridding (and idg-grid beside WSClean), CLEAN's minor cycle");
    options.add_options()("gpu", "the GPU to measure", cxxopts::value<int>()->default_value("0"))(
        "repeats", "timed runs per measurement (the median is shown)",
        cxxopts::value<int>()->default_value("5"))(
        "no-tune", "the default tile configuration instead of the auto-tuner's")(
        "cpu-only", "leave out the GPU rows")("gpu-only", "leave out the CPU rows")(
        "tables", "which tables: any of dedisp, snr, accel, fold, brute, bf, corr, ppf, idg, idg-cpu, scale "
        "(comma-separated)",
        cxxopts::value<std::string>()->default_value("dedisp,snr,accel,fold,brute,bf,corr,ppf,idg,idg-cpu,clean,scale"));
    const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv);
    rapt::bench::BenchSettings settings;
    settings.gpu = args.result["gpu"].as<int>();
    settings.repeats = std::max(1, args.result["repeats"].as<int>());
    settings.tune = args.result.count("no-tune") == 0;
    settings.run_gpu = args.result.count("cpu-only") == 0;
    settings.run_cpu = args.result.count("gpu-only") == 0;

    const std::string tables = "," + args.result["tables"].as<std::string>() + ",";
    auto wanted = [&](const char* name) {
      return tables.find(std::string(",") + name + ",") != std::string::npos;
    };
    if (wanted("dedisp")) print_dedisp_tables(settings);
    if (wanted("snr")) rapt::bench::print_snr_tables(settings);
    if (wanted("accel")) rapt::bench::print_accel_tables(settings);
    if (wanted("fold")) rapt::bench::print_fold_tables(settings);
    if (wanted("brute")) rapt::bench::print_brute_force_tables(settings);
    if (wanted("bf")) rapt::bench::print_bf_tables(settings);
    if (wanted("ppf")) rapt::bench::print_ppf_tables(settings);
    if (wanted("corr")) rapt::bench::print_corr_tables(settings);
    if (wanted("idg")) rapt::bench::print_idg_tables(settings);
    if (wanted("idg-cpu")) rapt::bench::print_idg_wsclean_tables(settings);
    if (wanted("clean")) rapt::bench::print_clean_tables(settings);
    if (wanted("scale")) rapt::bench::print_scale_tables(settings);
    return 0;
  });
}
