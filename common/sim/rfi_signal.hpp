// Man-made interference: a persistent narrow-band line, and broadband impulses without
// dispersion.
#pragma once
#include <string>

#include "sim/signal_component.hpp"
#include "sim/simulation_plan.hpp"

namespace rapt {

// A line in the channel nearest `freq`: constant `amp`, or amp sin^2(pi t / period) (a signal
// switching on and off smoothly, which puts a birdie at 1/period in the periodicity search).
class RfiLineSignal : public SignalComponent {
 public:
  RfiLineSignal(const RfiLineSpec& spec, const ObservationSpec& obs);
  void add(int64_t first_sample, int nrows, float* x, SignalCache& cache) const override;
  std::string describe() const override;
  int channel() const { return channel_; }

 private:
  RfiLineSpec spec_;
  int nchans_;
  int channel_;
  double tsamp_s_;
};

// A boxcar of height `amp` from t to t + width (width 0: one sample) in every channel at once.
class RfiImpulseSignal : public SignalComponent {
 public:
  RfiImpulseSignal(const RfiImpulseSpec& spec, const ObservationSpec& obs);
  void add(int64_t first_sample, int nrows, float* x, SignalCache& cache) const override;
  std::string describe() const override;

 private:
  RfiImpulseSpec spec_;
  int nchans_;
  double tsamp_s_;
  double width_s_;
};

}  // namespace rapt
