// What the channeliser's output is: its shape from the input's header, which FFT bin each fine
// channel takes, and the header that describes the output exactly (frequencies and times).
#include <cmath>
#include <string>

#include "cli/errors.hpp"
#include "io/voltage_text.hpp"
#include "ppf/channeliser.hpp"

namespace rapt {

void ChanneliserShape::validate() const {
  auto at_least_one = [](int value, const char* what) {
    if (value < 1) throw UsageError(std::string(what) + " must be at least 1 (got " +
                                    std::to_string(value) + ")");
  };
  at_least_one(nchan_in, "the number of input channels");
  at_least_one(nant, "the number of antennas");
  at_least_one(nfine, "--nchan");
  at_least_one(ntaps, "--ntaps");
  if (npol != 1 && npol != 2)
    throw UsageError("the channeliser takes 1 or 2 polarisations (got " + std::to_string(npol) + ")");
  if (nfine > kMaxPfbChannels)
    throw UsageError("--nchan must be at most " + std::to_string(kMaxPfbChannels));
  if (ntaps > kMaxPfbTaps)
    throw UsageError("--ntaps must be at most " + std::to_string(kMaxPfbTaps));
  if (int64_t(ntaps) * frame() > kMaxPfbCoefficients)
    throw UsageError("--ntaps x the frame (" + std::to_string(frame()) + " samples) is more than " +
                     std::to_string(kMaxPfbCoefficients) + " coefficients");
  if (int64_t(nchan_in) * nfine > (int64_t(1) << 30))
    throw UsageError("--nchan x the input channels is more than 2^30 output channels");
}

ChanneliserShape channeliser_shape(const VoltageHeader& input, int nfine, int ntaps) {
  ChanneliserShape s;
  s.nchan_in = input.nchan;
  s.nant = input.nant;
  s.npol = input.npol;
  s.real_input = !input.complex_samples;
  s.inverted = input.bandwidth_mhz < 0;
  s.nfine = nfine;
  s.ntaps = ntaps;
  return s;
}

int pfb_fine_channel_bin(const ChanneliserShape& s, int j) {
  if (s.real_input) return j;
  const int half = s.nfine / 2;
  return s.inverted ? ((half - j) % s.nfine + s.nfine) % s.nfine : (j - half + s.nfine) % s.nfine;
}

std::complex<double> correction_factor(const ChanneliserCorrections& c, int ant, int chan_out) {
  std::complex<double> factor = 1.0;
  if (!c.bandpass_gain.empty()) factor = c.bandpass_gain[size_t(chan_out)];
  if (!c.delay_s.empty() && c.delay_s[size_t(ant)] != 0) {
    // The phase in turns, reduced before the multiplication by 2 pi keeps its precision
    // (nu tau reaches thousands of turns).
    double turns = c.fine_freq_hz[size_t(chan_out)] * c.delay_s[size_t(ant)];
    turns -= std::floor(turns);
    factor *= std::polar(1.0, 2 * M_PI * turns);
  }
  return factor;
}

// Frequencies: a real band's bin j lies at j |B| / nfine from its edge (B = the input
// channel's signed width), a complex channel's fine channel j at (j - nfine/2) B / nfine from
// its centre (nfine/2 rounded down). Both are channel_freq_mhz of a band whose centre moves by
// -B / (2 nfine) (for complex input with odd nfine: not at all).
// Time: output sample t is centred on input sample (t - ntaps + 1) L + (ntaps L - 1) / 2.
VoltageHeader channelised_header(const VoltageHeader& input, const ChanneliserShape& shape) {
  shape.validate();
  const int frame = shape.frame();
  VoltageHeader out = input;
  out.format = "PSRDADA";
  out.nchan = shape.nchan_out();
  out.complex_samples = true;
  out.nbits = 32;
  out.float_samples = true;
  const double input_width_mhz = input.bandwidth_mhz / input.nchan;
  const bool centred = !shape.real_input && shape.nfine % 2 == 1;
  if (!centred) out.centre_freq_mhz = input.centre_freq_mhz - input_width_mhz / (2.0 * shape.nfine);
  out.tsamp_s = input.tsamp_s * frame;
  const double offset_samples =
      double(1 - shape.ntaps) * frame + (double(shape.ntaps) * frame - 1) / 2.0;
  // A start not known (MJD 0) stays unknown rather than moving to a day before it.
  if (input.start_known()) {
    out.start_mjd_seconds = input.start_mjd_seconds + offset_samples * input.tsamp_s;
    normalise_mjd(out.start_mjd_day, out.start_mjd_seconds);
  }
  out.nsamples = input.nsamples >= 0 ? input.nsamples / frame : -1;
  return out;
}

}  // namespace rapt
