// The benchmark's workloads (D1: Apertif-like, D6: a realistic automatic plan), its random
// input, the CPU side of its checks, and the rows it adds to the table.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_table.hpp"
#include "dedisp/dedisp_engine.hpp"

namespace rapt::bench {

constexpr double kSampleRateHz = 20000.0;  // Apertif-like: 50 us samples
constexpr size_t kSamplesPerSecond = 20000;

// 1024 channels over 1420-1720 MHz, 50 us samples, DMs 0, 0.25, ... (ndm of them).
DedispPlan apertif_plan(int ndm);

// D6: the automatic DM plan from 0 to 3000 over the same band, one plan per range (each with
// its own downsampling). `description` receives the planner's table.
std::vector<DedispPlan> realistic_plans(double hi_dm, std::string* description);

// Random samples: every byte random for packed input, floats in [-1, 1) for nbits = 32.
std::vector<uint8_t> random_block(int nchans, int nbits, size_t nspectra, uint32_t seed);

struct SpotCheck {
  size_t checked = 0;
  size_t mismatches = 0;
  std::string cell() const;  // "ok (96)" or "FAIL 3/96"
};

// Three DMs (first, middle, last in plan order), first and last 16 samples, against a CPU sum in
// the engines' order: exact for integer input, 1e-6 relative for float input.
SpotCheck spot_check(const DedispPlan& plan, const std::vector<uint8_t>& block, int nbits,
                     const float* out, size_t out_stride, size_t nout);

struct EngineTiming {
  double seconds = 0.0;  // median of the repeats after one warm-up
  SpotCheck check;
};

EngineTiming time_engine(DedispEngine& engine, const std::vector<uint8_t>& block, int nbits,
                         size_t nspectra, int repeats);

// A temporary D1 filterbank (apertif_plan's layout) of random 8-bit samples, `seconds` long;
// removed by the destructor.
class TemporaryFilterbank {
 public:
  explicit TemporaryFilterbank(double seconds);
  ~TemporaryFilterbank();
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
};

// Bytes read + written per second by a large memcpy on the host.
double host_copy_bandwidth();

struct BenchSettings {
  int gpu = 0;
  int repeats = 5;
  bool tune = true;
  bool run_gpu = true;
  bool run_cpu = true;
};

// GPU rows (or "skipped" rows when there is no GPU or no CUDA); returns lines for after the
// table (limits, targets, notes).
std::vector<std::string> add_gpu_rows(BenchTable& table, const BenchSettings& settings);
std::vector<std::string> add_cpu_rows(BenchTable& table, const BenchSettings& settings);

}  // namespace rapt::bench
