// The beam forming rows of `make bench`, in a table of their own, GPU only (FP32 through cuBLAS
// CGEMM; FP16 on tensor cores, through conversion, cuBLAS and detection and, in the "fp16
// fused" rows, through the fused product-and-detection kernel), Stokes I, tint 1, no flags:
//   B1 LOFAR survey: 64 stations, 256 channels, 155 beams, 768 dual-pol samples per channel
//      (1 s of data).
//   B2 MeerKAT-like: 64 dishes, 4096 channels, 1024 beams, 1024 samples (the detected output
//      alone is 16 GiB per 1024 samples); SKA-Low-like: 512 stations, 384 channels, 512 beams,
//      4096 samples.
// "kernel": the product and the detection with the float voltages already on the GPU (fp16:
// the FP16 conversion, the product to half beams, the detection; fp16 fused: one kernel);
// "+H2D" adds the copy of the 8-bit complex voltages (channels x stations x samples x pols x 2
// bytes) from page-locked memory and their unpack to float. FLOPs: beams x channels x samples x
// pols x (8 x stations + 1). %I/O floor: (complex64 input + complex64
// beams + complex64 weights) bytes over the measured device-to-device copy bandwidth, over the
// kernel time. %peak: of the FP32 peak (FP32 rows) or the dense FP16 tensor-core peak (FP16
// rows).
#include <cstdio>
#include <string>
#include <vector>

#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/bench/bf_gpu_bench.hpp"
#include "../../gpu/bench/gpu_bench.hpp"
#endif

namespace rapt::bench {
namespace {

struct BfWorkload {
  const char* name;
  int nant, nchan, nbeams;
  int64_t nsamples;
  double seconds_of_data;  // 0: not stated
};

const BfWorkload kWorkloads[] = {
    {"B1 LOFAR", 64, 256, 155, 768, 1.0},
    {"B2 MeerKAT", 64, 4096, 1024, 1024, 0.0},
    {"B2 SKA-Low", 512, 384, 512, 4096, 0.0},
};

std::string size_text(const BfWorkload& w) {
  return std::to_string(w.nant) + " x " + std::to_string(w.nchan) + " x " +
         std::to_string(w.nbeams) + " x " + std::to_string(w.nsamples);
}

#ifdef RAPT_WITH_CUDA
// The ways a block is formed, one row each.
struct BfVariant {
  const char* name;
  BeamPrecision precision;
  bool fp16_fused;
};

const BfVariant kVariants[] = {
    {"fp32", BeamPrecision::fp32, false},
    {"fp16", BeamPrecision::fp16, false},
    {"fp16 fused", BeamPrecision::fp16, true},
};

// The I/O floor's bytes: complex64 voltages, beams and weights, each once.
double floor_bytes(const BfWorkload& w) {
  const double samples = double(w.nchan) * double(w.nsamples) * 2;  // dual polarisation
  return 8.0 * (samples * w.nant + samples * w.nbeams + double(w.nchan) * w.nbeams * w.nant);
}

void add_gpu_rows(BenchTable& table, const BenchSettings& s, std::vector<std::string>& notes) {
  const gpu::DeviceLimits limits = gpu::measure_device_limits(s.gpu);
  const gpu::GpuPeakRates peaks = gpu::gpu_peak_rates(s.gpu);
  std::string groups = "# bf: channels per group:";
  for (const BfWorkload& w : kWorkloads) {
    for (const BfVariant& v : kVariants) {
      const bool fp16 = v.precision == BeamPrecision::fp16;
      std::fprintf(stderr, "rapt_bench: bf %s %s\n", w.name, v.name);
      BeamformerShape shape;
      shape.nchan = w.nchan;
      shape.nant = w.nant;
      shape.npol = 2;
      shape.nbeams = w.nbeams;
      shape.precision = v.precision;
      const gpu::GpuBeamformerTiming t =
          gpu::time_gpu_beamformer(shape, w.nsamples, s.gpu, s.repeats, v.fp16_fused);
      const double samples = double(w.nchan) * double(w.nsamples) * shape.npol;
      const double flops = double(w.nbeams) * samples * (8.0 * w.nant + 1.0);
      const double floor_s = floor_bytes(w) / limits.copy_bytes_per_s;
      const double peak = fp16 ? peaks.fp16_tensor_flops : peaks.fp32_flops;
      const std::string check =
          (t.mismatches == 0 ? "ok (" + std::to_string(t.checked) + ")"
                             : "FAIL " + std::to_string(t.mismatches) + "/" +
                                   std::to_string(t.checked)) +
          " err " + number_cell(t.max_error);
      table.add_row({w.name, size_text(w), v.name, number_cell(t.kernel_s * 1e3),
                     number_cell(t.with_upload_s * 1e3),
                     w.seconds_of_data > 0 ? number_cell(t.kernel_s * 1e3 / w.seconds_of_data)
                                           : "-",
                     number_cell(flops / t.kernel_s * 1e-12), percent_cell(floor_s / t.kernel_s),
                     percent_cell(flops / t.kernel_s / peak), check});
      groups += std::string(" ") + w.name + " " + v.name + " " +
                std::to_string(t.group_channels) + ";";
    }
  }
  char line[256];
  std::snprintf(line, sizeof line,
                "# bf: I/O floor at the measured copy bandwidth of %.0f GB/s: B1 %.3f ms; "
                "targets for B1 on an H100: FP32 <= 1.25 ms, tensor cores <= 0.35 ms",
                limits.copy_bytes_per_s * 1e-9,
                floor_bytes(kWorkloads[0]) / limits.copy_bytes_per_s * 1e3);
  notes.push_back(line);
  // The FP16 path's own floor: float voltages read, half voltages written and read (16 bytes per
  // complex value), half beams written and read (8), Stokes I written (4 per dual-pol sample).
  const BfWorkload& b1 = kWorkloads[0];
  const double values = double(b1.nchan) * double(b1.nsamples) * 2;
  const double three_pass_bytes = 16.0 * values * b1.nant + 10.0 * values * b1.nbeams;
  std::snprintf(line, sizeof line,
                "# bf: B1 FP16 in three passes (conversion, product, detection) moves %.2f GB: "
                "%.3f ms at that bandwidth",
                three_pass_bytes * 1e-9, three_pass_bytes / limits.copy_bytes_per_s * 1e3);
  notes.push_back(line);
  // The fused kernel's: float voltages read once, Stokes I written.
  const double fused_bytes = 8.0 * values * b1.nant + 2.0 * values * b1.nbeams;
  std::snprintf(line, sizeof line,
                "# bf: B1 FP16 fused (float voltages in, Stokes I out) moves %.2f GB: %.3f ms at "
                "that bandwidth",
                fused_bytes * 1e-9, fused_bytes / limits.copy_bytes_per_s * 1e3);
  notes.push_back(line);
  notes.push_back("# bf: peaks: " + peaks.source);
  notes.push_back(groups);
  notes.push_back("# bf: check = Stokes I of 3 beams x 3 channels, every sample, against a CPU "
                  "sum in double; err = largest |GPU - CPU| over their rms (tolerance 1e-4 FP32, "
                  "1e-2 FP16); " + limits.device);
}
#endif

}  // namespace

void print_bf_tables(const BenchSettings& settings) {
  BenchTable table({"bf", "stations x chans x beams x samples", "precision", "kernel ms",
                    "+H2D ms", "ms per s of data", "TFLOP/s", "%I/O floor", "%peak", "check"});
  std::vector<std::string> notes;
  if (settings.run_gpu) {
#ifdef RAPT_WITH_CUDA
    const char* skipped = "skipped: no GPU";
    if (gpu_device_count() > settings.gpu) add_gpu_rows(table, settings, notes);
#else
    const char* skipped = "skipped: built without CUDA";
#endif
    if (notes.empty())
      for (const BfWorkload& w : kWorkloads) table.add_row({w.name, size_text(w), "-", skipped});
  }
  std::printf("\n# beam forming: Stokes I, tint 1, no flags; kernel = product + detection (fp16: "
              "FP16 conversion + product + detection; fp16 fused: one kernel), voltages on the "
              "GPU; +H2D adds the copy of the 8-bit voltages and their unpack; FLOPs = beams x "
              "chans x samples x pols x (8 x stations + 1)\n");
  table.print(stdout);
  for (const auto& line : notes) std::printf("%s\n", line.c_str());
}

}  // namespace rapt::bench
