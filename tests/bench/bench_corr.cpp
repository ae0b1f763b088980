// The correlation rows of `make bench`, in a table of their own, GPU only:
//   C1 seed/LOFAR-2010: 64 dual-pol stations, 4096 channels, 768 samples (about 1 s of LOFAR's
//      763 Hz channels), FP32, the setup of van Nieuwpoort & Romein (2010); then 128, 256 and
//      512 stations at the same work (channels x stations^2).
//   C2 int8 and fp16 on tensor cores over 32 ... 1024 dual-pol stations at constant work
//      (channels x samples x stations^2 the same, 4096 samples): from memory-bound to
//      compute-bound.
//   C3 the compute-bound C2 shapes with eight times the channels: where C2 has few channels,
//      the last of the GPU's rounds of blocks runs part-full (1024 stations x 4 channels are
//      136 tiles x 4 = 544 blocks of the wgmma kernel, one an SM at a time: 4.1 rounds of an
//      H100's 132 SMs); here the rounds are many and the kernels' own rate shows.
// "kernel": the correlation kernel with the packed input (1, 2 or 4 bytes per value) already on
// the GPU; "+H2D" adds its copy from page-locked memory, in 8 chunks of channels overlapping the
// kernels. Useful ops = 32 N (N + 1) / 2 x channels x samples (correlator_useful_ops). %peak: of
// the FP32 peak (fp32) or the dense FP16 / INT8 tensor-core peak. %roof: of min(peak, AI x the
// measured copy bandwidth), AI = useful ops over the bytes that must move (packed input read
// once, complex64 visibilities written once). "sust.": the kernel run back to back for 1 s, as a
// long observation keeps the GPU busy, timed over the second half, with the SM clock and board
// power NVML gave meanwhile: where the GPU reaches its power limit it lowers its clock, and
// "bound" then adds "power".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_clock.hpp"
#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "corr/correlator_engine.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/bench/bf_gpu_bench.hpp"
#include "../../gpu/bench/corr_gpu_bench.hpp"
#include "../../gpu/bench/gpu_bench.hpp"
#endif

namespace rapt::bench {
namespace {

struct CorrWorkload {
  const char* name;
  int nant, nchan;
  int64_t nsamples;
  CorrPrecision precision;
};

std::vector<CorrWorkload> workloads() {
  std::vector<CorrWorkload> w = {{"C1 seed/LOFAR-2010", 64, 4096, 768, CorrPrecision::fp32}};
  for (const int nant : {128, 256, 512})
    w.push_back({"C1 fp32 sweep", nant, 4096 * 64 * 64 / (nant * nant), 768, CorrPrecision::fp32});
  for (const CorrPrecision p : {CorrPrecision::int8, CorrPrecision::fp16})
    for (const int nant : {32, 64, 128, 256, 512, 1024})
      w.push_back({"C2 sweep", nant, 4 * (1024 / nant) * (1024 / nant), 4096, p});
  for (const CorrPrecision p : {CorrPrecision::int8, CorrPrecision::fp16})
    for (const int nant : {256, 512, 1024})
      w.push_back({"C3 many channels", nant, 32 * (1024 / nant) * (1024 / nant), 4096, p});
  return w;
}

const char* precision_name(CorrPrecision p) {
  return p == CorrPrecision::int8 ? "int8" : p == CorrPrecision::fp16 ? "fp16" : "fp32";
}

std::string size_text(const CorrWorkload& w) {
  return std::to_string(w.nant) + " x " + std::to_string(w.nchan) + " x " +
         std::to_string(w.nsamples);
}

#ifdef RAPT_WITH_CUDA
constexpr double kSustainSeconds = 1.0;

CorrelatorShape shape_of(const CorrWorkload& w) {
  CorrelatorShape s;
  s.nchan = w.nchan;
  s.nant = w.nant;
  s.npol = 2;
  s.precision = w.precision;
  return s;
}

void add_gpu_rows(BenchTable& table, const BenchSettings& settings,
                  std::vector<std::string>& notes) {
  const gpu::DeviceLimits limits = gpu::measure_device_limits(settings.gpu);
  const gpu::GpuPeakRates peaks = gpu::gpu_peak_rates(settings.gpu);
  // Every Ampere and Hopper data sheet lists dense INT8 at twice dense FP16.
  const double int8_peak = 2.0 * peaks.fp16_tensor_flops;
  std::vector<std::string> kernels;
  GpuClockSampler clock(settings.gpu);
  for (const CorrWorkload& w : workloads()) {
    std::fprintf(stderr, "rapt_bench: corr %s %s %s\n", w.name, size_text(w).c_str(),
                 precision_name(w.precision));
    const CorrelatorShape s = shape_of(w);
    ClockSummary held;
    const gpu::GpuCorrelatorTiming t = gpu::time_gpu_correlator(
        s, w.nsamples, settings.gpu, settings.repeats, kSustainSeconds, [&](bool steady) {
          if (steady)
            clock.start();
          else
            held = clock.stop();
        });
    const double ops = correlator_useful_ops(s, w.nsamples);
    const double peak = w.precision == CorrPrecision::fp32   ? peaks.fp32_flops
                        : w.precision == CorrPrecision::fp16 ? peaks.fp16_tensor_flops
                                                             : int8_peak;
    const double bytes = double(t.input_bytes) + 8.0 * double(s.nvis());
    const double roof = std::min(peak, ops / bytes * limits.copy_bytes_per_s);
    const std::string check =
        (t.mismatches == 0
             ? "ok (" + std::to_string(t.checked) + ")"
             : "FAIL " + std::to_string(t.mismatches) + "/" + std::to_string(t.checked)) +
        (w.precision == CorrPrecision::int8 ? " exact" : " err " + number_cell(t.max_error));
    table.add_row({w.name, size_text(w), precision_name(w.precision), number_cell(t.kernel_s * 1e3),
                   number_cell(t.with_upload_s * 1e3), number_cell(ops / t.kernel_s * 1e-12),
                   number_cell(ops / t.with_upload_s * 1e-12),
                   percent_cell(ops / t.kernel_s / peak), percent_cell(ops / t.kernel_s / roof),
                   t.sustained_s > 0 ? percent_cell(ops / t.sustained_s / peak) : "-",
                   held.measured ? number_cell(held.mean_mhz) : "-",
                   held.measured && std::isfinite(held.mean_watts) ? number_cell(held.mean_watts)
                                                                   : "-",
                   std::string(roof < peak ? "memory" : "compute") +
                       (held.power_capped >= 0.5 ? ", power" : "") +
                       (held.thermal >= 0.5 ? ", heat" : ""),
                   check});
    const std::string k =
        std::string(precision_name(w.precision)) + " " + std::to_string(w.nant) + ": " + t.kernel;
    if (std::find(kernels.begin(), kernels.end(), k) == kernels.end()) kernels.push_back(k);
  }
  char line[256];
  std::snprintf(line, sizeof line,
                "# corr: measured copy bandwidth %.0f GB/s; INT8 tensor peak %.0f TOP/s (twice "
                "FP16's)",
                limits.copy_bytes_per_s * 1e-9, int8_peak * 1e-12);
  notes.push_back(line);
  notes.push_back("# corr: peaks: " + peaks.source);
  notes.push_back(
      "# corr: sust. = " + number_cell(kSustainSeconds) +
      " s back to back, timed over its second half; MHz, W: mean SM clock and board power "
      "meanwhile (NVML" +
      (clock.why_not().empty() ? "" : ": not measured, " + clock.why_not()) +
      "); power: the power limit held the clock down for most of it");
  notes.push_back(
      "# corr: fp32 sums Gauss's three real products a complex one (3 FFMA, not 4), so its useful "
      "rate (8 ops a complex multiply-add, as for the other paths) may pass what four products "
      "could reach: its FFMAs do 3/4 of the useful ops");
  std::string text = "# corr: kernels:";
  for (const std::string& k : kernels) text += " " + k + ";";
  notes.push_back(text);
  notes.push_back(
      "# corr: check = 256 visibilities of the first and last channel against CPU sums of the "
      "same packed values (int8 exact; fp16 1e-4, fp32 1e-5 of sqrt(P1 P2)); seed anchors at 64 "
      "stations: C1060 357 GFLOP/s kernel, 300 with I/O; " +
      limits.device);
}
#endif

}  // namespace

void print_corr_tables(const BenchSettings& settings) {
  BenchTable table({"corr", "stations x chans x samples", "precision", "kernel ms", "+H2D ms",
                    "TOPS", "TOPS +H2D", "%peak", "%roof", "sust. %peak", "MHz", "W", "bound",
                    "check"});
  std::vector<std::string> notes;
  if (settings.run_gpu) {
#ifdef RAPT_WITH_CUDA
    const char* skipped = "skipped: no GPU";
    if (gpu_device_count() > settings.gpu) add_gpu_rows(table, settings, notes);
#else
    const char* skipped = "skipped: built without CUDA";
#endif
    if (notes.empty())
      for (const CorrWorkload& w : workloads())
        table.add_row({w.name, size_text(w), precision_name(w.precision), skipped});
  }
  std::printf(
      "\n# correlation: dual polarisation, autocorrelations included; kernel = packed "
      "input on the GPU, one launch an integration (its sums written, not read: the engine's "
      "first launch of an integration); +H2D adds its upload from page-locked memory (overlapped in 8 "
      "chunks); TOPS = useful ops (32 N(N+1)/2 x chans x samples) per second\n");
  table.print(stdout);
  for (const auto& line : notes) std::printf("%s\n", line.c_str());
}

}  // namespace rapt::bench
