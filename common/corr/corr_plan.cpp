#include "corr/corr_plan.hpp"

#include <algorithm>
#include <cmath>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/stream_options.hpp"
#include "cli/text_words.hpp"
#include "io/voltage_layout.hpp"

namespace rapt {
namespace {

constexpr double kDegToRad = 0.017453292519943295769236907684886;
constexpr double kPi = 3.14159265358979323846;

SkyDirection phase_centre_of(const CorrOptions& o, const SkyDirection& pointing) {
  if (!o.phase_centre) return pointing;
  const std::vector<std::string> w = words(*o.phase_centre);
  if (w.size() != 2)
    throw UsageError("--phase-centre takes 'RA DEC' (hh:mm:ss.s +dd:mm:ss.s, or degrees), not '" +
                     *o.phase_centre + "'");
  return {parse_ra_rad(w[0], "--phase-centre"), parse_dec_rad(w[1], "--phase-centre")};
}

// auto: int8 where it is exact and loses nothing (integer voltages of at most 8 bits correlated
// as they are, with no fringe rotation to apply); fp32 otherwise.
CorrPrecision choose_precision(const CorrOptions& o, const CorrPlan& p, std::string& reason) {
  const bool channelised = p.channeliser.has_value();
  const bool integers = !p.input.float_samples && p.input.nbits <= 8 && !channelised;
  switch (o.precision) {
    case PrecisionChoice::fp32: reason = "--precision fp32"; return CorrPrecision::fp32;
    case PrecisionChoice::fp16: reason = "--precision fp16"; return CorrPrecision::fp16;
    case PrecisionChoice::int8:
      if (channelised)
        throw UsageError("--precision int8 correlates integer voltages as they are; channelised "
                         "voltages are floats: use fp32 or fp16");
      if (p.input.float_samples)
        throw UsageError(o.input + ": holds float voltages; --precision int8 takes integers: "
                         "use fp32 or fp16");
      reason = "--precision int8";
      return CorrPrecision::int8;
    case PrecisionChoice::automatic:
      if (integers && !p.fringe->needed()) {
        reason = format_string("auto: %d-bit integer voltages, already fringe-stopped", p.input.nbits);
        return CorrPrecision::int8;
      }
      reason = integers ? "auto: the voltages need fringe rotation"
                        : channelised ? "auto: channelised voltages are floats"
                                      : format_string("auto: %d-bit %s voltages", p.input.nbits,
                                                      p.input.float_samples ? "float" : "integer");
      return CorrPrecision::fp32;
  }
  return CorrPrecision::fp32;
}

// Samples between updates of the voltages' fringe-stopping phases: --delay-interval, or as long
// as keeps every phase within 0.01 turn of the sky (at most 1 s).
int64_t update_samples(const CorrOptions& o, const CorrPlan& p, const UtcInstant& start,
                       const Messages& messages) {
  double interval_s = o.delay_interval_s;
  if (interval_s <= 0) {
    const double rate = p.fringe->max_station_rate_turns_per_s(start);
    interval_s = rate > 0 ? std::min(1.0, 0.01 / rate) : 1.0;
  }
  const int64_t n = std::max<int64_t>(1, int64_t(interval_s / p.voltages.tsamp_s));
  messages.detail(format_string("fringe-stopping phases updated every %lld samples (%.4g s)",
                                (long long)n, n * p.voltages.tsamp_s));
  return n;
}

// Warns when the residual delays are not small against a sample: phase-only fringe stopping
// then loses coherence across each channel (a baseline's amplitude falls as sinc(delay x width)).
void check_narrow_band(const CorrPlan& p, const UtcInstant& start, const CorrOptions& o,
                       const Messages& messages) {
  const double delay = p.fringe->max_baseline_delay_s(start);
  const double width_hz = std::fabs(p.voltages.bandwidth_mhz) * 1e6 / p.voltages.nchan;
  const double x = delay * width_hz;
  if (x <= 0.1) return;
  const double sinc = std::sin(kPi * std::min(x, 1.0)) / (kPi * std::min(x, 1.0));
  messages.warning(format_string(
      "%s: baseline delays reach %.3g us, %.2f of a %.3g kHz channel's sample: phase-only fringe "
      "stopping keeps down to %.0f%% of the longest baselines' amplitude (narrower channels: "
      "--nchan)", o.input.c_str(), delay * 1e6, x, width_hz / 1e3, 100 * sinc));
}

// int8 turns each integration's visibilities by the phases at its middle: warn when the fringes
// turn enough within an integration to smear the amplitude by more than 1%.
void check_smearing(const CorrPlan& p, const UtcInstant& start, const Messages& messages) {
  const double rate = p.fringe->max_fringe_rate_turns_per_s(start);
  const double tint = p.integration.nint * p.voltages.tsamp_s;
  const double amplitude = fringe_smearing_amplitude(rate, tint);
  if (amplitude >= 0.99) return;
  messages.warning(format_string(
      "--precision int8 stops the fringes per integration, and they turn by up to %.3g turns in "
      "%.4g s: the longest baselines keep %.1f%% of their amplitude (shorter --tint, or fp32)",
      rate * tint, tint, 100 * amplitude));
}

int64_t gulp_samples(const CorrOptions& o, const CorrPlan& p) {
  if (o.stream.gulp > 0) return o.stream.gulp;
  // A correlated sample holds as many floats as the input samples it is made of (critical
  // sampling), and the larger of the two counts.
  const double floats = double(std::max(p.voltages.block_values(1),
                                        p.input.block_values(1) * size_t(p.frame)));
  const double bytes_per_sample = floats * sizeof(float);
  const int64_t allowed = int64_t(o.stream.max_block_mib * 1048576.0 / bytes_per_sample);
  const int64_t n = stream_block_samples(allowed, p.voltages.nsamples, bytes_per_sample, 1);
  if (n < 1)
    throw UsageError(format_string("one sample of these voltages needs %.3g MiB; raise "
                                   "--max-block-mib", floats * sizeof(float) / 1048576.0));
  return n;
}

VisibilitySet output_metadata(const CorrPlan& p, const CorrOptions& o) {
  const VoltageHeader& v = p.voltages;
  VisibilitySet m;
  m.telescope = v.telescope.empty() ? p.layout.telescope : v.telescope;
  m.instrument = v.instrument;
  m.object = v.source;
  m.phase_centre_ra_rad = p.phase_centre.ra_rad;
  m.phase_centre_dec_rad = p.phase_centre.dec_rad;
  m.pointing = p.pointing;  // the header's, kept when --phase-centre moves the phase centre
  m.array = p.layout;
  std::vector<double> freqs;
  for (int c = 0; c < v.nchan; ++c) freqs.push_back(v.channel_freq_mhz(c) * 1e6);
  m.channel_freq_hz = averaged_channel_freqs(freqs, o.chan_avg);
  m.channel_width_hz = v.bandwidth_mhz * 1e6 / v.nchan * o.chan_avg;
  m.stokes = p.rows.products.stokes;
  return m;
}

}  // namespace

CorrPlan make_corr_plan(const CorrOptions& o, const VoltageHeader& input, const Messages& messages) {
  CorrPlan p;
  p.input = input;
  require_start_time(input, o.input, "the baselines' geometry needs one");
  if (input.npol != 1 && input.npol != 2)
    throw file_error(o.input, format_string("has %d polarisations; corr takes 1 or 2", input.npol));
  if (o.channelise || !input.complex_samples) {
    p.channeliser = setup_channeliser(input, o.pfb, o.input);
    p.voltages = p.channeliser->output;
    p.frame = p.channeliser->shape.frame();
  } else {
    if (o.pfb_options_given)
      throw UsageError("--ntaps, --window, --coeffs, --delays and --bandpass go with --nchan "
                       "(complex voltages are correlated as they are without it)");
    p.voltages = input;
  }
  const VoltageHeader& v = p.voltages;
  if (!(v.tsamp_s > 0) || !std::isfinite(v.tsamp_s))
    throw file_error(o.input, "the header gives no sample time");
  if (v.nchan % o.chan_avg)
    throw UsageError(format_string("--chan-avg %d does not divide the %d channels", o.chan_avg,
                                   v.nchan));
  p.layout = voltage_array_layout(o.layout_path, input, o.input, true);
  p.pointing = {input.ra_deg * kDegToRad, input.dec_deg * kDegToRad};
  p.phase_centre = phase_centre_of(o, p.pointing);
  // A file that names no pointing (its run has --phase-centre, and no --fringe-stopped: see
  // run_corr) is taken to point there.
  if (!input.pointing_known) p.pointing = p.phase_centre;
  std::vector<double> freqs_hz;
  for (int c = 0; c < v.nchan; ++c) freqs_hz.push_back(v.channel_freq_mhz(c) * 1e6);
  p.fringe.emplace(p.layout, p.phase_centre, freqs_hz, o.fringe_stopped ? &p.pointing : nullptr);

  p.engine.nchan = v.nchan;
  p.engine.nant = v.nant;
  p.engine.npol = v.npol;
  p.engine.precision = choose_precision(o, p, p.precision_reason);
  p.engine.validate();
  p.rotate_voltages = p.fringe->needed() && p.engine.precision != CorrPrecision::int8;
  p.rotate_visibilities = p.fringe->needed() && p.engine.precision == CorrPrecision::int8;

  const UtcInstant start{v.start_mjd_day, v.start_mjd_seconds};
  p.integration.nint = samples_per_integration(o.tint_s, o.nint, v.tsamp_s);
  const double tint_s = double(p.integration.nint) * v.tsamp_s;
  if (o.nint == 0 && std::fabs(tint_s - o.tint_s) > 0.01 * o.tint_s)
    messages.warning(format_string("--tint %g s is %lld samples of %g s here: integrations of %g s",
                                   o.tint_s, (long long)p.integration.nint, v.tsamp_s, tint_s));
  if (p.rotate_voltages) p.phase_update_samples = update_samples(o, p, start, messages);
  p.integration.gulp = gulp_samples(o, p);
  p.integration.validate();
  check_narrow_band(p, start, o, messages);
  if (p.rotate_visibilities) check_smearing(p, start, messages);

  p.rows.nant = v.nant;
  p.rows.nchan = v.nchan;
  p.rows.npol = v.npol;
  p.rows.chan_avg = o.chan_avg;
  p.rows.autos = o.autos;
  p.rows.products = correlation_products(v.npol, v.pol_basis == "CIRC");
  if (!o.autos && v.nant < 2)
    throw UsageError("--no-autos leaves nothing to write: the voltages have one station");
  p.metadata = output_metadata(p, o);
  return p;
}

}  // namespace rapt
