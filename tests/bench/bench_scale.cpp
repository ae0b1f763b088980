// The scale-out rows of `make bench` (table "scale"): the same work on one GPU and shared among
// several in one process (--device gpu:0,1,...). On the D1 setup (1024 channels, 50 us, 8-bit
// random data in a temporary filterbank 32 s long, DMs 0, 0.25, ...): dedisp's whole run (read,
// dedisperse, every series back to the host, handed to a sink that drops them) and snr's fused
// search with the series kept on the GPUs. accelgpu over 8 .dat files as the program runs
// (inputs shared among the GPUs), and fold --brute-force of the thesis grid from host memory
// (DM trials shared). Speed-up = one GPU's time over N GPUs' time; "per GPU" = speed-up / N
// (the goal is 0.9 or more). With one GPU the work is shared between two parts on it
// (gpu:0,0), which shows the cost of the split, not a speed-up.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <cstdio>
#include <string>
#include <vector>

#include <random>

#include <unistd.h>

#include "accel/accel_options.hpp"
#include "accel/accel_run.hpp"
#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "cli/program.hpp"
#include "dedisp/dedisp_runner.hpp"
#include "fold/brute_force_run.hpp"
#include "io/presto_inf.hpp"
#include "io/presto_series.hpp"
#include "gpu_device.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"
#include "snr/fused_search.hpp"

namespace rapt::bench {
namespace {

constexpr int kDms = 2048;
constexpr double kSeconds = 32.0;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class DroppingSink : public DedispSink {
 public:
  void begin(const ObservationInfo&, const std::vector<DedispTrial>&) override {}
  void append(size_t, const float*, size_t count) override { samples += count; }
  void finish(const std::vector<TrialSummary>&) override {}
  size_t samples = 0;
};

std::string device_list(const std::vector<int>& gpus) {
  std::string text = "gpu:";
  for (size_t i = 0; i < gpus.size(); ++i) text += (i ? "," : "") + std::to_string(gpus[i]);
  return text;
}

// Best of two whole runs after a first that also tunes the kernels. `run` returns its account
// of where the time went; the best run's comes back in `account`.
template <typename Run>
double best_time(Run&& run, std::string* account) {
  double best = 1e300;
  for (int repeat = 0; repeat < 3; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    const std::string said = run();
    const double seconds = seconds_since(start);
    if (repeat > 0 && seconds < best) best = seconds, *account = said;
  }
  return best;
}

std::string ms_per_s(double seconds) { return number_cell(seconds / kSeconds * 1e3); }

double time_dedisp(const std::string& path, const std::vector<int>& gpus,
                   std::string* account) {
  DedispRunConfig config;
  DmTrialGroup group;
  for (int i = 0; i < kDms; ++i) group.dms.push_back(0.25 * i);
  config.groups = {group};
  config.device = device_list(gpus);
  config.length = OutputLength::kComputed;
  return best_time([&] {
    std::unique_ptr<SpectraSource> source = open_spectra_source(path);
    DroppingSink sink;
    const DedispRunReport r =
        run_dedispersion(*source, dynamic_cast<SigprocReader*>(source.get()), config, sink);
    return "setup " + ms_per_s(r.setup_s) + ", reading " + ms_per_s(r.read_s) +
           ", dedispersing " + ms_per_s(r.compute_s) + ", to the sink " + ms_per_s(r.output_s);
  }, account);
}

double time_fused(const std::string& path, const std::vector<int>& gpus, size_t* events,
                  std::string* account) {
  const FusedDedispPlan plan{path, 0.0, 0.25, kDms, device_list(gpus), 0};
  const SnrSettings settings;
  return best_time([&] {
    const std::vector<SeriesInput> series = describe_fused_series(plan);
    std::vector<FusedSearchTiming> timing;
    *events = 0;
    for (const auto& e : search_fused_on_gpus(plan, series, settings, gpus, &timing))
      *events += e.size();
    std::string said;
    for (size_t d = 0; d < timing.size(); ++d) {
      const FusedSearchTiming& t = timing[d];
      said += std::string(d ? "; " : "") + gpu_name(gpus[d]) + ": read + dedisperse " +
              ms_per_s(t.dedisperse_s) + " (setup " + ms_per_s(t.setup_s) + ", reading " +
              ms_per_s(t.read_s) + "), normalise " +
              ms_per_s(t.normalise_s) + ", boxcars " + ms_per_s(t.search_s) + ", events " +
              ms_per_s(t.events_s);
    }
    return said;
  }, account);
}

// accelgpu over kAccelInputs .dat series of 2^22 samples (zmax 100, 8 harmonics), from the files
// to the written candidates, as the program runs (run_accel_inputs).
constexpr int kAccelInputs = 8;

class TemporaryDatFiles {
 public:
  TemporaryDatFiles() {
    char dir[] = "/tmp/rapt_bench_scale_XXXXXX";
    if (!::mkdtemp(dir)) throw std::runtime_error("cannot make a temporary folder");
    dir_ = dir;
    std::mt19937 rng(5);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<float> samples(size_t(1) << 22);
    for (int i = 0; i < kAccelInputs; ++i) {
      for (float& v : samples) v = noise(rng);
      const std::string root = dir_ + "/obs_DM" + std::to_string(10 + i) + ".00";
      write_dat(root + ".dat", samples, true);
      InfFile inf;
      inf.name = root;
      inf.n = int64_t(samples.size());
      inf.dt_s = 64e-6;
      inf.dm = 10 + i;
      write_inf(root + ".inf", inf, true);
      paths_.push_back(root + ".dat");
    }
  }
  ~TemporaryDatFiles() { std::filesystem::remove_all(dir_); }
  const std::vector<std::string>& paths() const { return paths_; }

 private:
  std::string dir_;
  std::vector<std::string> paths_;
};

double time_accel(const TemporaryDatFiles& files, const std::vector<int>& gpus,
                  std::string* account) {
  auto options = program_options("accelgpu", "bench");
  add_accel_options(options, true);
  options.parse_positional({"files"});
  std::vector<std::string> words = {"accelgpu", "-q", "--force", "--zmax", "100", "--numharm",
                                    "8", "--device", device_list(gpus)};
  for (const std::string& path : files.paths()) words.push_back(path);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  const ParsedOptions args = parse_options(options, int(argv.size()), argv.data(),
                                           accel_presto_option_names(true));
  const AccelRunOptions run = read_accel_options(args.result, args.positional, true);
  return best_time([&] {
    run_accel_inputs(run, args);
    return std::string();
  }, account);
}

// fold --brute-force of 2048 DMs x 2048 periods (the thesis grid) x 32 bins over 1 s of
// 40.96 us samples, from the series in host memory to the S/N map in host memory.
double time_brute_force(const std::vector<int>& gpus, std::string* account) {
  constexpr int kSide = 2048;
  constexpr int64_t kSamples = 24414;
  static const std::vector<float> series = [] {
    std::mt19937 rng(7);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<float> v(size_t(kSide) * kSamples);
    for (float& x : v) x = noise(rng);
    return v;
  }();
  BruteForceFoldGrid grid;
  grid.tsamp_s = 40.96e-6;
  grid.nbins = 32;
  for (int k = 0; k < kSide; ++k) grid.periods_s.push_back(1.6e-3 + 1.3e-3 * k);
  return best_time([&] {
    fold_brute_force_on_devices(device_list(gpus), 0, series.data(), kSide, kSamples, grid);
    return std::string();
  }, account);
}

// The device lists to time: 1, 2, 4, ... GPUs and all of them; two shares of GPU 0 when
// there is only one.
std::vector<std::vector<int>> device_sets(int count) {
  std::vector<std::vector<int>> sets;
  for (int n = 1; n < count; n *= 2) {
    sets.emplace_back();
    for (int i = 0; i < n; ++i) sets.back().push_back(i);
  }
  sets.emplace_back();
  for (int i = 0; i < count; ++i) sets.back().push_back(i);
  if (count == 1) sets.push_back({0, 0});
  return sets;
}

void add_rows(BenchTable& table, const std::string& name, const std::string& work,
              const std::vector<int>& gpus, double seconds, double per_s_of_data,
              double one_gpu_seconds, const std::string& check) {
  std::vector<int> distinct = gpus;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const double speedup = one_gpu_seconds / seconds;
  table.add_row({name, work, device_list(gpus), number_cell(seconds * 1e3),
                 per_s_of_data > 0 ? number_cell(seconds / per_s_of_data * 1e3) : "-",
                 number_cell(speedup),
                 number_cell(speedup / double(distinct.size())), check});
}

}  // namespace

void print_scale_tables(const BenchSettings& settings) {
  const std::string kD1 = std::to_string(kDms) + " DMs x " + number_cell(kSeconds) + " s";
  BenchTable table({"scale-out", "work", "devices", "ms", "ms per s of data", "speed-up",
                    "per GPU", "check"});
  std::vector<std::string> notes;
  const int count = gpu_device_count();
  if (!settings.run_gpu || count == 0) {
    table.add_row({"dedisp, snr, accelgpu, fold", "-", "gpu", "skipped: no GPU"});
  } else {
    std::fprintf(stderr, "rapt_bench: scale-out over %d GPU%s\n", count, count == 1 ? "" : "s");
    const TemporaryFilterbank fil(kSeconds);
    double one = 0.0;
    std::string account;
    for (const std::vector<int>& gpus : device_sets(count)) {
      const double t = time_dedisp(fil.path(), gpus, &account);
      if (gpus.size() == 1) one = t;
      add_rows(table, "dedisp D1", kD1, gpus, t, kSeconds, one, "-");
      notes.push_back("# dedisp D1 on " + device_list(gpus) + ", ms per s of data: " + account);
    }
    size_t one_events = 0;
    for (const std::vector<int>& gpus : device_sets(count)) {
      size_t events = 0;
      const double t = time_fused(fil.path(), gpus, &events, &account);
      notes.push_back("# snr fused D1 on " + device_list(gpus) + ", ms per s of data: " + account);
      if (gpus.size() == 1) one = t, one_events = events;
      add_rows(table, "snr fused D1", kD1, gpus, t, kSeconds, one,
               events == one_events ? std::to_string(events) + " events, as 1 GPU"
                                    : "FAIL: " + std::to_string(events) + " events, 1 GPU " +
                                          std::to_string(one_events));
    }
    {
      const TemporaryDatFiles files;
      for (const std::vector<int>& gpus : device_sets(count)) {
        const double t = time_accel(files, gpus, &account);
        if (gpus.size() == 1) one = t;
        add_rows(table, "accelgpu", std::to_string(kAccelInputs) + " x 2^22, zmax 100", gpus, t,
                 0.0, one, "-");
      }
    }
    for (const std::vector<int>& gpus : device_sets(count)) {
      const double t = time_brute_force(gpus, &account);
      if (gpus.size() == 1) one = t;
      add_rows(table, "fold --brute-force", "2048 x 2048 x 32, 1 s", gpus, t, 1.0, one, "-");
    }
  }
  std::printf("\n# scale-out: the same work on 1 GPU and shared among several in one process "
              "(--device gpu:0,1,...); speed-up over 1 GPU, per GPU = speed-up / GPUs (goal >= "
              "0.9); dedisp D1 = read, dedisperse, series back to the host; snr fused D1 = "
              "series kept on the GPUs; accelgpu = .dat files to written candidates; fold "
              "--brute-force = series in host memory to the S/N map\n");
  table.print(stdout);
  for (const std::string& line : notes) std::printf("%s\n", line.c_str());
}

}  // namespace rapt::bench
