// The GPU rows: D1 (Apertif-like, 2 to 4096 DMs, 8-bit and float input, one second of data) and
// D6 (automatic plan to DM 3000, 60 s of 8-bit data).
#include <cstdio>
#include <memory>

#include "bench_workloads.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/dedisp/dedisp_gpu_options.hpp"
#include "../../gpu/bench/gpu_bench.hpp"
#endif

namespace rapt::bench {
namespace {

void add_skipped_rows(BenchTable& table, const std::string& why) {
  table.add_row({"D1", "8-bit", "2-4096", "gpu", "skipped: " + why});
  table.add_row({"D1", "float", "2-4096", "gpu", "skipped: " + why});
  table.add_row({"D6", "8-bit", "0-3000 auto", "gpu", "skipped: " + why});
}

#ifdef RAPT_WITH_CUDA

std::string ms_cell(double seconds) { return number_cell(seconds * 1e3); }

// A tuned candidate that disagreed with the direct kernel is a bug, even if another one won.
void note_tuning_failures(const gpu::GpuDedispTiming& t, const std::string& workload,
                          std::vector<std::string>& notes) {
  if (t.tuned_failures == 0) return;
  notes.push_back("# WARNING: " + workload + ": " + std::to_string(t.tuned_failures) + " of " +
                  std::to_string(t.tuned) +
                  " tile configurations failed the check; first: " + t.first_failure);
}

struct Totals {
  double kernel_s = 0.0, upload_s = 0.0, adds = 0.0, bytes = 0.0, shared_bytes = 0.0;
  SpotCheck check;
};

void add_d1_rows(BenchTable& table, const BenchSettings& s, const gpu::DeviceLimits& limits,
                 const gpu::GpuDedispOptions& options, int nbits, std::vector<std::string>& notes) {
  const std::string input = nbits == 32 ? "float" : "8-bit";
  for (int ndm = 2; ndm <= 4096; ndm *= 2) {
    std::fprintf(stderr, "rapt_bench: D1 %s, %d DMs\n", input.c_str(), ndm);
    const DedispPlan plan = apertif_plan(ndm);
    const size_t nspectra = kSamplesPerSecond + size_t(plan.max_delay_samples());
    const gpu::GpuDedispTiming t =
        gpu::time_gpu_dedisp(plan, nbits, nspectra, s.gpu, options, s.repeats);
    note_tuning_failures(t, "D1 " + input + " " + std::to_string(ndm) + " DMs", notes);
    auto engine = gpu::make_gpu_dedisp_engine(plan, s.gpu, options);
    const EngineTiming e = time_engine(*engine, random_block(plan.nchans, nbits, nspectra, 7),
                                       nbits, nspectra, std::max(1, s.repeats / 2));
    SpotCheck check = e.check;
    check.checked += t.checked;
    check.mismatches += t.mismatches;
    const double adds = double(ndm) * plan.nchans * double(kSamplesPerSecond);
    const double bytes = double(t.input_bytes + t.output_bytes);
    table.add_row(
        {"D1", input, std::to_string(ndm), "gpu:" + std::to_string(s.gpu), ms_cell(t.kernel_s),
         ms_cell(t.with_upload_s), ms_cell(e.seconds), number_cell(adds / t.kernel_s * 1e-9),
         percent_cell(bytes / t.kernel_s / limits.copy_bytes_per_s),
         percent_cell(adds * (nbits == 32 ? 4 : 1) / t.kernel_s / limits.shared_bytes_per_s),
         check.cell(), t.kernel});
    if (ndm == 2048) {
      char line[200];
      std::snprintf(line, sizeof line,
                    "# target: D1, %s input, 2048 DMs in <= 8 ms per second of data: %.2f ms "
                    "(kernels), %.2f ms (with the upload): %s",
                    input.c_str(), t.kernel_s * 1e3, t.with_upload_s * 1e3,
                    t.kernel_s <= 8e-3 ? "met" : "missed");
      notes.push_back(line);
    }
  }
}

void add_d6_row(BenchTable& table, const BenchSettings& s, const gpu::DeviceLimits& limits,
                const gpu::GpuDedispOptions& options, std::vector<std::string>& notes) {
  const double seconds = 60.0;
  std::string description;
  const std::vector<DedispPlan> plans = realistic_plans(3000.0, &description);
  Totals total;
  size_t ndm = 0;
  std::string kernels;
  for (const DedispPlan& plan : plans) {
    std::fprintf(stderr, "rapt_bench: D6, DMs %g to %g, downsampling %d\n", plan.dms.front(),
                 plan.dms.back(), plan.downsamp);
    const size_t nspectra = size_t(plan.max_delay_samples()) + size_t(seconds) * kSamplesPerSecond;
    const gpu::GpuDedispTiming t =
        gpu::time_gpu_dedisp(plan, 8, nspectra, s.gpu, options, std::max(1, s.repeats / 2));
    note_tuning_failures(t, "D6", notes);
    const double n_out = double((nspectra - size_t(plan.max_delay_samples())) /
                                size_t(plan.downsamp) * size_t(plan.downsamp));
    total.kernel_s += t.kernel_s;
    total.upload_s += t.with_upload_s;
    total.adds += double(plan.dms.size()) * plan.nchans * n_out;
    total.bytes += double(t.input_bytes + t.output_bytes);
    total.check.checked += t.checked;
    total.check.mismatches += t.mismatches;
    ndm += plan.dms.size();
    kernels += (kernels.empty() ? "" : "; ") + t.kernel;
  }
  table.add_row(
      {"D6", "8-bit", std::to_string(ndm) + " in " + std::to_string(plans.size()) + " plans",
       "gpu:" + std::to_string(s.gpu), ms_cell(total.kernel_s / seconds),
       ms_cell(total.upload_s / seconds), "-", number_cell(total.adds / total.kernel_s * 1e-9),
       percent_cell(total.bytes / total.kernel_s / limits.copy_bytes_per_s),
       percent_cell(total.adds / total.kernel_s / limits.shared_bytes_per_s), total.check.cell(),
       "see below"});
  notes.push_back("# D6 plan (60 s of data; each range uploads the block once): " + kernels);
  size_t at = 0;
  while (at < description.size()) {
    const size_t end = description.find('\n', at);
    notes.push_back("#   " + description.substr(at, end - at));
    at = end == std::string::npos ? description.size() : end + 1;
  }
}

#endif

}  // namespace

std::vector<std::string> add_gpu_rows(BenchTable& table, const BenchSettings& s) {
  std::vector<std::string> notes;
  if (!s.run_gpu) return notes;
#ifndef RAPT_WITH_CUDA
  add_skipped_rows(table, "built without CUDA");
#else
  if (gpu_device_count() == 0) {
    add_skipped_rows(table, "no GPU");
    return notes;
  }
  std::fprintf(stderr, "rapt_bench: measuring the GPU's copy and shared-memory bandwidth\n");
  const gpu::DeviceLimits limits = gpu::measure_device_limits(s.gpu);
  char line[400];
  std::snprintf(line, sizeof line,
                "# gpu:%d %s: device-to-device copy %.0f GB/s (read + write); shared memory "
                "%.1f TB/s measured, %.1f TB/s from SMs x 128 B x peak clock",
                s.gpu, limits.device.c_str(), limits.copy_bytes_per_s * 1e-9,
                limits.shared_bytes_per_s * 1e-12, limits.shared_estimate_bytes_per_s * 1e-12);
  notes.push_back(line);
  gpu::GpuDedispOptions options;
  options.tuning = s.tune ? gpu::TuneMode::cached : gpu::TuneMode::off;
  add_d1_rows(table, s, limits, options, 8, notes);
  add_d1_rows(table, s, limits, options, 32, notes);
  add_d6_row(table, s, limits, options, notes);
#endif
  return notes;
}

}  // namespace rapt::bench
