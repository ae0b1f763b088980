// A dispersed periodic pulsar: Gaussian pulses, spin-down or constant acceleration, an optional
// circular binary orbit, a power-law spectrum.
//
// Timing model, in the top channel's frame (t = seconds after the start of the first sample):
//   emission time t_e solves t = t_e + asini sin(2 pi (t_e - t0) / porb)   (Roemer delay)
//   rotational phase phi = phase + f t_e + fdot t_e^2 / 2, f = 1/P, fdot = -pdot / P^2
//   a pulse peaks where phi is an integer.
// Channel c sees the same signal delayed by its dispersion delay D_c (relative to the top
// channel). The phase is computed exactly at three times per segment of samples (a power of two,
// at most 4096, aligned to sample 0, short enough for the orbit) and interpolated quadratically
// in between, with an error below 1e-7 turns.
#pragma once
#include <string>
#include <vector>

#include "sim/pulse_shapes.hpp"
#include "sim/signal_component.hpp"
#include "sim/simulation_plan.hpp"

namespace rapt {

class PulsarSignal : public SignalComponent {
 public:
  PulsarSignal(const PulsarSpec& spec, const ObservationSpec& obs);
  void add(int64_t first_sample, int nrows, float* x, SignalCache& cache) const override;
  std::string describe() const override;

  // Rotational phase at top-channel time t (seconds after the start), exact in double.
  double phase_at(double t_s) const;
  // Peak amplitude of the pulse in each channel, in noise sigma.
  const std::vector<double>& peak_amplitudes() const { return amplitude_; }
  // Matched-filter S/N of the dedispersed, channel-normalised sum over the whole observation.
  double expected_snr() const { return snr_; }

 private:
  void prepare_segment(int64_t segment, SignalCache& cache) const;
  void add_channel(int c, const double* coefficients, int64_t segment_start, int64_t from,
                   int64_t to, int64_t first_sample, float* x) const;

  PulsarSpec spec_;
  int nchans_;
  double tsamp_s_;
  double f0_hz_;
  double fdot_hz_s_;
  int64_t segment_samples_;
  std::vector<double> delay_s_;
  std::vector<double> amplitude_;
  std::vector<float> amplitude_f_;
  PhaseProfile profile_;
  double snr_;
};

}  // namespace rapt
