// What the simulator makes: the observation's layout, the noise, and the signals injected into it.
// A plain struct, filled from the command line (or by a test), validated once.
//
// Units inside the simulator: every signal amplitude is in units of the per-channel noise sigma
// before the bandpass is applied. A channel's output value is
//   level[c] + scale[c] * (noise + signals),   level[c] = gain[c] * noise.mean,
//                                              scale[c] = gain[c] * noise.rms,
// with gain[c] the bandpass shape (peak 1). Signals and noise pass through the same bandpass,
// as they do in a receiver, so the S/N of a signal does not depend on the bandpass.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rapt {

struct ObservationSpec {
  int nchans = 1024;
  double fch1_mhz = 1500.0;       // centre of channel 0, the highest channel
  double foff_mhz = -400.0 / 1024;  // channel step, always < 0 (validate() checks)
  double tsamp_s = 64e-6;
  int64_t nsamples = 156250;
  int nbits = 8;
  double tstart_mjd = 60000.0;
  std::string source_name = "SIMULATED";
  int telescope_id = 0;           // SIGPROC id 0 = "Fake"
  int machine_id = 0;             // SIGPROC id 0 = "FAKE"
  double src_raj = 0.0;           // SIGPROC packed hhmmss.s
  double src_dej = 0.0;           // SIGPROC packed +-ddmmss.s

  double channel_freq_mhz(int channel) const { return fch1_mhz + channel * foff_mhz; }
  double lowest_freq_mhz() const { return channel_freq_mhz(nchans - 1); }
  double duration_s() const { return nsamples * tsamp_s; }
};

struct NoiseSpec {
  bool enabled = true;         // false: signals and bandpass only (amplitudes keep their units)
  double mean = 120.0;         // output level at the bandpass peak
  double rms = 16.0;           // output noise sigma at the bandpass peak
  bool flat_bandpass = false;  // implied for nbits <= 4
  uint64_t seed = 1;
};

// The noise level and sigma that suit each sample width (peak channel, output units).
struct NoiseLevels {
  double mean;
  double rms;
};
NoiseLevels default_noise_levels(int nbits);

// For fluence: the radiometer equation gives the noise sigma in Jy per sample and channel,
// sefd / sqrt(npol * |foff| * tsamp).
struct RadiometerSpec {
  double sefd_jy = 10.0;
  int npol = 2;
  double sigma_jy(const ObservationSpec& obs) const;
};

struct PulsarSpec {
  std::string text;                  // as given, for messages
  double period_s = 0.0;
  double dm = 0.0;
  std::optional<double> snr;         // matched-filter S/N of the dedispersed channel sum
  std::optional<double> amp;         // or: peak amplitude per channel at ref_freq (sigma)
  std::optional<double> pdot;        // s/s
  std::optional<double> accel_ms2;   // or: line-of-sight acceleration, m/s^2; pdot = P a / c
  double duty = 0.05;                // FWHM of the Gaussian pulse / period
  double spectral_index = 0.0;       // amplitude ~ (f / ref_freq)^index
  double ref_freq_mhz = 0.0;         // 0 = top channel
  double phase = 0.0;                // rotational phase at t = 0 (top channel); peaks at phase 0
  double porb_s = 0.0;               // circular binary orbit: 0 = isolated
  double asini_lts = 0.0;            // projected semi-major axis, light seconds
  double t0_s = 0.0;                 // time of ascending node, s after the start

  double total_pdot() const;         // pdot, the one implied by accel_ms2, or 0
};

struct BurstSpec {
  std::string text;
  double t_s = 0.0;                  // arrival of the Gaussian's centre at the top channel
  double dm = 0.0;
  double width_s = 0.0;              // FWHM of the intrinsic Gaussian
  std::optional<double> snr;         // optimal boxcar S/N of the dedispersed channel sum
  std::optional<double> amp;         // or: peak of the unscattered Gaussian at ref_freq (sigma)
  std::optional<double> fluence_jyms;  // or: fluence at ref_freq, Jy ms (uses RadiometerSpec)
  double scatter_s = 0.0;            // exponential scattering time at ref_freq
  double spectral_index = 0.0;
  double ref_freq_mhz = 0.0;         // 0 = top channel
};

struct RfiLineSpec {
  std::string text;
  double freq_mhz = 0.0;             // lands in the nearest channel
  double amp = 0.0;                  // sigma
  double period_s = 0.0;             // 0: constant; else amp * sin^2(pi t / period)
};

struct RfiImpulseSpec {
  std::string text;
  double t_s = 0.0;                  // start of the impulse
  double amp = 0.0;                  // sigma, every channel, no dispersion
  double width_s = 0.0;              // duration of the boxcar; 0 = one sample (tsamp)
};

struct SimulationPlan {
  ObservationSpec obs;
  NoiseSpec noise;
  RadiometerSpec radiometer;
  std::vector<PulsarSpec> pulsars;
  std::vector<BurstSpec> bursts;
  std::vector<RfiLineSpec> rfi_lines;
  std::vector<RfiImpulseSpec> rfi_impulses;

  // Throws UsageError naming the option and the problem, e.g.
  //   --pulsar "P=0.001,DM=10,snr=5": P=0.001 is shorter than two samples (tsamp 0.001 s)
  void validate() const;
  // Signals that are valid but partly or wholly outside the data, one line each, e.g.
  //   --burst "t=12,DM=500,width=0.002,snr=20": the sweep ends after the observation; channels
  //   below 1312.5 MHz miss the pulse
  std::vector<std::string> warnings() const;
};

// Channel whose centre is nearest `freq_mhz`; -1 when the frequency is outside the band.
int nearest_channel(const ObservationSpec& obs, double freq_mhz);

// Dispersion delay of each channel relative to the top channel (channel 0), in seconds, with
// PRESTO's constant: DM / (2.41e-4 f_MHz^2).
std::vector<double> channel_delays_s(const ObservationSpec& obs, double dm);

// (f_c / ref_freq)^index for each channel; ref_freq_mhz = 0 means the top channel.
std::vector<double> spectral_weights(const ObservationSpec& obs, double index, double ref_freq_mhz);

}  // namespace rapt
