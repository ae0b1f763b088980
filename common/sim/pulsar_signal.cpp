#include "sim/pulsar_signal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rapt {

namespace {

constexpr int64_t kLongestSegment = 4096;
constexpr int64_t kShortestSegment = 8;
constexpr double kPhaseTolerance = 1e-7;  // turns, for the quadratic interpolation

// Longest power-of-two segment over which a quadratic follows the phase to kPhaseTolerance.
// Quadratic interpolation through both ends and the middle of a span T errs by at most
// |phi'''| T^3 / (72 sqrt 3); the orbit gives |phi'''| <= f asini omega^3.
int64_t segment_samples(const PulsarSpec& spec, double tsamp_s) {
  if (spec.porb_s <= 0) return kLongestSegment;  // the phase is a quadratic in time
  const double omega = 2 * M_PI / spec.porb_s;
  const double third_derivative = 1.1 * spec.asini_lts * std::pow(omega, 3) / spec.period_s;
  int64_t samples = kLongestSegment;
  while (samples > kShortestSegment &&
         third_derivative * std::pow(samples * tsamp_s, 3) / (72 * std::sqrt(3.0)) > kPhaseTolerance)
    samples /= 2;
  return samples;
}

}  // namespace

PulsarSignal::PulsarSignal(const PulsarSpec& spec, const ObservationSpec& obs)
    : spec_(spec),
      nchans_(obs.nchans),
      tsamp_s_(obs.tsamp_s),
      f0_hz_(1.0 / spec.period_s),
      fdot_hz_s_(-spec.total_pdot() / (spec.period_s * spec.period_s)),
      segment_samples_(segment_samples(spec, obs.tsamp_s)),
      delay_s_(channel_delays_s(obs, spec.dm)),
      profile_(spec.duty, obs.tsamp_s / spec.period_s) {
  const std::vector<double> weights = spectral_weights(obs, spec.spectral_index, spec.ref_freq_mhz);
  double weight_sum = 0.0;
  for (double w : weights) weight_sum += w;
  // Dedispersed and summed, the channels give A * weight_sum * profile(t) in noise of
  // sqrt(nchans); the matched filter for the pulsed part over N samples collects
  // sqrt(N * variance(profile)).
  const double unit_snr = weight_sum * std::sqrt(obs.nsamples * profile_.variance()) /
                          std::sqrt(static_cast<double>(obs.nchans));
  const double peak = spec.amp ? *spec.amp : *spec.snr / unit_snr;
  snr_ = peak * unit_snr;
  amplitude_.resize(weights.size());
  amplitude_f_.resize(weights.size());
  for (size_t c = 0; c < weights.size(); ++c) {
    amplitude_[c] = peak * weights[c];
    amplitude_f_[c] = static_cast<float>(amplitude_[c]);
  }
}

double PulsarSignal::phase_at(double t_s) const {
  double emission_s = t_s;
  if (spec_.porb_s > 0) {
    // Newton's method on t_e + asini sin(omega (t_e - t0)) = t.
    const double omega = 2 * M_PI / spec_.porb_s;
    for (int i = 0; i < 50; ++i) {
      const double angle = omega * (emission_s - spec_.t0_s);
      const double step = (emission_s + spec_.asini_lts * std::sin(angle) - t_s) /
                          (1.0 + spec_.asini_lts * omega * std::cos(angle));
      emission_s -= step;
      if (std::fabs(step) < 1e-14 * (1.0 + std::fabs(t_s))) break;
    }
  }
  return spec_.phase + emission_s * (f0_hz_ + 0.5 * fdot_hz_s_ * emission_s);
}

// Per channel: the phase over the segment as y0 + b u + c u^2 (u in samples from the segment's
// start, minus a whole number of turns), and whether any pulse falls inside it.
void PulsarSignal::prepare_segment(int64_t segment, SignalCache& cache) const {
  const double span = static_cast<double>(segment_samples_);
  const double start_s = static_cast<double>(segment * segment_samples_) * tsamp_s_;
  const double reach = profile_.support_half_width();
  cache.values.resize(3 * static_cast<size_t>(nchans_));
  cache.indices.clear();
  for (int c = 0; c < nchans_; ++c) {
    const double t0 = start_s - delay_s_[c];
    const double phase0 = phase_at(t0);
    const double base = std::floor(phase0);
    const double y0 = phase0 - base;
    const double ym = phase_at(t0 + 0.5 * span * tsamp_s_) - base;
    const double y1 = phase_at(t0 + span * tsamp_s_) - base;
    const double b = (4 * ym - 3 * y0 - y1) / span;
    const double q = 2 * (y1 - 2 * ym + y0) / (span * span);
    double* coefficients = &cache.values[3 * static_cast<size_t>(c)];
    coefficients[0] = y0;
    coefficients[1] = b;
    coefficients[2] = q;
    double low = std::min(y0, y1), high = std::max(y0, y1);
    if (q != 0.0) {
      const double vertex = -b / (2 * q);
      if (vertex > 0 && vertex < span) {
        const double y = y0 + vertex * (b + vertex * q);
        low = std::min(low, y);
        high = std::max(high, y);
      }
    }
    if (reach >= 0.5 || std::floor(high + reach) >= std::ceil(low - reach)) cache.indices.push_back(c);
  }
  cache.segment = segment;
}

void PulsarSignal::add(int64_t first_sample, int nrows, float* x, SignalCache& cache) const {
  // Locals, so that stores through x need not reload them.
  const float* table = profile_.table();
  const int64_t table_size = profile_.table_size();
  const float* amplitude = amplitude_f_.data();
  const int64_t nchans = nchans_;
  const int64_t end = first_sample + nrows;
  for (int64_t sample = first_sample; sample < end;) {
    const int64_t segment = sample / segment_samples_;
    const int64_t segment_start = segment * segment_samples_;
    const int64_t stop = std::min(end, segment_start + segment_samples_);
    if (cache.segment != segment) prepare_segment(segment, cache);
    const double* coefficients = cache.values.data();
    const int* active = cache.indices.data();
    const size_t nactive = cache.indices.size();
    for (; sample < stop; ++sample) {
      const double u = static_cast<double>(sample - segment_start) + 0.5;  // sample centre
      float* row = x + (sample - first_sample) * nchans;
      for (size_t i = 0; i < nactive; ++i) {
        const int c = active[i];
        const double* k = coefficients + 3 * c;
        double phase = k[0] + u * (k[1] + u * k[2]);
        // Phases here are >= 0 but for rounding: truncate, then wrap a tiny negative remainder.
        phase -= static_cast<double>(static_cast<int64_t>(phase));
        phase += phase < 0.0 ? 1.0 : 0.0;
        row[c] += amplitude[c] * PhaseProfile::interpolate(table, table_size, phase);
      }
    }
  }
}

std::string PulsarSignal::describe() const {
  char text[256];
  std::snprintf(text, sizeof text,
                "pulsar P=%g s DM=%g: peak %.4g sigma per channel in the top channel, "
                "matched-filter S/N %.4g",
                spec_.period_s, spec_.dm, amplitude_[0], snr_);
  return text;
}

}  // namespace rapt
