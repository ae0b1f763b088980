// Beam weights: from the array geometry (in double precision on the host, updated as the sky
// turns) or given directly in a weights file.
//
// Geometric weights (rapt(7), BEAM FORMING): a signal of sky frequency nu from direction s
// reaches antenna a with the phase factor exp(-2 pi i nu tau_a(s)) (INTERFEROMETRY
// CONVENTIONS), so the beam towards s takes
//     w[c][b][a] = exp(+2 pi i nu_c (tau_a(s_b) - tau_a(s_0)))
// where nu_c is the centre frequency of channel c, and s_0 is the array reference (tau = 0:
// raw voltages) or, for voltages already delay-compensated and fringe-stopped towards the
// pointing centre (--fringe-stopped), the pointing centre. Phase only: the narrow-band
// condition, delays small against 1 / channel width, is the caller's to check
// (max_residual_delay_s).
//
// Weights file: a text file, '#' comments ignored; the first line "nbeams B nchan C nant A",
// then B x C x A complex weights "re im", beam slowest, antenna fastest (whitespace of any kind
// between numbers). The weights are used as given, then divided by the number of valid
// stations like geometric ones.
#pragma once
#include <complex>
#include <string>
#include <string_view>
#include <vector>

#include "bf/beamformer_engine.hpp"
#include "geometry/interferometer_geometry.hpp"

namespace rapt {

// Raw weights [chan][beam][ant], not yet normalised.
struct RawBeamWeights {
  int nchan = 0, nbeams = 0, nant = 0;
  std::vector<std::complex<double>> values;
};

class GeometricWeights {
 public:
  // `reference`: nullptr for raw voltages (delays from the array reference position), else the
  // direction the voltages are already compensated towards.
  GeometricWeights(ArrayLayout layout, std::vector<SkyDirection> beams,
                   std::vector<double> channel_freq_hz, const SkyDirection* reference);
  // Weights for an instant.
  RawBeamWeights at(const UtcInstant& time) const;
  // Largest |tau_a(s_b) - tau_a(s_0)| over antennas and beams at `time`, seconds.
  double max_residual_delay_s(const UtcInstant& time) const;
  // How fast the weights' phases turn as the sky moves: the largest |d(nu_c tau)/dt| over
  // channels, beams and antennas around `time`, turns per second.
  double max_phase_rate_turns_per_s(const UtcInstant& time) const;
  // tau_a(s_b) - tau_a(s_0) at `time`, seconds, [beam][ant].
  std::vector<double> residual_delays_s(const UtcInstant& time) const;

 private:
  ArrayLayout layout_;
  std::vector<SkyDirection> beams_;
  std::vector<double> channel_freq_hz_;
  bool fringe_stopped_ = false;
  SkyDirection reference_;
};

// Parses a weights file from memory (`name` in messages). Throws DataError: a malformed first
// line, a non-finite number, or a count that differs from B x C x A ("w.txt: has 10 weights;
// nbeams 2 x nchan 4 x nant 3 needs 24").
RawBeamWeights parse_weights_text(std::string_view text, const std::string& name);
RawBeamWeights read_weights_file(const std::string& path);

// The engine's weights for one block: raw weights divided by the number of valid stations,
// 0 for stations left out (station_valid[a] == 0). With no valid station every weight is 0.
BeamWeights normalise_weights(const RawBeamWeights& raw, const std::vector<uint8_t>& station_valid);

}  // namespace rapt
