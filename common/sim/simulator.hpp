// The simulator core: makes any stretch of a simulated observation as float spectra in memory.
//
//   Simulator sim(plan, threads);
//   sim.generate_block(first_sample, nsamples, out);   // out[s * nchans + c]
//
// Every value is a pure function of the plan and its (sample, channel): the same plan gives
// identical bytes whatever the block sizes, the order of the blocks and the number of threads.
// The output is in the file's units (noise level and sigma of NoiseSpec, shaped by the
// bandpass), ready for quantisation; channel 0 is the highest frequency.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/signal_component.hpp"
#include "sim/simulation_plan.hpp"

namespace rapt {

class Simulator {
 public:
  // Validates the plan (UsageError) and prepares every signal. threads >= 1.
  Simulator(const SimulationPlan& plan, int threads);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // Writes spectra first_sample .. first_sample + nsamples - 1 (any range, even beyond
  // plan.obs.nsamples) to out, nsamples * nchans floats. Uses up to `threads` threads; one call
  // at a time per Simulator (its threads share the Simulator's scratch space).
  void generate_block(int64_t first_sample, size_t nsamples, float* out);

  const SimulationPlan& plan() const { return plan_; }
  // How many values generated so far lie outside what plan.obs.nbits can store (they will be
  // clipped when quantised); for 32-bit float output, those that overflowed to infinity.
  int64_t values_out_of_range() const { return out_of_range_; }
  const std::vector<float>& bandpass() const { return gain_; }
  // One line per injected signal: amplitude and S/N as defined in the man page.
  std::vector<std::string> describe_signals() const;
  // S/N of a signal of S/N 1 (channel-normalised) seen in the plain sum of the raw channels,
  // which weights channels by their gain: sum(gain) / sqrt(nchans * sum(gain^2)) for a flat
  // spectrum. 1 for a flat bandpass.
  double plain_sum_efficiency() const;

 private:
  // Returns the number of values outside the output's range.
  int64_t generate_rows(int worker, int64_t first_sample, int64_t nsamples, float* out);

  SimulationPlan plan_;
  int threads_;
  int nchans_;
  uint64_t noise_key_;
  std::vector<float> gain_;
  std::vector<float> level_;   // output value of zero signal and noise, per channel
  std::vector<float> scale_;   // output units per noise sigma, per channel
  std::vector<std::unique_ptr<SignalComponent>> signals_;
  std::vector<std::vector<SignalCache>> caches_;  // [worker][signal]
  int64_t out_of_range_ = 0;
};

}  // namespace rapt
