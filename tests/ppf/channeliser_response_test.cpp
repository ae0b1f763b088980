// What the channeliser does to signals, on the CPU engine through the whole chain a program
// uses (header, prototype, engine):
//   * a tone at the sky frequency channel_freq_mhz gives for output channel c lands in channel
//     c alone and does not turn (its phase stays put from sample to sample: the frequency is
//     exact), for real and complex input and both sideband signs; a tone a little above it
//     turns forwards (sky sense, rapt(7));
//   * a tone at the edge between two channels (scalloping) and its leakage into every other
//     channel match the filter's own frequency response, computed here in double precision
//     from the coefficients: |X| = A |H(phi - b/L)| (complex input), and the sum of the two
//     terms of the cosine for real input;
//   * white noise of unit variance gives every channel a mean power of 1 (unit noise gain)
//     within five standard errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "pfb_reference.hpp"
#include "ppf/channeliser.hpp"

namespace rapt {
namespace {

using test::filter_response;
using test::kTestPi;

struct Band {
  bool real;
  double bandwidth_mhz;  // signed
};

void PrintTo(const Band& b, std::ostream* os) {
  *os << (b.real ? "real " : "complex ") << b.bandwidth_mhz << " MHz";
}

// A small band: real samples of 16 MHz, or 4 complex channels of 2 MHz, at about 1.4 GHz.
VoltageHeader input_header(const Band& b) {
  VoltageHeader h;
  h.nant = 1;
  h.npol = 1;
  h.complex_samples = !b.real;
  h.nchan = b.real ? 1 : 4;
  h.nbits = 32;
  h.float_samples = true;
  h.centre_freq_mhz = 1400.0;
  h.bandwidth_mhz = b.bandwidth_mhz;
  const double width_hz = std::fabs(b.bandwidth_mhz) * 1e6 / h.nchan;
  h.tsamp_s = b.real ? 1.0 / (2 * width_hz) : 1.0 / width_hz;
  h.start_mjd_day = 60000;
  return h;
}

struct ToneSetup {
  VoltageHeader in, out;
  ChanneliserShape shape;
  std::vector<float> h;
};

ToneSetup make_setup(const Band& b, int nfine, int ntaps) {
  ToneSetup s;
  s.in = input_header(b);
  s.shape = channeliser_shape(s.in, nfine, ntaps);
  PfbDesign design;
  design.nfine = nfine;
  design.ntaps = ntaps;
  s.h = pfb_prototype(design, s.shape);
  s.out = channelised_header(s.in, s.shape);
  return s;
}

// A tone at sky frequency nu_mhz of amplitude `amp`, as the input carries it: real samples
// amp cos(2 pi f_r n tsamp + theta) with f_r measured from the band's lower edge (upper
// sideband) or down from its upper edge (inverted); complex channels amp exp(2 pi i f n tsamp)
// in the channel holding nu, f = nu - its centre (sky sense), zero elsewhere.
std::vector<float> tone_input(const ToneSetup& s, double nu_mhz, double amp, int64_t nsamples,
                              double theta = 0.3) {
  const VoltageHeader& h = s.in;
  std::vector<float> x(h.block_values(nsamples), 0.0f);
  const double bw = h.bandwidth_mhz;
  if (s.shape.real_input) {
    const double low = h.centre_freq_mhz - std::fabs(bw) / 2, high = low + std::fabs(bw);
    const double f_r_hz = (bw > 0 ? nu_mhz - low : high - nu_mhz) * 1e6;
    for (int64_t n = 0; n < nsamples; ++n)
      x[size_t(n)] = float(amp * std::cos(2 * kTestPi * std::fmod(f_r_hz * n * h.tsamp_s, 1.0) + theta));
    return x;
  }
  const double width = bw / h.nchan;
  const int c = int(std::floor((nu_mhz - (h.centre_freq_mhz - bw / 2)) / width));
  const double f_hz = (nu_mhz - h.channel_freq_mhz(c)) * 1e6;
  for (int64_t n = 0; n < nsamples; ++n) {
    const double turns = std::fmod(f_hz * n * h.tsamp_s, 1.0);
    x[(size_t(c) * nsamples + n) * 2] = float(amp * std::cos(2 * kTestPi * turns + theta));
    x[(size_t(c) * nsamples + n) * 2 + 1] = float(amp * std::sin(2 * kTestPi * turns + theta));
  }
  return x;
}

std::vector<float> channelise(const ToneSetup& s, const std::vector<float>& x, int64_t nframes) {
  std::vector<float> out;
  make_cpu_channeliser(s.shape, s.h, {}, 2)->process(x.data(), nframes * s.shape.frame(), out);
  return out;
}

std::complex<double> value_at(const std::vector<float>& out, int64_t nframes, int ch, int64_t t) {
  const size_t at = (size_t(ch) * nframes + t) * 2;  // one antenna, one polarisation
  return {out[at], out[at + 1]};
}

class ChanneliserTone : public ::testing::TestWithParam<Band> {};

TEST_P(ChanneliserTone, AtAChannelCentreLandsInThatChannelAndStandsStill) {
  const ToneSetup s = make_setup(GetParam(), 16, 8);
  const int64_t nframes = 64;
  const int nchan_out = s.shape.nchan_out();
  for (int target : {1, 5, 16 + 9, nchan_out - 3}) {
    if (target >= nchan_out) continue;
    const double nu = s.out.channel_freq_mhz(target);
    const auto out = channelise(s, tone_input(s, nu, 10.0, nframes * s.shape.frame()), nframes);
    double total = 0, in_target = 0;
    for (int ch = 0; ch < nchan_out; ++ch)
      for (int64_t t = s.shape.ntaps; t < nframes; ++t) {
        const double p = std::norm(value_at(out, nframes, ch, t));
        total += p;
        if (ch == target) in_target += p;
      }
    EXPECT_GT(in_target / total, 0.9999) << "channel " << target << " at " << nu << " MHz";
    for (int64_t t = s.shape.ntaps + 1; t < nframes; ++t) {
      const std::complex<double> now = value_at(out, nframes, target, t);
      const std::complex<double> before = value_at(out, nframes, target, t - 1);
      EXPECT_LT(std::abs(now - before), 1e-4 * std::abs(before)) << "channel " << target << " turns";
    }
  }
}

TEST_P(ChanneliserTone, AboveTheCentreTurnsForwards) {
  const ToneSetup s = make_setup(GetParam(), 16, 8);
  const int64_t nframes = 48;
  const int target = 6;
  const double width_mhz = std::fabs(s.out.bandwidth_mhz) / s.out.nchan;
  const double delta_mhz = 0.1 * width_mhz;  // sky frequency above the channel's centre
  const auto out = channelise(
      s, tone_input(s, s.out.channel_freq_mhz(target) + delta_mhz, 10.0, nframes * s.shape.frame()),
      nframes);
  const double want = 2 * kTestPi * delta_mhz * 1e6 * s.out.tsamp_s;  // radians per sample
  for (int64_t t = s.shape.ntaps + 1; t < nframes; ++t) {
    const double turn = std::arg(value_at(out, nframes, target, t) *
                                 std::conj(value_at(out, nframes, target, t - 1)));
    EXPECT_NEAR(turn, want, 1e-4) << "sample " << t;
  }
}

// A tone halfway between channels `edge` and `edge` + 1 (and one at a third of a channel):
// every channel against the filter's response.
TEST_P(ChanneliserTone, ScallopingAndLeakageFollowTheFilterResponse) {
  const ToneSetup s = make_setup(GetParam(), 16, 8);
  const int64_t nframes = 40;
  const int L = s.shape.frame(), P = s.shape.nfine, M = s.shape.ntaps;
  const double amp = 10.0, theta = 0.3;
  for (double offset : {0.5, 1.0 / 3}) {
    const int edge = 16 + 4;  // complex input: inside the second coarse channel
    const int chan = s.shape.real_input ? 4 : edge;
    const double nu = s.out.channel_freq_mhz(chan) +
                      offset * (s.out.channel_freq_mhz(chan + 1) - s.out.channel_freq_mhz(chan));
    const auto out = channelise(s, tone_input(s, nu, amp, nframes * L, theta), nframes);
    // The tone in cycles per input sample as the filterbank sees it, phi, and each output
    // channel's bin b (signed, in the same units: b / L).
    const double bw = s.in.bandwidth_mhz;
    double phi = 0;
    int first_channel = 0;
    if (s.shape.real_input) {
      const double low = s.in.centre_freq_mhz - std::fabs(bw) / 2;
      phi = (bw > 0 ? nu - low : low + std::fabs(bw) - nu) * 1e6 * s.in.tsamp_s;
    } else {
      const int c = chan / P;
      first_channel = c * P;
      phi = (nu - s.in.channel_freq_mhz(c)) * 1e6 * s.in.tsamp_s;
    }
    const double peak = amp * std::abs(filter_response(s.h, 0.0));
    double largest = 0;
    for (int j = 0; j < P; ++j) {
      const int ch = first_channel + j;
      // Signed bin: real input j; complex input j - P/2 upwards, P/2 - j for an inverted band.
      const double b = s.shape.real_input ? j : (bw > 0 ? j - P / 2 : P / 2 - j);
      for (int64_t t = M - 1; t < nframes; ++t) {
        const double n0 = double(t - M + 1) * L;
        std::complex<double> want;
        if (s.shape.real_input) {
          // amp cos(2 pi phi n + theta) = amp/2 (e^{i(..)} + e^{-i(..)}); inverted bands are
          // conjugated by the engine, which leaves the magnitude alone.
          want = amp / 2 * (std::polar(1.0, theta + 2 * kTestPi * phi * n0) * filter_response(s.h, phi - b / L) +
                            std::polar(1.0, -theta - 2 * kTestPi * phi * n0) * filter_response(s.h, -phi - b / L));
        } else {
          want = amp * filter_response(s.h, phi - b / L);
        }
        const double got = std::abs(value_at(out, nframes, ch, t));
        largest = std::max(largest, std::fabs(got - std::abs(want)));
      }
    }
    EXPECT_LT(largest, 2e-6 * peak) << "tone at " << offset << " of a channel";
    if (offset == 0.5) {
      // The scalloping of a sinc one channel wide: about half the amplitude at the edge (a real
      // cosine puts half its amplitude in the positive frequency).
      const double scallop = std::abs(value_at(out, nframes, chan, nframes - 1)) /
                             (peak * (s.shape.real_input ? 0.5 : 1.0));
      EXPECT_NEAR(scallop, 0.5, 0.05);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ChanneliserBands, ChanneliserTone,
                         ::testing::Values(Band{true, 16.0}, Band{true, -16.0}, Band{false, 8.0},
                                           Band{false, -8.0}),
                         [](const auto& info) {
                           return std::string(info.param.real ? "Real" : "Complex") +
                                  (info.param.bandwidth_mhz > 0 ? "Upper" : "Inverted");
                         });

// White noise: every channel's mean power is 1 (the prototype's unit noise gain) within five
// standard errors; |X|^2 of a complex Gaussian has the variance of its mean squared, so the
// standard error of a mean over N samples is 1/sqrt(N) (real input's bin 0 is real: sqrt(2/N)).
TEST(ChanneliserNoise, WhiteNoiseGivesAFlatSpectrumOfUnitPower) {
  for (bool real : {true, false}) {
    ChanneliserShape s;
    s.real_input = real;
    s.nchan_in = real ? 1 : 2;
    s.nant = 1;
    s.npol = 2;
    s.nfine = 32;
    s.ntaps = 8;
    PfbDesign design;
    design.nfine = 32;
    design.ntaps = 8;
    design.window = "blackman-harris";
    const std::vector<float> h = pfb_prototype(design, s);
    const int64_t nframes = 3000;
    // Unit variance per sample: real samples 1, complex samples 1/2 per part.
    std::vector<float> x = test::noise_input(s, nframes * s.frame(), 99);
    if (!real)
      for (float& v : x) v *= float(std::sqrt(0.5));
    std::vector<float> out;
    make_cpu_channeliser(s, h, {}, 2)->process(x.data(), nframes * s.frame(), out);
    const int64_t used = nframes - s.ntaps;  // past the filter's start
    for (int ch = 0; ch < s.nchan_out(); ++ch)
      for (int p = 0; p < s.npol; ++p) {
        double sum = 0;
        for (int64_t t = s.ntaps; t < nframes; ++t) {
          const size_t at = ((size_t(ch) * nframes + t) * s.npol + p) * 2;
          sum += double(out[at]) * out[at] + double(out[at + 1]) * out[at + 1];
        }
        const double mean = sum / double(used);
        const double error = (real && ch == 0 ? std::sqrt(2.0) : 1.0) / std::sqrt(double(used));
        EXPECT_NEAR(mean, 1.0, 5 * error) << (real ? "real" : "complex") << " channel " << ch
                                          << " pol " << p;
      }
  }
}

}  // namespace
}  // namespace rapt
