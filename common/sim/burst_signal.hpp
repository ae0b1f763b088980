// A single dispersed pulse (an FRB or a giant pulse): a Gaussian of FWHM `width` convolved
// with a one-sided exponential of time constant tau_c = scatter (f_c / f_ref)^-4, arriving in
// channel c at t + D_c (D_c the dispersion delay relative to the top channel). Each sample holds
// the pulse averaged over the sample, computed exactly from the pulse's cumulative
// distribution; scattering keeps the fluence.
//
// S/N: the optimal boxcar S/N of the dedispersed, channel-normalised sum,
//   max over windows W of  sum_{k in W} s_k / sqrt(|W| nchans),
// where s_k is the noise-free sum of the channels aligned on their exact delays (sampled as the
// top channel is). Windows are any run of whole samples.
#pragma once
#include <string>
#include <vector>

#include "sim/signal_component.hpp"
#include "sim/simulation_plan.hpp"

namespace rapt {

class BurstSignal : public SignalComponent {
 public:
  BurstSignal(const BurstSpec& spec, const ObservationSpec& obs, const RadiometerSpec& radiometer);
  void add(int64_t first_sample, int nrows, float* x, SignalCache& cache) const override;
  std::string describe() const override;

  double expected_snr() const { return boxcar_snr_; }   // optimal boxcar, as defined above
  int64_t best_boxcar_samples() const { return boxcar_samples_; }
  double matched_snr() const { return matched_snr_; }   // matched filter on the same sum
  // Peak of the unscattered Gaussian in each channel, noise sigma.
  std::vector<double> peak_amplitudes() const;
  // Fluence in each channel, noise sigma x seconds.
  const std::vector<double>& fluences() const { return area_; }

 private:
  // Noise-free dedispersed channel sum s_k around the pulse, with these fluences per channel.
  std::vector<double> dedispersed_profile(const std::vector<double>& weights) const;
  void measure_snr(const std::vector<double>& profile);

  BurstSpec spec_;
  int nchans_;
  double tsamp_s_;
  double sigma_s_;                  // of the intrinsic Gaussian
  double sigma_jy_;                 // radiometer noise per sample and channel
  std::vector<double> arrival_s_;   // t + D_c
  std::vector<double> tau_s_;
  std::vector<double> area_;        // sigma x s
  std::vector<int64_t> first_sample_, end_sample_;  // where each channel's pulse is non-zero
  double boxcar_snr_ = 0.0;
  int64_t boxcar_samples_ = 0;
  double matched_snr_ = 0.0;
};

}  // namespace rapt
