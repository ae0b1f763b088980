// The CLEAN rows of `make bench`: Hogbom's minor cycle (minor_cycle.hpp) on a 4096 x 4096
// residual (a clean region of 2048 x 2048) on the host's threads and on the GPU, components
// per second, the GPU's residual and model checked against the host's bit for bit.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "gpu_device.hpp"
#include "imaging/minor_cycle.hpp"

namespace rapt::bench {
namespace {

constexpr int kSize = 4096;
constexpr int kComponents = 200;

// A PSF with sidelobe rings, and sources seen through it with noise.
void make_field(std::vector<float>& psf, std::vector<float>& dirty) {
  const int n = kSize;
  psf.assign(size_t(n) * n, 0.0f);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const double r = std::hypot(x - n / 2, y - n / 2);
      psf[size_t(y) * n + x] = float(r == 0 ? 1.0 : std::sin(r * 0.3) / (r * 0.3));
    }
  std::mt19937 rng(3);
  std::normal_distribution<float> noise(0.0f, 0.01f);
  dirty.resize(psf.size());
  for (float& v : dirty) v = noise(rng);
  const int sources[3][2] = {{n / 2 + 100, n / 2 - 40}, {n / 2 - 300, n / 2 + 250}, {n / 2, n / 2}};
  const float flux[3] = {2.0f, 1.0f, 0.5f};
  for (int k = 0; k < 3; ++k)
    for (int y = std::max(0, sources[k][1] - n / 2); y < std::min(n, sources[k][1] + n / 2); ++y)
      for (int x = std::max(0, sources[k][0] - n / 2); x < std::min(n, sources[k][0] + n / 2); ++x)
        dirty[size_t(y) * n + x] +=
            flux[k] * psf[size_t(y - sources[k][1] + n / 2) * n + (x - sources[k][0] + n / 2)];
}

struct Run {
  double seconds = 0;
  MinorCycle cycle;
  std::vector<float> residual, model;
};

Run run(MinorCycleEngine& engine, const std::vector<float>& dirty) {
  CleanSettings s;
  s.gain = 0.1;
  s.mgain = 1;
  Run r;
  r.residual = dirty;
  r.model.assign(dirty.size(), 0.0f);
  const auto start = std::chrono::steady_clock::now();
  r.cycle = engine.run(r.residual, s, kComponents, r.model);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

void print_clean_tables(const BenchSettings& settings) {
  BenchTable table({"clean", "image", "engine", "components", "ms", "components/s", "check"});
  std::vector<float> psf, dirty;
  make_field(psf, dirty);
  const std::string image = std::to_string(kSize) + " x " + std::to_string(kSize);
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  Run host;
  const bool have_host = settings.run_cpu;
  if (have_host) {
    std::fprintf(stderr, "rapt_bench: clean cpu\n");
    auto engine = make_cpu_minor_cycle(psf, kSize, threads);
    host = run(*engine, dirty);
    table.add_row({"K1 minor cycle", image, "cpu x" + std::to_string(threads),
                   std::to_string(host.cycle.components), number_cell(host.seconds * 1e3),
                   number_cell(host.cycle.components / host.seconds), "reference"});
  }
  if (settings.run_gpu) {
    if (!kGpuMinorCycleBuilt) {
      table.add_row({"K1 minor cycle", image, "gpu", "skipped: built without CUDA"});
    } else if (gpu_device_count() <= settings.gpu) {
      table.add_row({"K1 minor cycle", image, "gpu", "skipped: no GPU"});
    } else {
      std::fprintf(stderr, "rapt_bench: clean gpu\n");
      auto engine = make_gpu_minor_cycle(psf, kSize, settings.gpu);
      run(*engine, dirty);  // warm-up
      const Run gpu = run(*engine, dirty);
      std::string check = "-";
      if (have_host)
        check = gpu.residual == host.residual && gpu.model == host.model &&
                        gpu.cycle.components == host.cycle.components
                    ? "identical"
                    : "DIFFERS";
      table.add_row({"K1 minor cycle", image, "gpu " + std::to_string(settings.gpu),
                     std::to_string(gpu.cycle.components), number_cell(gpu.seconds * 1e3),
                     number_cell(gpu.cycle.components / gpu.seconds), check});
    }
  }
  std::printf("\n# CLEAN: Hogbom's minor cycle, %d components (gain 0.1) on a %d x %d residual "
              "of three sources and noise through a PSF with sidelobes, clean region the central "
              "half; ms = the whole minor cycle (the GPU's includes the residual's copies both "
              "ways); check = the GPU's residual and model against the host's, bit for bit\n",
              kComponents, kSize, kSize);
  table.print(stdout);
}

}  // namespace rapt::bench
