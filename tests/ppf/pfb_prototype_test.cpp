// The prototype filter: each window's known values, symmetry about the sinc's centre, unit
// noise gain, one channel of passband, and the coefficients file (its errors name the file).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "pfb_reference.hpp"
#include "ppf/channeliser.hpp"

namespace rapt {
namespace {

ChanneliserShape complex_shape(int nfine, int ntaps) {
  ChanneliserShape s;
  s.nfine = nfine;
  s.ntaps = ntaps;
  return s;
}

PfbDesign design_of(int nfine, int ntaps, const std::string& window) {
  PfbDesign d;
  d.nfine = nfine;
  d.ntaps = ntaps;
  d.window = window;
  return d;
}

double sum_of_squares(const std::vector<float>& h) {
  double sum = 0;
  for (float v : h) sum += double(v) * v;
  return sum;
}

class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/rapt_pfb_coeffs_XXXXXX";
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

TEST(PfbPrototype, EveryWindowIsSymmetricWithUnitNoiseGain) {
  for (const char* window : {"hamming", "blackman-harris", "kaiser:8", "Kaiser:0"}) {
    for (bool real : {false, true}) {
      ChanneliserShape s = complex_shape(16, 8);
      s.real_input = real;
      const std::vector<float> h = pfb_prototype(design_of(16, 8, window), s);
      ASSERT_EQ(h.size(), size_t(8 * s.frame())) << window;
      EXPECT_NEAR(sum_of_squares(h), 1.0, 1e-6) << window;
      for (size_t k = 0; k < h.size(); ++k)
        EXPECT_NEAR(h[k], h[h.size() - 1 - k], 1e-7) << window << " k " << k;
    }
  }
}

// The windowed sinc with its zero crossings every frame: h at the centre +- one frame is 0
// when the length is odd... with an even length the centre lies between samples, so check
// the shape through the response instead: the passband is one channel wide.
TEST(PfbPrototype, PassesOneChannelAndStopsTheRest) {
  const ChanneliserShape s = complex_shape(32, 16);
  const std::vector<float> h = pfb_prototype(design_of(32, 16, "hamming"), s);
  const double dc = std::abs(test::filter_response(h, 0.0));
  const double edge = std::abs(test::filter_response(h, 0.5 / 32));
  EXPECT_NEAR(edge / dc, 0.5, 0.02);  // -6 dB at the channel's edge
  for (double channels : {1.5, 2.0, 3.0, 7.5})
    EXPECT_LT(std::abs(test::filter_response(h, channels / 32)) / dc, 2e-3) << channels;
}

TEST(PfbPrototype, HammingMatchesItsFormula) {
  // One tap of one frame of 4: h[k] = w[k] sinc((k - 1.5) / 4), then unit noise gain.
  const std::vector<float> h = pfb_prototype(design_of(4, 1, "hamming"), complex_shape(4, 1));
  std::vector<double> want(4);
  double sum2 = 0;
  for (int k = 0; k < 4; ++k) {
    const double w = 0.54 - 0.46 * std::cos(2 * M_PI * k / 3);
    const double x = (k - 1.5) / 4;
    want[size_t(k)] = w * std::sin(M_PI * x) / (M_PI * x);
    sum2 += want[size_t(k)] * want[size_t(k)];
  }
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(h[size_t(k)], want[size_t(k)] / std::sqrt(sum2), 1e-7);
}

TEST(PfbPrototype, RefusesUnknownWindowsAndBadBetas) {
  const ChanneliserShape s = complex_shape(8, 4);
  for (const char* window : {"hann", "kaiser", "kaiser:", "kaiser:x", "kaiser:-1", "kaiser:99"})
    EXPECT_THROW(pfb_prototype(design_of(8, 4, window), s), UsageError) << window;
  EXPECT_THROW(pfb_prototype(design_of(8, 0, "hamming"), s), UsageError);
  EXPECT_THROW(check_pfb_window("rectangular"), UsageError);
  check_pfb_window("blackman-harris");
}

TEST(PfbPrototype, ReadsACoefficientsFileOfWholeFrames) {
  std::string text = "# a boxcar of two frames\n";
  for (int k = 0; k < 16; ++k) text += "0.5\n";
  const TempFile file(text);
  PfbDesign d = design_of(8, 99, "ignored");
  d.coeffs_path = file.path();
  const std::vector<float> h = pfb_prototype(d, complex_shape(8, 2));
  ASSERT_EQ(h.size(), 16u);
  for (float v : h) EXPECT_FLOAT_EQ(v, 0.25f);  // scaled to unit noise gain
}

TEST(PfbPrototype, ParsesCoefficientsFromTextAsFromAFile) {
  const std::vector<float> h =
      parse_pfb_coefficients("1\n\n# middle\n  -1\n1\n-1\n", "mem.txt", complex_shape(2, 1));
  ASSERT_EQ(h.size(), 4u);
  EXPECT_FLOAT_EQ(h[0], 0.5f);
  EXPECT_FLOAT_EQ(h[1], -0.5f);
  try {
    parse_pfb_coefficients("1\n2\n3\n", "mem.txt", complex_shape(2, 1));
    ADD_FAILURE() << "three coefficients taken as whole 2-sample frames";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("mem.txt: holds 3 coefficients", 0), 0u) << e.what();
  }
}

TEST(PfbPrototype, CoefficientsOfAnyFiniteSizeScaleToUnitNoiseGain) {
  // Squares of 1e-170 underflow and of 1e200 overflow in double; the filter is still (1, 2).
  for (const char* text : {"1e-170\n2e-170\n", "1e200\n2e200\n", "1\n2\n"}) {
    SCOPED_TRACE(text);
    const std::vector<float> h = parse_pfb_coefficients(text, "mem.txt", complex_shape(2, 1));
    ASSERT_EQ(h.size(), 2u);
    EXPECT_NEAR(h[0], 1.0 / std::sqrt(5.0), 1e-7);
    EXPECT_NEAR(h[1], 2.0 / std::sqrt(5.0), 1e-7);
  }
}

TEST(PfbPrototype, BadCoefficientsFilesNameTheFile) {
  auto message = [](const std::string& text, int nfine, bool real) {
    const TempFile file(text);
    PfbDesign d = design_of(nfine, 1, "hamming");
    d.coeffs_path = file.path();
    ChanneliserShape s = complex_shape(nfine, 1);
    s.real_input = real;
    try {
      pfb_prototype(d, s);
    } catch (const DataError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(file.path() + ": ", 0), 0u) << what;
      return what.substr(file.path().size() + 2);
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("1\n2\n3\n", 2, false),
            "holds 3 coefficients; a filter of 2-sample frames (--nchan) needs a whole number of "
            "frames, one per tap");
  EXPECT_EQ(message("1\n2\n", 2, true),
            "holds 2 coefficients; a filter of 4-sample frames (2 x --nchan, real input) needs a "
            "whole number of frames, one per tap");
  EXPECT_EQ(message("1\nabc\n", 2, false), "line 2: expected one finite number, got 'abc'");
  EXPECT_EQ(message("1 2\n", 2, false), "line 1: expected one finite number, got '1 2'");
  EXPECT_EQ(message("nan\n1\n", 2, false), "line 1: expected one finite number, got 'nan'");
  EXPECT_EQ(message("0\n0\n", 2, false), "the coefficients are all zero");
  EXPECT_EQ(message("", 2, false),
            "holds 0 coefficients; a filter of 2-sample frames (--nchan) needs a whole number of "
            "frames, one per tap");
  PfbDesign missing = design_of(8, 1, "hamming");
  missing.coeffs_path = "/nonexistent/coeffs.txt";
  EXPECT_THROW(pfb_prototype(missing, complex_shape(8, 1)), DataError);
}

}  // namespace
}  // namespace rapt
