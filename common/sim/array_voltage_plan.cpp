#include "sim/array_voltage_plan.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include "cli/errors.hpp"

namespace rapt {

namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

constexpr double kRadToDeg = 180.0 / M_PI;

void validate_band(const ArrayVoltagePlan& p) {
  if (p.nchan < 1 || p.nchan > (1 << 20))
    throw UsageError("--nchans must be between 1 and 1048576 (got " + std::to_string(p.nchan) + ")");
  if (p.real_samples && p.nchan != 1)
    throw UsageError("--real-voltages makes one band of real samples: leave --nchans out or give 1");
  if (p.npol != 1 && p.npol != 2)
    throw UsageError("--npol must be 1 or 2 (got " + std::to_string(p.npol) + ")");
  if (!(p.centre_freq_mhz > 0) || !std::isfinite(p.centre_freq_mhz))
    throw UsageError("--freq must be a positive centre frequency in MHz (got " +
                     number(p.centre_freq_mhz) + ")");
  if (!(p.bandwidth_mhz != 0) || !std::isfinite(p.bandwidth_mhz))
    throw UsageError("--bw must be non-zero (got " + number(p.bandwidth_mhz) + ")");
  if (!(p.centre_freq_mhz - std::fabs(p.bandwidth_mhz) / 2 > 0))
    throw UsageError("--freq " + number(p.centre_freq_mhz) + " with --bw " +
                     number(p.bandwidth_mhz) + " reaches below 0 MHz");
  if (p.nsamples < 1)
    throw UsageError("the observation has no samples (--tobs shorter than a sample, or --nsamples < 1)");
  if (p.real_samples && p.nsamples % 2 != 0)
    throw UsageError("--real-voltages needs an even number of samples (got " +
                     std::to_string(p.nsamples) + ")");
  if (p.nbits != 8 && p.nbits != 32)
    throw UsageError("--nbits " + std::to_string(p.nbits) + " is not supported for voltages; "
                     "supported: 8 (integers) and 32 (floats)");
  if (!std::isfinite(p.start.mjd())) throw UsageError("--tstart must be a finite MJD");
}

void validate_levels(const ArrayVoltagePlan& p) {
  if (!(p.sefd_jy > 0) || !std::isfinite(p.sefd_jy))
    throw UsageError("--sefd must be positive (got " + number(p.sefd_jy) + ")");
  if (!(p.gain > 0) || !std::isfinite(p.gain))
    throw UsageError("--gain must be positive (got " + number(p.gain) + ")");
  if (!(p.delay_interval_s > 0) || !(p.delay_interval_s <= 3600))
    throw UsageError("--delay-interval must be more than 0 and at most 3600 s (got " +
                     number(p.delay_interval_s) + ")");
  if (p.delay_taps < 2 || p.delay_taps > 64 || p.delay_taps % 2 != 0)
    throw UsageError("--delay-taps must be even, from 2 to 64 (got " +
                     std::to_string(p.delay_taps) + ")");
}

void validate_layout(const ArrayVoltagePlan& p) {
  if (p.layout.antennas.empty()) throw UsageError("the array has no antennas (give --layout FILE)");
  std::set<std::string> names;
  for (const Antenna& a : p.layout.antennas)
    if (!names.insert(a.name).second)
      throw UsageError("the layout names antenna '" + a.name + "' twice");
}

}  // namespace

double ArrayVoltagePlan::tsamp_s() const {
  const double width_hz = std::fabs(bandwidth_mhz) * 1e6;
  return real_samples ? 1.0 / (2 * width_hz) : nchan / width_hz;
}

double ArrayVoltagePlan::baseband_tsamp_s() const {
  return real_samples ? 2 * tsamp_s() : tsamp_s();
}

double ArrayVoltagePlan::channel_freq_mhz(int c) const {
  const int n = nchan_out();
  return centre_freq_mhz - bandwidth_mhz / 2 + (c + 0.5) * bandwidth_mhz / n;
}

void ArrayVoltagePlan::validate() const {
  validate_band(*this);
  validate_levels(*this);
  validate_layout(*this);
  const ObservationSpec obs = transient_observation();
  // The filterbank simulator's own checks apply to the pulsars and bursts as it would see them.
  SimulationPlan transients;
  transients.obs = obs;
  transients.obs.nbits = 32;
  for (const DirectedPulsar& p : pulsars) transients.pulsars.push_back(p.spec);
  for (const DirectedBurst& b : bursts) transients.bursts.push_back(b.spec);
  transients.validate();
}

ObservationSpec ArrayVoltagePlan::transient_observation() const {
  ObservationSpec obs;
  const int n = nchan_out();
  obs.nchans = n;
  obs.foff_mhz = -std::fabs(bandwidth_mhz) / n;
  obs.fch1_mhz = centre_freq_mhz + std::fabs(bandwidth_mhz) / 2 + obs.foff_mhz / 2;
  obs.tsamp_s = baseband_tsamp_s();
  obs.nsamples = real_samples ? nsamples / 2 : nsamples;
  obs.nbits = 32;
  obs.tstart_mjd = start.mjd();
  obs.source_name = source_name;
  return obs;
}

VoltageHeader ArrayVoltagePlan::header(const std::string& format) const {
  VoltageHeader h;
  h.format = format;
  h.telescope = layout.telescope.empty() ? "SIMULATED" : layout.telescope;
  h.instrument = "RAPT-SIMULATE";
  h.source = source_name;
  h.ra_deg = phase_centre.ra_rad * kRadToDeg;
  h.dec_deg = phase_centre.dec_rad * kRadToDeg;
  h.nant = layout.size();
  h.nchan = nchan_out();
  h.npol = npol;
  h.complex_samples = !real_samples;
  h.nbits = nbits;
  h.float_samples = nbits == 32;
  h.centre_freq_mhz = centre_freq_mhz;
  h.bandwidth_mhz = bandwidth_mhz;
  h.tsamp_s = tsamp_s();
  // Whole days apart from the seconds, so that the start keeps its precision.
  const double whole_days = std::floor(start.seconds / 86400.0);
  h.start_mjd_day = start.mjd_day + static_cast<int>(whole_days);
  h.start_mjd_seconds = start.seconds - whole_days * 86400.0;
  h.nsamples = nsamples;
  h.pol_basis = "LIN";
  h.array = layout;
  return h;
}

double noise_rms_for_gain(const ArrayVoltagePlan& plan, double gain) {
  return gain * std::sqrt(plan.real_samples ? plan.sefd_jy : plan.sefd_jy / 2);
}

double gain_for_noise_rms(const ArrayVoltagePlan& plan, double rms) {
  return rms / std::sqrt(plan.real_samples ? plan.sefd_jy : plan.sefd_jy / 2);
}

}  // namespace rapt
