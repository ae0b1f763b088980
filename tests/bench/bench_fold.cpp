// The fold rows of `make bench`, in a table of their own, on prepfold's golden-data setup
// (128 channels in 32 subbands, 256 us, 2^18 samples, P 87.3 ms, 64 parts x 64 bins):
//   * the CPU fold engine: 32 subband series of 2^18 samples into the (64 x 32 x 64) cube;
//   * the search: 385 DMs x 257 periods x 257 P-dots (25.4 million trials, prepfold's
//     default grid), on one thread and on every core. prepfold needs 86 s on one core.
// The data are random; the search's work does not depend on them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "fold/fold_engine.hpp"
#include "fold/fold_gpu_factory.hpp"
#include "gpu_device.hpp"
#include "fold/fold_search.hpp"

namespace rapt::bench {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

FoldLayout golden_layout() {
  FoldLayout l;
  l.npart = 64;
  l.nsub = 32;
  l.nbins = 64;
  l.total_samples = int64_t(1) << 18;
  l.dt_s = 256e-6;
  l.spin = {1.0 / 0.0873, 8.88e-4, 0.0};
  return l;
}

Pfd random_folds(const FoldLayout& l) {
  Pfd pfd;
  pfd.nsub = l.nsub;
  pfd.npart = l.npart;
  pfd.proflen = l.nbins;
  pfd.numchan = 128;
  pfd.lofreq_mhz = 1246.0;
  pfd.chan_wid_mhz = 2.0;
  pfd.dt_s = l.dt_s;
  pfd.fold.p1 = l.spin.f_hz;
  pfd.fold.p2 = l.spin.fdot;
  pfd.bestdm = 56.0;
  pfd.allocate_folds();
  std::mt19937 rng(5);
  std::normal_distribution<double> noise(0.0, 1.0);
  for (double& v : pfd.rawfolds) v = 64.0 + 8.0 * noise(rng);
  for (FoldStats& st : pfd.stats) st = {4096, 1.0, 1.0, 64, 64.0, 64.0, 1.0};
  return pfd;
}

}  // namespace

void print_fold_tables(const BenchSettings& settings) {
  BenchTable table({"workload", "size", "engine", "time", "rate", "vs prepfold"});
  const FoldLayout layout = golden_layout();
  std::vector<float> data(size_t(layout.nsub) * size_t(layout.total_samples));
  std::mt19937 rng(3);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  for (float& v : data) v = noise(rng);
  double best = 1e30;
  for (int r = 0; r < settings.repeats; ++r) {
    auto engine = make_cpu_fold_engine(layout);
    const auto start = std::chrono::steady_clock::now();
    engine->fold(data.data(), size_t(layout.total_samples), 0, size_t(layout.total_samples));
    best = std::min(best, seconds_since(start));
  }
  const double samples = double(layout.nsub) * double(layout.total_samples);
  table.add_row({"fold", "32 x 2^18 samples", "cpu", number_cell(best * 1e3) + " ms",
                 number_cell(samples / best / 1e6) + " Msamples/s", "-"});

  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  for (int threads : {1, cores}) {
    if (threads == cores && cores == 1) break;
    Pfd pfd = random_folds(layout);
    FoldSearchOptions options;
    options.threads = threads;
    std::fprintf(stderr, "rapt_bench: fold search, %d thread(s)\n", threads);
    const auto start = std::chrono::steady_clock::now();
    const FoldSearchResult result = search_fold(pfd, options);
    const double seconds = seconds_since(start);
    table.add_row({"search DM x P x P'", std::to_string(result.trials) + " trials",
                   "cpu x" + std::to_string(threads), number_cell(seconds) + " s",
                   number_cell(double(result.trials) / seconds / 1e6) + " Mtrials/s",
                   number_cell(86.0 / seconds) + "x"});
  }
  // The same search on the GPU (the parts formed on the host, every trial on the device), and
  // the fold engine there, when there is a GPU.
  if (settings.run_gpu && kGpuFoldEngineBuilt && gpu_device_count() > settings.gpu) {
    for (int r = 0; r < 2; ++r) {  // the first run includes the CUDA context's start
      Pfd pfd = random_folds(layout);
      FoldSearchOptions options;
      options.threads = cores;
      options.gpu = settings.gpu;
      std::fprintf(stderr, "rapt_bench: fold search on the GPU\n");
      const auto start = std::chrono::steady_clock::now();
      const FoldSearchResult result = search_fold(pfd, options);
      const double seconds = seconds_since(start);
      if (r == 1) {
        table.add_row({"search DM x P x P'", std::to_string(result.trials) + " trials",
                       "gpu:" + std::to_string(settings.gpu), number_cell(seconds * 1e3) + " ms",
                       number_cell(double(result.trials) / seconds / 1e6) + " Mtrials/s",
                       number_cell(86.0 / seconds) + "x"});
      }
    }
    double gpu_best = 1e30;
    for (int r = 0; r < settings.repeats; ++r) {
      auto engine = make_fold_engine(layout, "gpu:" + std::to_string(settings.gpu));
      const auto start = std::chrono::steady_clock::now();
      engine->fold(data.data(), size_t(layout.total_samples), 0, size_t(layout.total_samples));
      engine->cube();
      gpu_best = std::min(gpu_best, seconds_since(start));
    }
    table.add_row({"fold (incl. copies)", "32 x 2^18 samples", "gpu:" + std::to_string(settings.gpu),
                   number_cell(gpu_best * 1e3) + " ms",
                   number_cell(samples / gpu_best / 1e6) + " Msamples/s", "-"});
  }
  std::printf("\n# fold: prepfold's golden setup (32 subbands, 64 parts, 64 bins, 2^18 samples); "
              "prepfold's search took 86 s on one core\n");
  table.print(stdout);
}

}  // namespace rapt::bench
