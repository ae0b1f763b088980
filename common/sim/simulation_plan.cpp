#include "sim/simulation_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/errors.hpp"
#include "dedisp/dedisp_plan.hpp"

namespace rapt {

namespace {

constexpr double kSpeedOfLight_ms = 299792458.0;
// Times and durations beyond this are refused: sample indices stay far inside int64.
constexpr double kLongestTime_s = 1e7;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// Throws `--option "text": problem` unless `ok`.
void require(bool ok, const char* option, const std::string& text, const std::string& problem) {
  if (!ok) throw UsageError(std::string(option) + " \"" + text + "\": " + problem);
}

void validate_observation(const ObservationSpec& obs) {
  if (obs.nchans < 1 || obs.nchans > (1 << 20))
    throw UsageError("--nchans must be between 1 and 1048576 (got " + std::to_string(obs.nchans) + ")");
  const int n = obs.nbits;
  if (n != 1 && n != 2 && n != 4 && n != 8 && n != 16 && n != 32)
    throw UsageError("--nbits " + std::to_string(n) + " is not supported; supported: 1, 2, 4, 8, 16, 32");
  if (static_cast<int64_t>(obs.nchans) * n % 8 != 0)
    throw UsageError("--nchans " + std::to_string(obs.nchans) + " with --nbits " + std::to_string(n) +
                     ": a spectrum must fill whole bytes (nchans * nbits a multiple of 8)");
  if (!(obs.fch1_mhz > 0) || !std::isfinite(obs.fch1_mhz))
    throw UsageError("--fch1 must be a positive frequency in MHz (got " + number(obs.fch1_mhz) + ")");
  if (!(obs.foff_mhz < 0) || !std::isfinite(obs.foff_mhz))
    throw UsageError("the channel width (--foff or --bw) must be non-zero (got " + number(obs.foff_mhz) + ")");
  if (!(obs.lowest_freq_mhz() > 0))
    throw UsageError("--fch1 " + number(obs.fch1_mhz) + " with " + std::to_string(obs.nchans) +
                     " channels of " + number(-obs.foff_mhz) + " MHz reaches below 0 MHz");
  if (!(obs.tsamp_s >= 1e-9 && obs.tsamp_s <= 1e3))
    throw UsageError("--tsamp must be between 1e-9 and 1000 s (got " + number(obs.tsamp_s) + ")");
  if (obs.nsamples < 1)
    throw UsageError("the observation has no samples (--tobs shorter than --tsamp, or --nsamples < 1)");
  if (!std::isfinite(obs.tstart_mjd))
    throw UsageError("--tstart must be a finite MJD");
}

void validate_noise(const NoiseSpec& noise, const RadiometerSpec& radiometer) {
  if (!(noise.rms > 0) || !std::isfinite(noise.rms))
    throw UsageError("--noise-rms must be positive (got " + number(noise.rms) +
                     "); use --no-noise for data without noise");
  if (!std::isfinite(noise.mean)) throw UsageError("--noise-mean must be finite");
  if (!(radiometer.sefd_jy > 0) || !std::isfinite(radiometer.sefd_jy))
    throw UsageError("--sefd must be positive (got " + number(radiometer.sefd_jy) + ")");
  if (radiometer.npol != 1 && radiometer.npol != 2)
    throw UsageError("--npol must be 1 or 2 (got " + std::to_string(radiometer.npol) + ")");
}

void validate_reference(const char* option, const std::string& text, double ref_freq_mhz,
                        double index) {
  require(ref_freq_mhz >= 0 && std::isfinite(ref_freq_mhz), option, text,
          "fref must be a positive frequency in MHz");
  require(std::isfinite(index), option, text, "index must be finite");
}

void validate_pulsar(const PulsarSpec& p, const ObservationSpec& obs) {
  const char* o = "--pulsar";
  require(p.period_s > 0 && std::isfinite(p.period_s), o, p.text, "P must be positive");
  require(p.period_s >= 2 * obs.tsamp_s, o, p.text,
          "P=" + number(p.period_s) + " is shorter than two samples (tsamp " + number(obs.tsamp_s) + " s)");
  require(p.dm >= 0 && std::isfinite(p.dm), o, p.text, "DM must be >= 0");
  require(p.snr.has_value() != p.amp.has_value(), o, p.text, "give exactly one of snr= and amp=");
  require(!p.snr || (*p.snr > 0 && std::isfinite(*p.snr)), o, p.text, "snr must be positive");
  require(!p.amp || (*p.amp > 0 && std::isfinite(*p.amp)), o, p.text, "amp must be positive");
  require(!(p.pdot && p.accel_ms2), o, p.text, "give pdot= or accel=, not both");
  require(std::isfinite(p.total_pdot()), o, p.text, "pdot and accel must be finite");
  require(p.duty > 0 && p.duty <= 0.5, o, p.text, "duty must be in (0, 0.5]");
  require(p.duty >= 1e-5, o, p.text, "duty must be at least 1e-5");
  validate_reference(o, p.text, p.ref_freq_mhz, p.spectral_index);
  require(std::isfinite(p.phase), o, p.text, "phase must be finite");
  require((p.porb_s > 0) == (p.asini_lts > 0), o, p.text,
          "a binary orbit needs both porb= and asini= (positive)");
  require(p.porb_s >= 0 && p.asini_lts >= 0 && std::isfinite(p.t0_s), o, p.text,
          "porb and asini must be >= 0 and t0 finite");
  if (p.porb_s > 0)
    require(2 * M_PI * p.asini_lts / p.porb_s < 0.1, o, p.text,
            "orbital velocity 2 pi asini / porb must stay below 0.1 c");
  // The period must stay close to P over the observation (the spin frequency stays positive).
  require(std::fabs(p.total_pdot()) * obs.duration_s() < 0.5 * p.period_s, o, p.text,
          "pdot (or accel) changes the period too much over the observation");
}

void validate_burst(const BurstSpec& b, const ObservationSpec& obs) {
  const char* o = "--burst";
  require(std::fabs(b.t_s) <= kLongestTime_s, o, b.text, "t must be within 1e7 s of the start");
  require(b.dm >= 0 && std::isfinite(b.dm), o, b.text, "DM must be >= 0");
  require(b.width_s > 0 && b.width_s <= kLongestTime_s, o, b.text, "width must be positive");
  const int given = b.snr.has_value() + b.amp.has_value() + b.fluence_jyms.has_value();
  require(given == 1, o, b.text, "give exactly one of snr=, amp= and fluence=");
  for (const auto& value : {b.snr, b.amp, b.fluence_jyms})
    require(!value || (*value > 0 && std::isfinite(*value)), o, b.text,
            "snr, amp and fluence must be positive");
  require(b.scatter_s >= 0 && b.scatter_s <= kLongestTime_s, o, b.text, "scatter must be >= 0");
  validate_reference(o, b.text, b.ref_freq_mhz, b.spectral_index);
  (void)obs;
}

}  // namespace

NoiseLevels default_noise_levels(int nbits) {
  switch (nbits) {
    case 1: return {0.5, 0.5};      // one threshold at the mean
    case 2: return {1.5, 1.0};      // thresholds at -1, 0, +1 sigma
    case 4: return {7.5, 2.0};      // +-3.75 sigma before clipping
    case 16: return {28672.0, 4096.0};
    default: return {120.0, 16.0};  // 8 and 32 bits: 7.5 sigma below, 8.4 above
  }
}

double RadiometerSpec::sigma_jy(const ObservationSpec& obs) const {
  return sefd_jy / std::sqrt(npol * std::fabs(obs.foff_mhz) * 1e6 * obs.tsamp_s);
}

double PulsarSpec::total_pdot() const {
  if (pdot) return *pdot;
  if (accel_ms2) return period_s * *accel_ms2 / kSpeedOfLight_ms;
  return 0.0;
}

int nearest_channel(const ObservationSpec& obs, double freq_mhz) {
  const double position = (freq_mhz - obs.fch1_mhz) / obs.foff_mhz;
  if (!(position > -0.5 && position < obs.nchans - 0.5)) return -1;
  return static_cast<int>(std::lround(position));
}

std::vector<double> channel_delays_s(const ObservationSpec& obs, double dm) {
  std::vector<double> delays(static_cast<size_t>(obs.nchans));
  const double top = 1.0 / (obs.fch1_mhz * obs.fch1_mhz);
  for (int c = 0; c < obs.nchans; ++c) {
    const double f = obs.channel_freq_mhz(c);
    delays[c] = kDispersionConstantPresto * dm * (1.0 / (f * f) - top);
  }
  return delays;
}

std::vector<double> spectral_weights(const ObservationSpec& obs, double index, double ref_freq_mhz) {
  const double ref = ref_freq_mhz > 0 ? ref_freq_mhz : obs.fch1_mhz;
  std::vector<double> weights(static_cast<size_t>(obs.nchans));
  for (int c = 0; c < obs.nchans; ++c) weights[c] = std::pow(obs.channel_freq_mhz(c) / ref, index);
  return weights;
}

void SimulationPlan::validate() const {
  validate_observation(obs);
  validate_noise(noise, radiometer);
  for (const PulsarSpec& p : pulsars) validate_pulsar(p, obs);
  for (const BurstSpec& b : bursts) validate_burst(b, obs);
  for (const RfiLineSpec& line : rfi_lines) {
    require(nearest_channel(obs, line.freq_mhz) >= 0, "--rfi-line", line.text,
            "freq=" + number(line.freq_mhz) + " MHz is outside the band (" +
                number(obs.lowest_freq_mhz()) + " to " + number(obs.fch1_mhz) + " MHz)");
    require(std::isfinite(line.amp), "--rfi-line", line.text, "amp must be finite");
    require(line.period_s >= 0 && std::isfinite(line.period_s), "--rfi-line", line.text,
            "period must be >= 0");
  }
  for (const RfiImpulseSpec& impulse : rfi_impulses) {
    require(std::fabs(impulse.t_s) <= kLongestTime_s, "--rfi-impulse", impulse.text,
            "t must be within 1e7 s of the start");
    require(std::isfinite(impulse.amp), "--rfi-impulse", impulse.text, "amp must be finite");
    require(impulse.width_s >= 0 && impulse.width_s <= kLongestTime_s, "--rfi-impulse",
            impulse.text, "width must be >= 0");
  }
}

}  // namespace rapt

namespace rapt {

std::vector<std::string> SimulationPlan::warnings() const {
  std::vector<std::string> lines;
  const double length_s = obs.duration_s();
  const auto quoted = [](const char* option, const std::string& text) {
    return std::string(option) + " \"" + text + "\": ";
  };
  for (const BurstSpec& b : bursts) {
    const std::vector<double> delays = channel_delays_s(obs, b.dm);
    if (b.t_s >= length_s) {
      lines.push_back(quoted("--burst", b.text) + "arrives after the end of the observation (" +
                      number(length_s) + " s)");
    } else if (b.t_s + delays.back() + b.width_s < 0) {
      lines.push_back(quoted("--burst", b.text) + "has passed before the observation starts");
    } else if (b.t_s + delays.back() >= length_s) {
      int c = obs.nchans - 1;
      while (c > 0 && b.t_s + delays[c] >= length_s) --c;
      lines.push_back(quoted("--burst", b.text) +
                      "the sweep ends after the observation; channels below " +
                      number(obs.channel_freq_mhz(c)) + " MHz miss the pulse");
    }
  }
  for (const PulsarSpec& p : pulsars)
    if (p.period_s > length_s)
      lines.push_back(quoted("--pulsar", p.text) + "the period is longer than the observation (" +
                      number(length_s) + " s)");
  for (const RfiImpulseSpec& impulse : rfi_impulses)
    if (impulse.t_s >= length_s || impulse.t_s + std::max(impulse.width_s, obs.tsamp_s) <= 0)
      lines.push_back(quoted("--rfi-impulse", impulse.text) + "lies outside the observation (" +
                      number(length_s) + " s)");
  // The header writer keeps what PRESTO's 80-byte buffers hold.
  if (obs.source_name.size() > 79)
    lines.push_back("--source-name has " + std::to_string(obs.source_name.size()) +
                    " characters; the header keeps the first 79, as SIGPROC and PRESTO read them");
  return lines;
}

}  // namespace rapt
