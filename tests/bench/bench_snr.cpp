// The single-pulse search rows of `make bench`, in a table of their own: the boxcar search of
// 2048 DMs x 2^20 samples on the GPU (one kernel over every DM and width, input on the GPU;
// %HBM = float input read per second over the measured device-to-device copy bandwidth), and
// on the CPU a reduced workload (32 DMs x 2^20 samples; times also scaled to 2048 DMs) for the
// boxcar engine alone and for the whole search (detrend, normalise, boxcars, events).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "gpu_device.hpp"
#include "snr/single_pulse_search.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/gpu_bench.hpp"
#include "../../gpu/snr_gpu_bench.hpp"
#endif

namespace rapt::bench {
namespace {

constexpr int64_t kLength = int64_t(1) << 20;
constexpr int kGpuDms = 2048;
constexpr int kCpuDms = 32;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void add_gpu_row(BenchTable& table, const BenchSettings& s, std::vector<std::string>& notes) {
  const std::string what = std::to_string(kGpuDms) + " x 2^20";
#ifdef RAPT_WITH_CUDA
  if (gpu_device_count() > s.gpu) {
    std::fprintf(stderr, "rapt_bench: snr boxcars, %d DMs\n", kGpuDms);
    const SnrSettings settings;
    const gpu::GpuBoxcarTiming t = gpu::time_gpu_boxcar(
        kGpuDms, kLength, settings.widths, float(settings.threshold), s.gpu, s.repeats);
    const gpu::DeviceLimits limits = gpu::measure_device_limits(s.gpu);
    const double rate = double(t.input_bytes) / t.kernel_s;
    const std::string check = t.mismatched_hits == 0
        ? "ok (" + std::to_string(t.checked_hits) + ")"
        : "FAIL " + std::to_string(t.mismatched_hits) + "/" + std::to_string(t.checked_hits);
    table.add_row({"boxcar 1-30", what, "gpu:" + std::to_string(s.gpu),
                   number_cell(t.kernel_s * 1e3), number_cell(t.kernel_s * 1e3),
                   number_cell(rate / 1e9), percent_cell(rate / limits.copy_bytes_per_s), check});
    notes.push_back("# snr: " + std::to_string(t.hits) + " hits on the GPU; target >= 50% HBM; " +
                    limits.device);
    return;
  }
#endif
  (void)s;
  (void)notes;
  table.add_row({"boxcar 1-30", what, "gpu", "skipped: no GPU"});
}

void add_cpu_rows(BenchTable& table, std::vector<std::string>& notes) {
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  std::fprintf(stderr, "rapt_bench: snr on the CPU, %d DMs\n", kCpuDms);
  std::vector<SeriesInput> batch(kCpuDms);
  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  std::vector<float> packed;
  for (int d = 0; d < kCpuDms; ++d) {
    SeriesInput& s = batch[size_t(d)];
    s.path = "bench";
    s.dm = d;
    s.dt_s = 1e-4;
    s.samples.resize(size_t(kLength));
    for (float& v : s.samples) v = normal(rng);
    s.total_samples = s.usable_samples = kLength;
    packed.insert(packed.end(), s.samples.begin(), s.samples.end());
  }
  const SnrSettings settings;
  auto engine = make_cpu_boxcar_engine(settings.widths, float(settings.threshold), threads);
  auto start = std::chrono::steady_clock::now();
  const size_t hits = engine->find_hits(packed, kCpuDms, kLength).size();
  const double boxcar_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  size_t events = 0;
  for (const auto& e : search_batch(batch, settings, *engine, threads)) events += e.size();
  const double search_s = seconds_since(start);
  const std::string what = std::to_string(kCpuDms) + " x 2^20";
  const double scale = double(kGpuDms) / kCpuDms;
  const double bytes = double(packed.size()) * sizeof(float);
  table.add_row({"boxcar 1-30", what, "cpu x" + std::to_string(threads),
                 number_cell(boxcar_s * 1e3), number_cell(boxcar_s * scale * 1e3),
                 number_cell(bytes / boxcar_s / 1e9), "-", std::to_string(hits) + " hits"});
  table.add_row({"whole search", what, "cpu x" + std::to_string(threads),
                 number_cell(search_s * 1e3), number_cell(search_s * scale * 1e3),
                 number_cell(bytes / search_s / 1e9), "-", std::to_string(events) + " events"});
  notes.push_back("# snr: host copy bandwidth " + number_cell(host_copy_bandwidth() / 1e9) +
                  " GB/s (read + write)");
}

}  // namespace

void print_snr_tables(const BenchSettings& settings) {
  BenchTable table({"snr", "DMs x samples", "engine", "ms", "ms at 2048 DMs", "GB/s in",
                    "%HBM", "check"});
  std::vector<std::string> notes;
  if (settings.run_gpu) add_gpu_row(table, settings, notes);
  if (settings.run_cpu) add_cpu_rows(table, notes);
  std::printf("\n# single-pulse search: boxcars 1, 2, 3, 4, 6, 9, 14, 20, 30 at S/N 5\n");
  table.print(stdout);
  for (const auto& line : notes) std::printf("%s\n", line.c_str());
}

}  // namespace rapt::bench
