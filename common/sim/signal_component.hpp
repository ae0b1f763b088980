// One injected signal (a pulsar, a burst, an RFI line or impulse) as the simulator sees it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rapt {

// A thread's scratch space for one signal: what the signal computed for the segment of samples
// it saw last.
struct SignalCache {
  int64_t segment = -1;
  std::vector<double> values;
  std::vector<int> indices;
};

class SignalComponent {
 public:
  virtual ~SignalComponent() = default;
  // Adds the signal, in units of the per-channel noise sigma, to samples first_sample ..
  // first_sample + nrows - 1: x holds nrows spectra of nchans floats. What a sample gets
  // depends only on the sample, never on how the caller splits the observation.
  // Sample k spans [k tsamp, (k + 1) tsamp) after the start; its value is the signal averaged
  // over that interval. Must be callable from several threads at once with separate caches.
  virtual void add(int64_t first_sample, int nrows, float* x, SignalCache& cache) const = 0;
  // One line for the log: what was injected and at which amplitude and S/N.
  virtual std::string describe() const = 0;
};

}  // namespace rapt
