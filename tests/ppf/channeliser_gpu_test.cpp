// The CUDA channeliser against the CPU engine (skipped without a GPU or without CUDA), on
// random input, for real and complex input, both sideband signs, one and two polarisations,
// tap counts with a compiled register ring (4, 8, 16, 32) and without (3, 5: the generic
// kernel), odd fine channel counts, corrections; blocks of several sizes in a row (the history
// kept on the device across calls) and calls split into device chunks of a few frames.
//
// Tolerance: the largest |GPU - CPU| is at most 1e-5 of the rms of the CPU's output (the same
// float FIR sums; cuFFT's and FFTW's float FFTs differ by a few 1e-7 relative).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "gpu_device.hpp"
#include "pfb_reference.hpp"
#include "ppf/channeliser.hpp"
#include "ppf/ppf_gpu_factory.hpp"

namespace rapt {
namespace {

#define SKIP_WITHOUT_GPU()                                                         \
  do {                                                                             \
    if (!kGpuChanneliserBuilt) GTEST_SKIP() << "built without CUDA";               \
    if (gpu_device_count() == 0)                                                   \
      GTEST_SKIP() << "no GPU: the CUDA channeliser is not tested";                \
  } while (0)

struct GpuCase {
  const char* name;
  bool real;
  bool inverted;
  int nchan_in, nant, npol, nfine, ntaps;
  bool corrections;
  int64_t chunk_frames;  // 0: the engine's default
};

void PrintTo(const GpuCase& k, std::ostream* os) { *os << k.name; }

const GpuCase kCases[] = {
    {"RealDualPol16Taps", true, false, 1, 3, 2, 64, 16, false, 0},
    {"RealInverted8Taps", true, true, 1, 2, 2, 32, 8, true, 0},
    {"RealOnePol4Taps", true, false, 2, 2, 1, 16, 4, false, 0},
    {"RealGeneric5Taps", true, false, 1, 2, 2, 24, 5, true, 0},
    {"ComplexDualPol16Taps", false, false, 4, 3, 2, 32, 16, true, 0},
    {"ComplexInverted32Taps", false, true, 2, 2, 2, 16, 32, false, 0},
    {"ComplexOnePolOdd", false, false, 3, 2, 1, 15, 8, true, 0},
    {"ComplexGeneric3Taps", false, true, 2, 3, 2, 40, 3, true, 0},
    {"ComplexOneTap", false, false, 2, 2, 2, 8, 1, false, 0},
    {"ChunkedReal", true, false, 1, 2, 2, 32, 8, true, 3},
    {"ChunkedComplex", false, false, 3, 2, 2, 16, 12, true, 5},
    {"WideFrames", false, false, 1, 1, 2, 300, 4, false, 0},
};

ChanneliserShape shape_of(const GpuCase& k) {
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
  for (int a = 0; a < s.nant; ++a) c.delay_s.push_back(2.1e-7 * a - 1.3e-7);
  for (int ch = 0; ch < s.nchan_out(); ++ch) {
    c.fine_freq_hz.push_back(1.2e9 + 7654.3 * ch);
    c.bandpass_gain.push_back(1.5f - 0.01f * float(ch % 50));
  }
  return c;
}

class ChanneliserGpu : public ::testing::TestWithParam<GpuCase> {};

TEST_P(ChanneliserGpu, MatchesTheCpuEngineBlockAfterBlock) {
  SKIP_WITHOUT_GPU();
  const GpuCase& k = GetParam();
  const ChanneliserShape s = shape_of(k);
  PfbDesign design;
  design.nfine = k.nfine;
  design.ntaps = k.ntaps;
  design.window = "blackman-harris";
  const std::vector<float> h = pfb_prototype(design, s);
  const ChanneliserCorrections corr = k.corrections ? corrections_for(s) : ChanneliserCorrections{};
  auto cpu = make_cpu_channeliser(s, h, corr, 2);
  auto gpu = make_cuda_channeliser(s, h, corr, 0, k.chunk_frames);
  EXPECT_EQ(gpu->name(), "gpu:0");
  // Blocks of several sizes: shorter than the history, then longer.
  uint32_t seed = 1;
  for (int64_t frames : {int64_t(1), int64_t(2), int64_t(k.ntaps + 3), int64_t(7), int64_t(40)}) {
    const std::vector<float> x = test::noise_input(s, frames * s.frame(), seed++);
    std::vector<float> want, got;
    cpu->process(x.data(), frames * s.frame(), want);
    gpu->process(x.data(), frames * s.frame(), got);
    ASSERT_EQ(got.size(), want.size());
    double sum2 = 0, largest = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      sum2 += double(want[i]) * want[i];
      largest = std::max(largest, double(std::fabs(got[i] - want[i])));
    }
    const double rms = std::sqrt(sum2 / double(want.size()));
    EXPECT_LE(largest, 1e-5 * rms) << k.name << ": block of " << frames << " frames";
  }
  EXPECT_EQ(gpu->samples_out(), cpu->samples_out());
}

INSTANTIATE_TEST_SUITE_P(ChanneliserShapes, ChanneliserGpu, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ChanneliserGpuDispatch, RefusesWithoutCudaOrChecksItsInputs) {
  ChanneliserShape s;
  s.nfine = 8;
  s.ntaps = 2;
  if (!kGpuChanneliserBuilt) {
    EXPECT_THROW(make_gpu_channeliser(s, std::vector<float>(16, 0.25f), {}, 0), UsageError);
    return;
  }
  SKIP_WITHOUT_GPU();
  EXPECT_THROW(make_gpu_channeliser(s, std::vector<float>(15, 0.25f), {}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace rapt
