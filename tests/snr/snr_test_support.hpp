// Synthetic series for the single-pulse tests: Gaussian noise with boxcar pulses.
#pragma once
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "io/sigproc.hpp"

namespace rapt::testing {

inline std::vector<float> gaussian_noise(int64_t n, uint64_t seed, float mean = 0.0f,
                                         float sigma = 1.0f) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(mean, sigma);
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) v = normal(rng);
  return x;
}

// Adds `amplitude` (in noise sigmas) to samples [first, first + width).
// A pulse that would reach past either end of the series is a mistake of the test: at() says so.
inline void add_boxcar_pulse(std::vector<float>& x, int64_t first, int width, float amplitude) {
  for (int64_t i = first; i < first + width; ++i) x.at(size_t(i)) += amplitude;
}

struct DispersedPulse {
  double time_s;     // at the top channel, centre of the pulse
  double dm;
  int width;         // samples
  float amplitude;   // added to each channel
};

// A filterbank for the search tests: Gaussian noise in every channel of `header`, with
// dispersed boxcar pulses (PRESTO's dispersion constant, delays to the first channel).
// Samples time-major, as SigprocWriter::write takes them.
inline std::vector<float> noise_with_pulses(const SigprocHeader& header, size_t nspectra,
                                            float mean, float sigma, uint64_t seed,
                                            const std::vector<DispersedPulse>& pulses) {
  const size_t nchans = size_t(header.nchans);
  std::vector<float> data = gaussian_noise(int64_t(nspectra * nchans), seed, mean, sigma);
  for (const DispersedPulse& pulse : pulses)
    for (size_t c = 0; c < nchans; ++c) {
      const double f = header.fch1 + double(c) * header.foff;
      const double delay = pulse.dm / 2.41e-4 * (1.0 / (f * f) - 1.0 / (header.fch1 * header.fch1));
      const size_t first = size_t((pulse.time_s + delay) / header.tsamp) - size_t(pulse.width / 2);
      for (size_t t = first; t < first + size_t(pulse.width) && t < nspectra; ++t)
        data[t * nchans + c] += pulse.amplitude;
    }
  return data;
}

// An 8-bit SIGPROC header for those tests.
inline SigprocHeader test_header(int nchans, double tsamp, double fch1, double foff) {
  SigprocHeader h;
  h.source_name = "test";
  h.tsamp = tsamp;
  h.fch1 = fch1;
  h.foff = foff;
  h.nchans = nchans;
  h.nbits = 8;
  h.tstart = 60000.0;
  return h;
}

inline void write_filterbank(const std::string& path, const SigprocHeader& header,
                             const std::vector<float>& data) {
  SigprocWriter writer(path, header, true);
  writer.write(data.data(), data.size() / size_t(header.nchans));
  writer.commit();
}

}  // namespace rapt::testing
