#include "sim/rfi_signal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rapt {

RfiLineSignal::RfiLineSignal(const RfiLineSpec& spec, const ObservationSpec& obs)
    : spec_(spec),
      nchans_(obs.nchans),
      channel_(nearest_channel(obs, spec.freq_mhz)),
      tsamp_s_(obs.tsamp_s) {}

void RfiLineSignal::add(int64_t first_sample, int nrows, float* x, SignalCache&) const {
  const double period = spec_.period_s;
  for (int r = 0; r < nrows; ++r) {
    double value = spec_.amp;
    if (period > 0) {
      // Mean of sin^2(pi t / period) over the sample: integral t/2 - period sin(2 pi t/period) / 4 pi.
      const double t0 = (first_sample + r) * tsamp_s_;
      const double t1 = t0 + tsamp_s_;
      const double integral = (t1 - t0) / 2 - period / (4 * M_PI) *
                                                  (std::sin(2 * M_PI * t1 / period) -
                                                   std::sin(2 * M_PI * t0 / period));
      value = spec_.amp * integral / tsamp_s_;
    }
    x[static_cast<int64_t>(r) * nchans_ + channel_] += static_cast<float>(value);
  }
}

std::string RfiLineSignal::describe() const {
  char text[200];
  if (spec_.period_s > 0)
    std::snprintf(text, sizeof text, "RFI line at %g MHz (channel %d): amp %g sigma, on and off every %g s",
                  spec_.freq_mhz, channel_, spec_.amp, spec_.period_s);
  else
    std::snprintf(text, sizeof text, "RFI line at %g MHz (channel %d): amp %g sigma, constant",
                  spec_.freq_mhz, channel_, spec_.amp);
  return text;
}

RfiImpulseSignal::RfiImpulseSignal(const RfiImpulseSpec& spec, const ObservationSpec& obs)
    : spec_(spec),
      nchans_(obs.nchans),
      tsamp_s_(obs.tsamp_s),
      width_s_(spec.width_s > 0 ? spec.width_s : obs.tsamp_s) {}

void RfiImpulseSignal::add(int64_t first_sample, int nrows, float* x, SignalCache&) const {
  const double from = spec_.t_s;
  const double to = spec_.t_s + width_s_;
  if (to <= first_sample * tsamp_s_ || from >= (first_sample + nrows) * tsamp_s_) return;
  const int64_t first = std::max(first_sample, static_cast<int64_t>(std::floor(from / tsamp_s_)));
  const int64_t end = std::min(first_sample + nrows, static_cast<int64_t>(std::ceil(to / tsamp_s_)));
  for (int64_t k = first; k < end; ++k) {
    const double overlap = std::min(to, (k + 1) * tsamp_s_) - std::max(from, k * tsamp_s_);
    if (overlap <= 0) continue;
    const float value = static_cast<float>(spec_.amp * overlap / tsamp_s_);
    float* row = x + (k - first_sample) * nchans_;
    for (int c = 0; c < nchans_; ++c) row[c] += value;
  }
}

std::string RfiImpulseSignal::describe() const {
  char text[200];
  std::snprintf(text, sizeof text, "RFI impulse at t=%g s: amp %g sigma for %g s in every channel",
                spec_.t_s, spec_.amp, width_s_);
  return text;
}

}  // namespace rapt
