// Independent double-precision references for the simulator tests: the dispersion law, plain
// dedispersion of simulated spectra, and a small test observation.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/simulation_plan.hpp"

namespace rapt::testing {

// Delay of frequency f behind frequency f_top (MHz) at `dm`, seconds: DM / (2.41e-4 f^2).
inline double reference_delay_s(double dm, double f_mhz, double f_top_mhz) {
  return dm / 2.41e-4 * (1.0 / (f_mhz * f_mhz) - 1.0 / (f_top_mhz * f_top_mhz));
}

// A low-frequency band where dispersion is large: 64 channels of 1 MHz below 400 MHz, 1 ms
// samples, flat bandpass, output = noise + signals in sigma units (level 0, sigma 1).
inline SimulationPlan small_test_plan(int64_t nsamples) {
  SimulationPlan plan;
  plan.obs.nchans = 64;
  plan.obs.fch1_mhz = 400.0;
  plan.obs.foff_mhz = -1.0;
  plan.obs.tsamp_s = 1e-3;
  plan.obs.nsamples = nsamples;
  plan.obs.nbits = 32;
  plan.noise.mean = 0.0;
  plan.noise.rms = 1.0;
  plan.noise.flat_bandpass = true;
  plan.noise.seed = 7;
  return plan;
}

// Sums channels (data[s * nchans + c]) after shifting each by its delay rounded to whole
// samples; the result is as long as the data minus the largest delay.
inline std::vector<double> dedisperse(const std::vector<float>& data, const ObservationSpec& obs,
                                      double dm) {
  std::vector<int64_t> shift(static_cast<size_t>(obs.nchans));
  for (int c = 0; c < obs.nchans; ++c)
    shift[c] = std::llround(reference_delay_s(dm, obs.fch1_mhz + c * obs.foff_mhz, obs.fch1_mhz) /
                            obs.tsamp_s);
  const int64_t nsamples = static_cast<int64_t>(data.size()) / obs.nchans;
  const int64_t length = nsamples - shift[obs.nchans - 1];
  std::vector<double> series(static_cast<size_t>(std::max<int64_t>(length, 0)), 0.0);
  for (int64_t s = 0; s < length; ++s)
    for (int c = 0; c < obs.nchans; ++c) series[s] += data[(s + shift[c]) * obs.nchans + c];
  return series;
}

}  // namespace rapt::testing
