// Fringe stopping towards the phase centre (rapt(7), CORRELATION).
//
// A signal from direction s reaches antenna a with the phase factor exp(-2 pi i nu tau_a(s))
// (rapt(7), INTERFEROMETRY CONVENTIONS). Turning antenna a's voltages in channel c by
//     f[c][a] = exp(+2 pi i nu_c (tau_a(s_pc) - tau_a(s_0)))
// (the weight bf gives a beam at the phase centre s_pc, without its 1 / N) brings a source at the
// phase centre to one phase at every antenna: its visibilities are real. s_0 is what the voltages
// are already phased to: the array reference position for raw voltages (tau = 0), the header's
// pointing for F-engine voltages (--fringe-stopped). The geometry is GeometricWeights' (one beam).
//
// Phases only, exact at each channel's centre: residual delays must stay small against one
// sample (the narrow-band condition; max_baseline_delay_s lets the caller warn).
//
// Two places to apply them: to the voltages, fresh for each update interval (fp32, fp16), or,
// for integer voltages that the int8 engine must see unchanged, to each integration's
// visibilities as f[c][a1] conj(f[c][a2]) at its mid time; the fringe then turns during the
// integration and smears its amplitude by sinc(fringe rate x integration time).
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "bf/beam_weights.hpp"
#include "geometry/interferometer_geometry.hpp"

namespace rapt {

class FringeStopping {
 public:
  // `phased_to`: nullptr for raw voltages, else the direction they are already phased to.
  FringeStopping(const ArrayLayout& layout, const SkyDirection& phase_centre,
                 std::vector<double> channel_freq_hz, const SkyDirection* phased_to);
  // False when the voltages are already phased to the phase centre itself: every f is 1.
  bool needed() const { return needed_; }
  // f[c][a] at `time`, [chan][ant].
  std::vector<std::complex<double>> phases(const UtcInstant& time) const;
  // The fastest any f turns around `time` (over channels and antennas), turns per second: what
  // the update interval of voltage rotation is chosen from.
  double max_station_rate_turns_per_s(const UtcInstant& time) const;
  // The fastest any baseline's f[c][a1] conj(f[c][a2]) turns, turns per second.
  double max_fringe_rate_turns_per_s(const UtcInstant& time) const;
  // The largest |residual delay of a1 - residual delay of a2| over baselines, seconds.
  double max_baseline_delay_s(const UtcInstant& time) const;

 private:
  GeometricWeights weights_;
  bool needed_;
  double top_freq_hz_ = 0;
};

// Multiplies time samples [first, end) of a canonical block ([chan][ant][time][pol][re, im]) of
// `nsamples` samples by phases[c * nant + a] in channel c and antenna a; channels are shared
// out among `threads` threads.
void rotate_voltages(float* block, int nchan, int nant, int64_t nsamples, int npol,
                     const std::vector<std::complex<double>>& phases, int64_t first, int64_t end,
                     int threads = 1);

// Multiplies visibilities [chan][baseline][product] by phases[c][a1] conj(phases[c][a2]): what
// rotating the voltages would have done.
void rotate_visibilities(std::complex<double>* visibilities, int nchan, int nant, int nproducts,
                         const std::vector<std::complex<double>>& phases);

// The amplitude left of a fringe turning at `rate_turns_per_s` averaged over `seconds`:
// |sinc(rate x seconds)|.
double fringe_smearing_amplitude(double rate_turns_per_s, double seconds);

}  // namespace rapt
