// The CPU channeliser against the double-precision reference (tests/ppf/pfb_reference.hpp) on
// random input, for real and complex input, both sideband signs, one and two polarisations,
// several input channels and antennas, with and without corrections; and cutting the input
// into blocks of any whole number of frames gives the same output, bit for bit.
//
// Tolerance: the largest |engine - reference| is at most 1e-5 of the reference's rms (float
// sums of ntaps products, then an FFT in float: a few 1e-7 relative).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pfb_reference.hpp"
#include "ppf/channeliser.hpp"

namespace rapt {
namespace {

struct CpuCase {
  const char* name;
  bool real;
  bool inverted;
  int nchan_in, nant, npol, nfine, ntaps;
  bool corrections;
};

const CpuCase kCases[] = {
    {"RealUpper", true, false, 1, 2, 2, 16, 4, false},
    {"RealInverted", true, true, 1, 1, 2, 8, 6, false},
    {"RealTwoChannelsOnePol", true, false, 2, 3, 1, 10, 3, true},
    {"ComplexUpper", false, false, 3, 2, 2, 16, 4, false},
    {"ComplexInverted", false, true, 2, 2, 2, 8, 5, true},
    {"ComplexOddChannels", false, false, 2, 1, 1, 7, 3, true},
    {"ComplexOddInverted", false, true, 1, 2, 2, 9, 2, false},
    {"OneTap", false, false, 2, 2, 2, 8, 1, true},
};

void PrintTo(const CpuCase& k, std::ostream* os) { *os << k.name; }

ChanneliserShape shape_of(const CpuCase& k) {
  ChanneliserShape s;
  s.real_input = k.real;
  s.inverted = k.inverted;
  s.nchan_in = k.nchan_in;
  s.nant = k.nant;
  s.npol = k.npol;
  s.nfine = k.nfine;
  s.ntaps = k.ntaps;
  return s;
}

ChanneliserCorrections corrections_for(const ChanneliserShape& s) {
  ChanneliserCorrections c;
  for (int a = 0; a < s.nant; ++a) c.delay_s.push_back(1.7e-7 * (a + 1) - 2.2e-7);
  for (int ch = 0; ch < s.nchan_out(); ++ch) {
    c.fine_freq_hz.push_back(1.4e9 + 12345.6 * ch);
    c.bandpass_gain.push_back(0.5f + 0.01f * float(ch % 37));
  }
  return c;
}

double largest_error_over_rms(const std::vector<float>& got,
                              const std::vector<std::complex<double>>& want) {
  double sum2 = 0, largest = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    sum2 += std::norm(want[i]);
    largest = std::max(largest, std::abs(std::complex<double>(got[2 * i], got[2 * i + 1]) - want[i]));
  }
  return largest / std::sqrt(sum2 / double(want.size()));
}

class ChanneliserCpu : public ::testing::TestWithParam<CpuCase> {};

TEST_P(ChanneliserCpu, MatchesTheDoublePrecisionReference) {
  const CpuCase& k = GetParam();
  const ChanneliserShape s = shape_of(k);
  PfbDesign design;
  design.nfine = k.nfine;
  design.ntaps = k.ntaps;
  const std::vector<float> h = pfb_prototype(design, s);
  const ChanneliserCorrections corr = k.corrections ? corrections_for(s) : ChanneliserCorrections{};
  const int64_t nframes = 3 * k.ntaps + 5;
  const std::vector<float> input = test::noise_input(s, nframes * s.frame(), 7);
  auto engine = make_cpu_channeliser(s, h, corr, 3);
  std::vector<float> out;
  engine->process(input.data(), nframes * s.frame(), out);
  const auto want = test::reference_pfb(s, h, corr, input, nframes);
  ASSERT_EQ(out.size(), 2 * want.size());
  EXPECT_LT(largest_error_over_rms(out, want), 1e-5);
  EXPECT_EQ(engine->samples_out(), nframes);
}

// Blocks of 1, 2, 3, ... frames (the history reaching back over several blocks) against one call.
TEST_P(ChanneliserCpu, BlockCutsDoNotChangeTheOutput) {
  const CpuCase& k = GetParam();
  const ChanneliserShape s = shape_of(k);
  PfbDesign design;
  design.nfine = k.nfine;
  design.ntaps = k.ntaps;
  const std::vector<float> h = pfb_prototype(design, s);
  const ChanneliserCorrections corr = k.corrections ? corrections_for(s) : ChanneliserCorrections{};
  const int64_t nframes = 4 * k.ntaps + 11;
  const int L = s.frame();
  const std::vector<float> input = test::noise_input(s, nframes * L, 11);
  std::vector<float> whole;
  make_cpu_channeliser(s, h, corr, 2)->process(input.data(), nframes * L, whole);

  auto engine = make_cpu_channeliser(s, h, corr, 4);
  const int values = s.real_input ? 1 : 2;
  const size_t rows = size_t(s.nchan_in) * s.nant;
  std::vector<float> block, out;
  int64_t done = 0;
  for (int64_t cut = 1; done < nframes; cut = cut % 5 + 1) {
    const int64_t n = std::min(cut, nframes - done);
    // The canonical block of frames [done, done + n): a stretch of every row.
    block.clear();
    for (size_t r = 0; r < rows; ++r) {
      const float* from = input.data() + (r * nframes * L + done * L) * s.npol * values;
      block.insert(block.end(), from, from + n * L * s.npol * values);
    }
    engine->process(block.data(), n * L, out);
    for (int ch = 0; ch < s.nchan_out(); ++ch)
      for (int a = 0; a < s.nant; ++a)
        for (int64_t t = 0; t < n; ++t)
          for (int v = 0; v < 2 * s.npol; ++v) {
            const size_t got = ((size_t(ch) * s.nant + a) * n + t) * 2 * s.npol + v;
            const size_t want = ((size_t(ch) * s.nant + a) * nframes + done + t) * 2 * s.npol + v;
            ASSERT_EQ(out[got], whole[want]) << "channel " << ch << " antenna " << a << " frame "
                                             << done + t;
          }
    done += n;
  }
}

INSTANTIATE_TEST_SUITE_P(ChanneliserShapes, ChanneliserCpu, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ChanneliserCpuEngine, RefusesPartFramesAndMisfits) {
  ChanneliserShape s;
  s.nfine = 8;
  s.ntaps = 2;
  std::vector<float> h(16, 0.25f);
  auto engine = make_cpu_channeliser(s, h, {}, 1);
  std::vector<float> x(2 * 2 * 12), out;
  EXPECT_THROW(engine->process(x.data(), 12, out), std::invalid_argument);
  engine->process(x.data(), 0, out);
  EXPECT_TRUE(out.empty());
  EXPECT_THROW(make_cpu_channeliser(s, std::vector<float>(15), {}, 1), std::invalid_argument);
  ChanneliserCorrections c;
  c.delay_s = {1e-9};
  EXPECT_THROW(make_cpu_channeliser(s, h, c, 1), std::invalid_argument);
  c.delay_s = {1e-9, 2e-9};
  EXPECT_THROW(make_cpu_channeliser(s, h, c, 1), std::invalid_argument);  // no frequencies
  ChanneliserCorrections g;
  g.bandpass_gain.assign(7, 1.0f);
  EXPECT_THROW(make_cpu_channeliser(s, h, g, 1), std::invalid_argument);
}

}  // namespace
}  // namespace rapt
