// Geometric beam weights and their normalisation by the valid stations (the weights file
// parser is in beam_weights_file.cpp).
#include "bf/beam_weights.hpp"

#include <cmath>
#include <stdexcept>

#include "geometry/earth_orientation.hpp"

namespace rapt {
namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

Vector3 unit_vector(const SkyDirection& d) {
  return {std::cos(d.dec_rad) * std::cos(d.ra_rad), std::cos(d.dec_rad) * std::sin(d.ra_rad),
          std::sin(d.dec_rad)};
}

}  // namespace

GeometricWeights::GeometricWeights(ArrayLayout layout, std::vector<SkyDirection> beams,
                                   std::vector<double> channel_freq_hz,
                                   const SkyDirection* reference)
    : layout_(std::move(layout)),
      beams_(std::move(beams)),
      channel_freq_hz_(std::move(channel_freq_hz)),
      fringe_stopped_(reference != nullptr),
      reference_(reference ? *reference : SkyDirection{}) {}

// tau_a(s_b) - tau_a(s_0) for every beam and antenna, with tau_a(s) = -(r_a - r_ref) . s / c
// (geometric_delays_s), the rotation to the celestial frame computed once for all beams.
std::vector<double> GeometricWeights::residual_delays_s(const UtcInstant& time) const {
  const Matrix3 c2t = celestial_to_terrestrial(time);
  const size_t nant = layout_.antennas.size();
  std::vector<Vector3> offsets(nant);
  for (size_t a = 0; a < nant; ++a) {
    Vector3 d{};
    for (int k = 0; k < 3; ++k) d[k] = layout_.antennas[a].itrf_m[k] - layout_.reference_itrf_m[k];
    offsets[a] = rotate_transposed(c2t, d);
  }
  auto delay = [&](size_t a, const Vector3& s) {
    return -(offsets[a][0] * s[0] + offsets[a][1] * s[1] + offsets[a][2] * s[2]) /
           kSpeedOfLight_m_s;
  };
  const Vector3 s0 = unit_vector(reference_);
  std::vector<double> out(beams_.size() * nant);
  for (size_t b = 0; b < beams_.size(); ++b) {
    const Vector3 s = unit_vector(beams_[b]);
    for (size_t a = 0; a < nant; ++a)
      out[b * nant + a] = delay(a, s) - (fringe_stopped_ ? delay(a, s0) : 0.0);
  }
  return out;
}

RawBeamWeights GeometricWeights::at(const UtcInstant& time) const {
  const std::vector<double> delays = residual_delays_s(time);
  RawBeamWeights w;
  w.nchan = int(channel_freq_hz_.size());
  w.nbeams = int(beams_.size());
  w.nant = layout_.size();
  w.values.resize(size_t(w.nchan) * w.nbeams * w.nant);
  for (int c = 0; c < w.nchan; ++c)
    for (size_t k = 0; k < delays.size(); ++k) {
      // The phase in turns, reduced before multiplying by 2 pi to keep double precision.
      double turns = channel_freq_hz_[size_t(c)] * delays[k];
      turns -= std::round(turns);
      w.values[size_t(c) * delays.size() + k] = std::polar(1.0, kTwoPi * turns);
    }
  return w;
}

double GeometricWeights::max_residual_delay_s(const UtcInstant& time) const {
  double largest = 0;
  for (double d : residual_delays_s(time)) largest = std::max(largest, std::fabs(d));
  return largest;
}

double GeometricWeights::max_phase_rate_turns_per_s(const UtcInstant& time) const {
  const std::vector<double> now = residual_delays_s(time);
  const std::vector<double> later = residual_delays_s({time.mjd_day, time.seconds + 1.0});
  double rate = 0, top_hz = 0;
  for (size_t k = 0; k < now.size(); ++k) rate = std::max(rate, std::fabs(later[k] - now[k]));
  for (double f : channel_freq_hz_) top_hz = std::max(top_hz, std::fabs(f));
  return rate * top_hz;
}

BeamWeights normalise_weights(const RawBeamWeights& raw, const std::vector<uint8_t>& station_valid) {
  if (station_valid.size() != size_t(raw.nant))
    throw std::invalid_argument("normalise_weights: station_valid is not nant long");
  int nvalid = 0;
  for (uint8_t v : station_valid) nvalid += v ? 1 : 0;
  const double scale = nvalid ? 1.0 / nvalid : 0.0;
  BeamWeights w;
  w.weights.resize(raw.values.size());
  for (size_t k = 0; k < raw.values.size(); ++k) {
    const size_t a = k % size_t(raw.nant);
    w.weights[k] = station_valid[a] ? std::complex<float>(raw.values[k] * scale) : 0.0f;
  }
  w.station_scale.resize(size_t(raw.nant));
  for (int a = 0; a < raw.nant; ++a) w.station_scale[size_t(a)] = station_valid[size_t(a)] ? float(scale) : 0.0f;
  return w;
}

}  // namespace rapt
