// The channeliser rows of `make bench`, in a table of their own, GPU only (Hamming window, no
// corrections):
//   LOFAR-like F engine: 256 coarse channels x 64 stations x 2 pols of complex float input,
//      each split into 256 fine channels with 16 taps (the central LOFAR PPF), 64 output samples
//      (16,384 input samples, 84 ms of 195 kHz subbands) per block.
//   Station channeliser: 64 antennas x 2 pols of real samples, a 1024-point real FFT into 512
//      channels with 16 taps, 2048 output samples per block.
// "kernel": FIR + FFT + post with input and output on the GPU; "engine" is
// ChanneliserEngine::process from host memory to host memory (copies both ways). GB/s in: float
// input bytes over the kernel time. %HBM: the bytes the three passes read and write over the
// measured device-to-device copy bandwidth (read + write); %I/O floor: input + output bytes
// alone over it (what a single fused pass would move).
#include <cstdio>
#include <string>
#include <vector>

#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "gpu_device.hpp"
#include "ppf/channeliser.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/bench/gpu_bench.hpp"
#include "../../gpu/bench/ppf_gpu_bench.hpp"
#endif

namespace rapt::bench {
namespace {

struct PpfWorkload {
  const char* name;
  int nchan_in, nant, npol;
  bool real;
  int nfine, ntaps;
  int64_t nframes;
};

const PpfWorkload kWorkloads[] = {
    {"LOFAR F engine", 256, 64, 2, false, 256, 16, 64},
    {"station real", 1, 64, 2, true, 512, 16, 2048},
};

std::string size_text(const PpfWorkload& w) {
  return std::to_string(w.nchan_in) + (w.real ? " real" : "") + " x " + std::to_string(w.nant) +
         " x " + std::to_string(w.npol) + " -> " + std::to_string(w.nfine) + " ch, " +
         std::to_string(w.ntaps) + " taps";
}

#ifdef RAPT_WITH_CUDA
void add_gpu_rows(BenchTable& table, const BenchSettings& s, std::vector<std::string>& notes) {
  const gpu::DeviceLimits limits = gpu::measure_device_limits(s.gpu);
  for (const PpfWorkload& w : kWorkloads) {
    std::fprintf(stderr, "rapt_bench: ppf %s\n", w.name);
    ChanneliserShape shape;
    shape.nchan_in = w.nchan_in;
    shape.nant = w.nant;
    shape.npol = w.npol;
    shape.real_input = w.real;
    shape.nfine = w.nfine;
    shape.ntaps = w.ntaps;
    const gpu::GpuChanneliserTiming t = gpu::time_gpu_channeliser(shape, w.nframes, s.gpu, s.repeats);
    const double samples = double(w.nchan_in) * w.nant * w.npol * double(w.nframes) * shape.frame();
    const std::string check =
        (t.mismatches == 0 ? "ok (" + std::to_string(t.checked) + ")"
                           : "FAIL " + std::to_string(t.mismatches) + "/" + std::to_string(t.checked)) +
        " err " + number_cell(t.max_error);
    table.add_row({w.name, size_text(w), number_cell(t.input_bytes * 1e-9),
                   number_cell(t.kernel_s * 1e3), number_cell(t.fir_s * 1e3),
                   number_cell(t.fft_s * 1e3), number_cell(t.post_s * 1e3),
                   number_cell(t.engine_s * 1e3), number_cell(t.input_bytes / t.kernel_s * 1e-9),
                   number_cell(samples / t.kernel_s * 1e-9),
                   percent_cell(t.moved_bytes / t.kernel_s / limits.copy_bytes_per_s),
                   percent_cell((t.input_bytes + t.output_bytes) / t.kernel_s / limits.copy_bytes_per_s),
                   check});
  }
  char line[256];
  std::snprintf(line, sizeof line,
                "# ppf: measured copy bandwidth %.0f GB/s (read + write); target: %%HBM >= 70%%",
                limits.copy_bytes_per_s * 1e-9);
  notes.push_back(line);
  notes.push_back("# ppf: check = three (channel, antenna) streams, every fine channel and sample, "
                  "against the CPU engine; err = largest |GPU - CPU| over their rms (tolerance "
                  "1e-5); " + limits.device);
}
#endif

}  // namespace

void print_ppf_tables(const BenchSettings& settings) {
  BenchTable table({"ppf", "chans x stations x pols -> fine", "GB in", "kernel ms", "FIR ms",
                    "FFT ms", "post ms", "engine ms", "GB/s in", "Gsamples/s", "%HBM",
                    "%I/O floor", "check"});
  std::vector<std::string> notes;
  if (settings.run_gpu) {
#ifdef RAPT_WITH_CUDA
    const char* skipped = "skipped: no GPU";
    if (gpu_device_count() > settings.gpu) add_gpu_rows(table, settings, notes);
#else
    const char* skipped = "skipped: built without CUDA";
#endif
    if (notes.empty())
      for (const PpfWorkload& w : kWorkloads) table.add_row({w.name, size_text(w), "-", skipped});
  }
  std::printf("\n# channeliser (polyphase filterbank): float input, Hamming window, no "
              "corrections; kernel = FIR + FFT (cuFFT) + post with the data on the GPU; engine = "
              "from host memory to host memory; Gsamples/s = input samples (all streams) per "
              "second\n");
  table.print(stdout);
  for (const auto& line : notes) std::printf("%s\n", line.c_str());
}

}  // namespace rapt::bench
