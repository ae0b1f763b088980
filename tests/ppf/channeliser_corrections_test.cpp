// The corrections: a delayed signal, channelised and corrected by its delay, equals the
// undelayed one in every channel (complex and real input, both sideband signs); a bandpass
// gain scales its channel and nothing else; the delays and bandpass files and their errors;
// and the options (add_pfb_options / pfb_options_from / setup_channeliser) as corr uses them.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/program.hpp"
#include "pfb_reference.hpp"
#include "ppf/channeliser.hpp"
#include "ppf/pfb_options.hpp"

namespace rapt {
namespace {

using test::kTestPi;

class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/rapt_pfb_corr_XXXXXX";
    const int fd = mkstemp(name);
    path_ = name;
    std::FILE* f = fdopen(fd, "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

VoltageHeader two_antennas(bool real, double bw_mhz) {
  VoltageHeader h;
  h.nant = 2;
  h.npol = 1;
  h.nchan = real ? 1 : 2;
  h.complex_samples = !real;
  h.nbits = 32;
  h.float_samples = true;
  h.centre_freq_mhz = 1400.0;
  h.bandwidth_mhz = bw_mhz;
  const double width_hz = std::fabs(bw_mhz) * 1e6 / h.nchan;
  h.tsamp_s = real ? 1 / (2 * width_hz) : 1 / width_hz;
  h.array.antennas = {Antenna{"north", {0, 0, 0}, 0}, Antenna{"south", {0, 0, 0}, 0}};
  return h;
}

// Antenna 0 sees tones at sky frequencies `sky_mhz` as they are; antenna 1 sees them delayed
// by tau, each with the phase a delay gives its sky frequency (exp(-2 pi i nu tau), through the
// real band's mixing for real samples: an inverted band flips that phase's sign in the samples).
std::vector<float> delayed_tones(const VoltageHeader& h, const std::vector<double>& sky_mhz,
                                 double tau, int64_t nsamples) {
  std::vector<float> x(h.block_values(nsamples), 0.0f);
  const double bw = h.bandwidth_mhz;
  for (int a = 0; a < 2; ++a)
    for (double nu_mhz : sky_mhz) {
      const double lag_turns = a == 1 ? nu_mhz * 1e6 * tau : 0.0;  // nu tau
      if (!h.complex_samples) {
        const double low = h.centre_freq_mhz - std::fabs(bw) / 2;
        const double f_r = (bw > 0 ? nu_mhz - low : low + std::fabs(bw) - nu_mhz) * 1e6;
        const double sign = bw > 0 ? -1 : +1;
        for (int64_t n = 0; n < nsamples; ++n)
          x[size_t(a) * nsamples + n] += float(std::cos(
              2 * kTestPi * (std::fmod(f_r * n * h.tsamp_s, 1.0) + sign * std::fmod(lag_turns, 1.0))));
        continue;
      }
      const double width = bw / h.nchan;
      const int c = int(std::floor((nu_mhz - (h.centre_freq_mhz - bw / 2)) / width));
      const double f = (nu_mhz - h.channel_freq_mhz(c)) * 1e6;
      for (int64_t n = 0; n < nsamples; ++n) {
        const double turns = std::fmod(f * n * h.tsamp_s, 1.0) - std::fmod(lag_turns, 1.0);
        float* at = x.data() + ((size_t(c) * 2 + a) * nsamples + n) * 2;
        at[0] += float(std::cos(2 * kTestPi * turns));
        at[1] += float(std::sin(2 * kTestPi * turns));
      }
    }
  return x;
}

TEST(ChanneliserCorrections, ADelayCorrectedIsNoDelayAtAll) {
  const double tau = 3.3e-7;  // 0.33 us: under a fine sample, many turns at 1.4 GHz
  for (bool real : {true, false})
    for (double bw : {8.0, -8.0}) {
      const VoltageHeader in = two_antennas(real, bw);
      PfbOptions options;
      options.design.nfine = 32;
      options.design.ntaps = 8;
      const TempFile delays(format_string("# station delay_s\nsouth %.17g\n", tau));
      options.delays_path = delays.path();
      const ChanneliserSetup setup = setup_channeliser(in, options, "in");
      ASSERT_EQ(setup.corrections.delay_s, (std::vector<double>{0.0, tau}));
      const int64_t nframes = 40;
      // Tones at fine channels' centres: the correction is then exact (a tone off the centre
      // keeps the residual phase of its offset times tau).
      const int n = setup.shape.nchan_out();
      std::vector<double> sky;
      for (int ch : {n / 5, n / 2 + 3, 4 * n / 5}) sky.push_back(setup.output.channel_freq_mhz(ch));
      const std::vector<float> x = delayed_tones(in, sky, tau, nframes * setup.shape.frame());
      std::vector<float> out;
      make_channeliser(setup, DeviceChoice{}, 2)->process(x.data(), nframes * setup.shape.frame(), out);
      double largest = 0, peak = 0;
      for (int ch = 0; ch < setup.shape.nchan_out(); ++ch)
        for (int64_t t = 8; t < nframes; ++t) {
          const size_t a0 = ((size_t(ch) * 2 + 0) * nframes + t) * 2;
          const size_t a1 = ((size_t(ch) * 2 + 1) * nframes + t) * 2;
          const std::complex<double> v0(out[a0], out[a0 + 1]), v1(out[a1], out[a1 + 1]);
          largest = std::max(largest, std::abs(v1 - v0));
          peak = std::max(peak, std::abs(v0));
        }
      // Left over: float rounding, and for real input the tones' images at negative frequency
      // (turned the other way by the delay), far down the filter's stopband.
      EXPECT_LT(largest, 1e-3 * peak) << (real ? "real" : "complex") << " bw " << bw;
      // Without the correction the antennas differ by whole turns' worth of phase.
      PfbOptions plain = options;
      plain.delays_path.clear();
      const ChanneliserSetup uncorrected = setup_channeliser(in, plain, "in");
      make_channeliser(uncorrected, DeviceChoice{}, 2)->process(x.data(), nframes * setup.shape.frame(), out);
      double differs = 0;
      for (int ch = 0; ch < setup.shape.nchan_out(); ++ch) {
        const size_t a0 = ((size_t(ch) * 2 + 0) * nframes + nframes - 1) * 2;
        const size_t a1 = ((size_t(ch) * 2 + 1) * nframes + nframes - 1) * 2;
        differs = std::max(differs, std::abs(std::complex<double>(out[a1] - out[a0], out[a1 + 1] - out[a0 + 1])));
      }
      EXPECT_GT(differs, 0.5 * peak);
    }
}

// Exactly: identical antennas, a delay and gains: antenna 1 = antenna 0 x gain x exp(+2 pi i nu tau).
TEST(ChanneliserCorrections, FactorsAreGainTimesTheDelayPhase) {
  ChanneliserShape s;
  s.nchan_in = 2;
  s.nant = 2;
  s.npol = 2;
  s.nfine = 8;
  s.ntaps = 4;
  PfbDesign design;
  design.nfine = 8;
  design.ntaps = 4;
  const std::vector<float> h = pfb_prototype(design, s);
  ChanneliserCorrections c;
  c.delay_s = {0.0, 1.234567e-6};
  for (int ch = 0; ch < 16; ++ch) {
    c.fine_freq_hz.push_back(1.1e9 + 1e5 * ch);
    c.bandpass_gain.push_back(ch == 3 ? 0.0f : 1.0f + 0.125f * ch);
  }
  const int64_t nframes = 12, nsamples = nframes * s.frame();
  std::vector<float> x = test::noise_input(s, nsamples, 5);
  for (int cin = 0; cin < 2; ++cin)  // antenna 1 = antenna 0
    std::copy_n(x.begin() + long((cin * 2) * nsamples * 4), nsamples * 4,
                x.begin() + long((cin * 2 + 1) * nsamples * 4));
  std::vector<float> plain, corrected;
  make_cpu_channeliser(s, h, {}, 1)->process(x.data(), nsamples, plain);
  make_cpu_channeliser(s, h, c, 1)->process(x.data(), nsamples, corrected);
  for (int ch = 0; ch < 16; ++ch)
    for (int a = 0; a < 2; ++a) {
      const std::complex<double> factor =
          double(c.bandpass_gain[size_t(ch)]) *
          std::polar(1.0, 2 * kTestPi * c.fine_freq_hz[size_t(ch)] * c.delay_s[size_t(a)]);
      EXPECT_NEAR(std::abs(correction_factor(c, a, ch) - factor), 0.0, 1e-9);
      for (int64_t i = 0; i < nframes * 2; ++i) {
        const size_t at = ((size_t(ch) * 2 + a) * nframes * 2 + i) * 2;
        const std::complex<double> want = std::complex<double>(plain[at], plain[at + 1]) * factor;
        EXPECT_NEAR(corrected[at], want.real(), 1e-5) << ch << " " << a;
        EXPECT_NEAR(corrected[at + 1], want.imag(), 1e-5) << ch << " " << a;
      }
    }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

TEST(ChanneliserCorrections, DelaysFileByNameOrIndex) {
  const TempFile file("# delays\nsouth 1e-9\n0 -2.5e-9   # by index\n");
  EXPECT_EQ(read_delays_file(file.path(), 3, {"north", "south", "east"}),
            (std::vector<double>{-2.5e-9, 1e-9, 0.0}));
  const TempFile indices("2 4e-9\n");
  EXPECT_EQ(read_delays_file(indices.path(), 3, {}), (std::vector<double>{0, 0, 4e-9}));
  auto bad = [&](const std::string& text, const std::vector<std::string>& names) {
    const TempFile f(text);
    const std::string e = error_of([&] { read_delays_file(f.path(), 2, names); });
    EXPECT_EQ(e.rfind(f.path() + ": ", 0), 0u) << e;
    return e.substr(std::min(e.size(), f.path().size() + 2));
  };
  EXPECT_EQ(bad("west 1e-9\n", {"north", "south"}),
            "line 1: no station 'west' in the voltages (names or an index, 0 to 1)");
  EXPECT_EQ(bad("2 1e-9\n", {}),
            "line 1: no station '2' in the voltages (they carry no names: give an index, 0 to 1)");
  EXPECT_EQ(bad("0 1e-9\nnorth 2e-9\n", {"north", "south"}),
            "line 2: station 'north' is already given on line 1");
  EXPECT_EQ(bad("0 soon\n", {}), "line 1: delay 'soon' is not a number of seconds within +-1");
  EXPECT_EQ(bad("0 5\n", {}), "line 1: delay '5' is not a number of seconds within +-1");
  EXPECT_EQ(bad("0\n", {}), "line 1: expected 'station delay_s', got '0'");
}

TEST(ChanneliserCorrections, BandpassFileOneGainALineOrChannelGainPairs) {
  const TempFile column("1\n2\n0.5\n# comment\n4\n");
  EXPECT_EQ(read_bandpass_file(column.path(), 4), (std::vector<float>{1, 2, 0.5f, 4}));
  const TempFile pairs("3 0.25\n0 2\n");
  EXPECT_EQ(read_bandpass_file(pairs.path(), 4), (std::vector<float>{2, 1, 1, 0.25f}));
  auto bad = [&](const std::string& text) {
    const TempFile f(text);
    const std::string e = error_of([&] { read_bandpass_file(f.path(), 4); });
    EXPECT_EQ(e.rfind(f.path() + ": ", 0), 0u) << e;
    return e.substr(std::min(e.size(), f.path().size() + 2));
  };
  EXPECT_EQ(bad("1\n2\n"), "holds 2 gains; the output has 4 channels (or give 'channel gain' lines)");
  EXPECT_EQ(bad("1\n2 3\n"), "line 2: expected one gain (every line alike), got '2 3'");
  EXPECT_EQ(bad("4 1\n"), "line 1: channel '4' is not an output channel (0 to 3)");
  EXPECT_EQ(bad("1 1\n1 2\n"), "line 2: channel 1 is already given on line 1");
  EXPECT_EQ(bad("1 inf\n"), "line 1: gain 'inf' is not a finite number");
  EXPECT_EQ(bad("# nothing\n"), "holds no gains");
  EXPECT_EQ(bad("1 2 3\n"), "line 1: expected a gain or 'channel gain' (every line alike), got '1 2 3'");
}

ParsedOptions parse(std::vector<std::string> args) {
  static_assert(true);
  auto options = program_options("test", "test");
  add_pfb_options(options);
  std::vector<char*> argv;
  args.insert(args.begin(), "test");
  for (std::string& a : args) argv.push_back(a.data());
  return parse_options(options, int(argv.size()), argv.data());
}

TEST(PfbOptions, DefaultsAndValues) {
  const PfbOptions d = pfb_options_from(parse({}).result);
  EXPECT_EQ(d.design.nfine, 256);
  EXPECT_EQ(d.design.ntaps, 16);
  EXPECT_EQ(d.design.window, "hamming");
  EXPECT_TRUE(d.design.coeffs_path.empty());
  const PfbOptions o = pfb_options_from(
      parse({"--nchan", "64", "--ntaps", "8", "--window", "kaiser:7.5", "--delays", "d.txt",
             "--bandpass", "b.txt"})
          .result);
  EXPECT_EQ(o.design.nfine, 64);
  EXPECT_EQ(o.design.ntaps, 8);
  EXPECT_EQ(o.design.window, "kaiser:7.5");
  EXPECT_EQ(o.delays_path, "d.txt");
  EXPECT_EQ(o.bandpass_path, "b.txt");
  EXPECT_EQ(pfb_options_from(parse({"--coeffs", "c.txt"}).result).design.coeffs_path, "c.txt");
}

TEST(PfbOptions, BadValuesAreUsageErrors) {
  auto message = [](std::vector<std::string> args) {
    try {
      pfb_options_from(parse(args).result);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({"--nchan", "0"}), "--nchan must be from 1 to 1048576");
  EXPECT_EQ(message({"--ntaps", "0"}), "--ntaps must be from 1 to 1024");
  EXPECT_EQ(message({"--window", "hann"}),
            "--window 'hann' is not known; expected hamming, blackman-harris or kaiser:BETA");
  EXPECT_EQ(message({"--coeffs", "c.txt", "--ntaps", "4"}),
            "--coeffs gives the whole filter: leave out --ntaps and --window");
}

TEST(PfbOptions, SetupTakesTheTapsFromTheCoefficientsFile) {
  std::string text;
  for (int k = 0; k < 3 * 16; ++k) text += std::to_string(1 + k % 5) + "\n";
  const TempFile coeffs(text);
  PfbOptions o;
  o.design.nfine = 8;
  o.design.coeffs_path = coeffs.path();
  const VoltageHeader in = two_antennas(true, 16.0);  // real: frames of 16
  const ChanneliserSetup s = setup_channeliser(in, o, "in.dada");
  EXPECT_EQ(s.shape.ntaps, 3);
  EXPECT_EQ(s.prototype.size(), 48u);
  EXPECT_EQ(s.output.nchan, 8);
  VoltageHeader no_rate = in;
  no_rate.tsamp_s = 0;
  EXPECT_EQ(error_of([&] { setup_channeliser(no_rate, o, "in.dada"); }),
            "in.dada: the header gives no sample time");
}

}  // namespace
}  // namespace rapt
