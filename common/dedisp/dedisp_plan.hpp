// Dedispersion plan: the observation's channel layout, the DM trials and the per-channel delays.
// A plain struct validated once; both engines (CPU here, CUDA in gpu/) execute the same plan.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rapt {

// PRESTO/TEMPO convention: delay_s = DM / (2.41e-4 * f_MHz^2).
constexpr double kDispersionConstantPresto = 1.0 / 2.41e-4;  // s MHz^2 cm^3 / pc
constexpr double kDispersionConstantSigproc = 4148.808;

struct DedispPlan {
  int nchans = 0;
  double fch1_mhz = 0.0;   // centre of channel 0 as stored (any channel order)
  double foff_mhz = 0.0;
  double tsamp_s = 0.0;    // input sampling time
  std::vector<double> dms;
  double dm_const = kDispersionConstantPresto;
  int downsamp = 1;        // output sample = sum of `downsamp` input samples (the runner averages)
  // Channels to leave out (true = zapped): --ignorechan and a mask's always-zapped channels.
  std::vector<bool> zapped;

  // Throws UsageError for an empty DM list, negative DMs, nchans <= 0, tsamp <= 0,
  // downsamp < 1, or a zapped vector whose size is not nchans.
  void validate() const;

  double top_freq_mhz() const;  // centre of the highest channel: the delay reference
  // Dispersion delay of channel c at `dm` relative to the top channel, in seconds (>= 0).
  double delay_s(int channel, double dm) const;
  // Delay in input samples, rounded to the nearest sample as PRESTO does.
  int32_t delay_samples(int channel, double dm) const;
  // Delay table [dm_index * nchans + channel], input samples.
  std::vector<int32_t> delay_table() const;
  // Largest delay over all DMs and unzapped channels, input samples.
  int32_t max_delay_samples() const;
  // Largest delay at `dm` over the unzapped channels (the lowest one used), input samples; 0
  // when every channel is zapped.
  int32_t trial_delay_samples(double dm) const;
};

}  // namespace rapt
