// What `simulate --voltages` makes: an array's station voltages (channelised complex samples,
// or real samples of one wide band), with receiver noise, point sources, pulsars and bursts.
// A plain struct, filled from the command line (or by a test), validated once.
//
// Units: voltages are in sqrt(Jy) before `gain` (output units per sqrt(Jy)) is applied. In
// each polarisation of each antenna, receiver noise has power <|n|^2> = sefd_jy and a source
// of Stokes I flux S (unpolarised) adds power S, so the correlation coefficient of a baseline
// on a lone source is S / (S + SEFD). Real samples carry the same powers as variances.
//
// Sampling: complex channels are critically sampled, tsamp = nchan / |bandwidth|; real
// samples of the one band come at tsamp = 1 / (2 |bandwidth|). Sample k is at
// start + k tsamp. Channel c is centred on centre - bw/2 + (c + 1/2) bw/nchan (bw signed:
// negative puts channel 0 at the top, as VoltageHeader::channel_freq_mhz has it).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/interferometer_geometry.hpp"
#include "io/voltage_stream.hpp"
#include "sim/simulation_plan.hpp"
#include "sim/sky_model.hpp"

namespace rapt {

struct DirectedPulsar {
  PulsarSpec spec;
  SkyDirection direction;
};

struct DirectedBurst {
  BurstSpec spec;
  SkyDirection direction;
};

struct ArrayVoltagePlan {
  ArrayLayout layout;
  SkyDirection phase_centre;
  std::string source_name = "SIMULATED";
  int nchan = 64;
  int npol = 2;
  bool real_samples = false;       // one wide band of real samples, for a channeliser
  double centre_freq_mhz = 1284.0;
  double bandwidth_mhz = 64.0;     // signed
  int64_t nsamples = 65536;
  UtcInstant start{60000, 0.0};
  int nbits = 8;                   // 8 (integers) or 32 (floats)
  double sefd_jy = 400.0;
  bool noise = true;               // receiver noise on (off: signals only, same gain)
  double gain = 1.0;               // output units per sqrt(Jy)
  uint64_t seed = 1;
  double delay_interval_s = 1.0;   // geometric delays exact at this spacing, linear between
  int delay_taps = 16;             // fractional-delay FIR length (fractional_delay.hpp)
  std::vector<PointSourceSpec> sources;
  std::vector<DirectedPulsar> pulsars;
  std::vector<DirectedBurst> bursts;

  int nchan_out() const { return real_samples ? 1 : nchan; }
  double tsamp_s() const;
  // Sample interval of the complex baseband the band is made from (= tsamp_s() for channels,
  // 2 tsamp_s() for real samples).
  double baseband_tsamp_s() const;
  double channel_freq_mhz(int c) const;
  double duration_s() const { return nsamples * tsamp_s(); }

  // Throws UsageError naming the option and the problem.
  void validate() const;
  // The header the writers take: format "PSRDADA" or "GUPPI RAW".
  VoltageHeader header(const std::string& format) const;
  // The filterbank the pulsars' and bursts' intensities are defined on: the same channels,
  // top channel first, at the complex channels' sampling time (S/N in the man page).
  ObservationSpec transient_observation() const;
};

// The per-component output rms that `gain` gives the receiver noise: gain sqrt(SEFD / 2) for
// complex samples, gain sqrt(SEFD) for real ones; and the gain that gives a wanted rms.
double noise_rms_for_gain(const ArrayVoltagePlan& plan, double gain);
double gain_for_noise_rms(const ArrayVoltagePlan& plan, double rms);

}  // namespace rapt
