#include "sim/simulator.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <exception>
#include <thread>

#include "cli/errors.hpp"
#include "sim/burst_signal.hpp"
#include "sim/counter_rng.hpp"
#include "sim/noise.hpp"
#include "sim/pulsar_signal.hpp"
#include "sim/rfi_signal.hpp"

namespace rapt {

namespace {

// Threads take runs of whole tiles of this many samples (the split never changes the data).
constexpr int64_t kTileSamples = 256;
// Spectra are made a few at a time, so that noise, signals and scaling meet in cache.
constexpr size_t kChunkValues = 16384;
constexpr uint64_t kNoiseStream = 1;

typedef float Floats __attribute__((vector_size(16)));
typedef int32_t Ints __attribute__((vector_size(16)));

// row = level + scale * row, four channels at a time; returns how many results fall outside
// [low, high].
int64_t scale_row(float* row, const float* level, const float* scale, int nchans, float low,
                  float high) {
  Ints outside = {0, 0, 0, 0};
  int c = 0;
  for (; c + 4 <= nchans; c += 4) {
    Floats x, l, s;
    std::memcpy(&x, row + c, sizeof x);
    std::memcpy(&l, level + c, sizeof l);
    std::memcpy(&s, scale + c, sizeof s);
    x = l + s * x;
    outside -= (x < low) | (x > high);
    std::memcpy(row + c, &x, sizeof x);
  }
  int64_t count = outside[0] + outside[1] + outside[2] + outside[3];
  for (; c < nchans; ++c) {
    row[c] = level[c] + scale[c] * row[c];
    count += (row[c] < low) | (row[c] > high);
  }
  return count;
}

}  // namespace

Simulator::Simulator(const SimulationPlan& plan, int threads)
    : plan_(plan), threads_(std::max(1, threads)), nchans_(plan.obs.nchans) {
  plan_.validate();
  noise_key_ = stream_key(plan_.noise.seed, kNoiseStream);
  const bool flat = plan_.noise.flat_bandpass || plan_.obs.nbits <= 4;
  gain_ = bandpass_gains(nchans_, flat);
  level_.resize(gain_.size());
  scale_.resize(gain_.size());
  for (int c = 0; c < nchans_; ++c) {
    level_[c] = static_cast<float>(gain_[c] * plan_.noise.mean);
    scale_[c] = static_cast<float>(gain_[c] * plan_.noise.rms);
  }
  for (const PulsarSpec& spec : plan_.pulsars)
    signals_.push_back(std::make_unique<PulsarSignal>(spec, plan_.obs));
  for (const BurstSpec& spec : plan_.bursts)
    signals_.push_back(std::make_unique<BurstSignal>(spec, plan_.obs, plan_.radiometer));
  for (const RfiLineSpec& spec : plan_.rfi_lines)
    signals_.push_back(std::make_unique<RfiLineSignal>(spec, plan_.obs));
  for (const RfiImpulseSpec& spec : plan_.rfi_impulses)
    signals_.push_back(std::make_unique<RfiImpulseSignal>(spec, plan_.obs));
  caches_.assign(static_cast<size_t>(threads_), std::vector<SignalCache>(signals_.size()));
}

Simulator::~Simulator() = default;

void Simulator::generate_block(int64_t first_sample, size_t nsamples, float* out) {
  if (first_sample < 0) throw UsageError("generate_block: negative first sample");
  const int64_t end = first_sample + static_cast<int64_t>(nsamples);
  // Split at tile boundaries into at most threads_ runs of nearly equal numbers of tiles.
  const int64_t first_tile = first_sample / kTileSamples;
  const int64_t tiles = (end + kTileSamples - 1) / kTileSamples - first_tile;
  const int workers = static_cast<int>(std::min<int64_t>(threads_, std::max<int64_t>(tiles, 1)));
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(static_cast<size_t>(workers));
  std::vector<int64_t> outside(static_cast<size_t>(workers), 0);
  for (int w = 0; w < workers; ++w) {
    const int64_t from = std::max(first_sample, (first_tile + tiles * w / workers) * kTileSamples);
    const int64_t to = std::min(end, (first_tile + tiles * (w + 1) / workers) * kTileSamples);
    if (from >= to) continue;
    float* part = out + (from - first_sample) * nchans_;
    auto run = [this, w, from, to, part, &errors, &outside] {
      try {
        outside[w] = generate_rows(w, from, to - from, part);
      } catch (...) {
        errors[w] = std::current_exception();
      }
    };
    if (w == workers - 1)
      run();
    else
      pool.emplace_back(run);
  }
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  for (int64_t n : outside) out_of_range_ += n;
}

int64_t Simulator::generate_rows(int worker, int64_t first_sample, int64_t nsamples, float* out) {
  const int64_t chunk_rows = std::max<int64_t>(1, static_cast<int64_t>(kChunkValues) / nchans_);
  std::vector<SignalCache>& caches = caches_[worker];
  // Values that round to a level the output can store (any finite value for float output).
  const bool integer = plan_.obs.nbits < 32;
  const float low = integer ? -0.5f : -FLT_MAX;
  const float high = integer ? static_cast<float>(std::ldexp(1.0, plan_.obs.nbits) - 0.5) : FLT_MAX;
  int64_t outside = 0;
  for (int64_t done = 0; done < nsamples; done += chunk_rows) {
    const int rows = static_cast<int>(std::min(chunk_rows, nsamples - done));
    const int64_t sample = first_sample + done;
    float* x = out + done * nchans_;
    const size_t count = static_cast<size_t>(rows) * nchans_;
    if (plan_.noise.enabled)
      fill_standard_normal(noise_key_, static_cast<uint64_t>(sample) * nchans_, count, x);
    else
      std::memset(x, 0, count * sizeof(float));
    for (size_t s = 0; s < signals_.size(); ++s) signals_[s]->add(sample, rows, x, caches[s]);
    for (int r = 0; r < rows; ++r)
      outside += scale_row(x + static_cast<size_t>(r) * nchans_, level_.data(), scale_.data(),
                           nchans_, low, high);
  }
  return outside;
}

std::vector<std::string> Simulator::describe_signals() const {
  std::vector<std::string> lines;
  for (const auto& signal : signals_) lines.push_back(signal->describe());
  return lines;
}

double Simulator::plain_sum_efficiency() const {
  double sum = 0.0, sum_squares = 0.0;
  for (float g : gain_) {
    sum += g;
    sum_squares += static_cast<double>(g) * g;
  }
  return sum / std::sqrt(nchans_ * sum_squares);
}

}  // namespace rapt
