#include "accel/birdie_zap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "test_data.hpp"

namespace {

using Complex = std::complex<float>;

TEST(Zaplist, ReadsFrequencyWidthLinesCommentsAndBarycentricLines) {
  const std::string text =
      "# Frequency (Hz)   Width (Hz)\n"
      "#\n"
      "   60.0   0.2\n"
      "\n"
      "B 50.5 0.01   # mains, already barycentric\n"
      "B120.25 1.5\n"
      "1.0e3 2 extra columns\n";
  const std::vector<rapt::ZapEntry> entries = rapt::parse_zaplist(text, "list.zaplist");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_DOUBLE_EQ(entries[0].freq_hz, 60.0);
  EXPECT_DOUBLE_EQ(entries[0].width_hz, 0.2);
  EXPECT_FALSE(entries[0].barycentric);
  EXPECT_DOUBLE_EQ(entries[1].freq_hz, 50.5);
  EXPECT_TRUE(entries[1].barycentric);
  EXPECT_DOUBLE_EQ(entries[2].freq_hz, 120.25);
  EXPECT_DOUBLE_EQ(entries[2].width_hz, 1.5);
  EXPECT_TRUE(entries[2].barycentric);
  EXPECT_DOUBLE_EQ(entries[3].freq_hz, 1000.0);
  EXPECT_DOUBLE_EQ(entries[3].width_hz, 2.0);
}

TEST(Zaplist, BadLineIsReportedWithFileAndLineNumber) {
  try {
    rapt::parse_zaplist("# ok\n60 0.1\n60 wide\n", "birds.zaplist");
    FAIL() << "no error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "birds.zaplist:3: expected 'frequency_Hz width_Hz', got '60 wide'");
  }
  EXPECT_THROW(rapt::read_zaplist("/nonexistent/x.zaplist"), rapt::DataError);
}

TEST(Zaplist, BinsScaleTopocentricBirdiesByOnePlusBaryvAndWidenNarrowOnes) {
  const double T = 100.0, v = 1e-4;
  const std::vector<rapt::BirdieBins> bins =
      rapt::birdie_bins({{60.0, 0.2, false}, {50.0, 0.2, true}, {10.0, 0.001, false}}, T, v);
  ASSERT_EQ(bins.size(), 3u);
  // Sorted by lobin: the 10 Hz birdie, 1 bin wide about its centre.
  EXPECT_DOUBLE_EQ(bins[0].lobin, 10.0 * T * (1 + v) - 0.5);
  EXPECT_DOUBLE_EQ(bins[0].hibin, 10.0 * T * (1 + v) + 0.5);
  EXPECT_DOUBLE_EQ(bins[1].lobin, 49.9 * T);
  EXPECT_DOUBLE_EQ(bins[1].hibin, 50.1 * T);
  EXPECT_DOUBLE_EQ(bins[2].lobin, 59.9 * T * (1 + v));
  EXPECT_DOUBLE_EQ(bins[2].hibin, 60.1 * T * (1 + v));
}

// Powers 4 below the birdie, 16 above: the zapped amplitude is sqrt((4 + 16) / 2 / ln 2).
std::vector<Complex> two_level_spectrum(size_t n, size_t split) {
  std::vector<Complex> bins(n);
  for (size_t k = 0; k < n; ++k) bins[k] = k < split ? Complex(0.0f, 2.0f) : Complex(4.0f, 0.0f);
  return bins;
}

TEST(BirdieZap, ReplacesTheBirdieBinsByTheLevelOfTheMediansAroundIt) {
  std::vector<Complex> bins = two_level_spectrum(2000, 900);  // low window [700, 900)
  for (size_t k = 1000; k < 1006; ++k) bins[k] = Complex(500.0f, 300.0f);  // the birdie
  const std::vector<Complex> before = bins;
  ASSERT_TRUE(rapt::zap_birdie(bins, 1000.3, 1005.2));
  const float amplitude = static_cast<float>(std::sqrt(0.5 * (4.0 + 16.0) / std::log(2.0)));
  for (size_t k = 0; k < bins.size(); ++k) {
    if (k >= 1000 && k < 1006)
      EXPECT_EQ(bins[k], Complex(amplitude, 0.0f)) << k;  // floor(1000.3) .. ceil(1005.2) - 1
    else
      EXPECT_EQ(bins[k], before[k]) << k;
  }
}

TEST(BirdieZap, LeavesBirdiesWithinThreeHundredBinsOfTheStartAlone) {
  std::vector<Complex> bins = two_level_spectrum(1000, 500);
  const std::vector<Complex> before = bins;
  EXPECT_FALSE(rapt::zap_birdie(bins, 301.0, 305.0));
  EXPECT_EQ(bins, before);
  EXPECT_TRUE(rapt::zap_birdie(bins, 301.5, 305.0));
}

TEST(BirdieZap, StopsAtTheEndOfTheSpectrumAndCapsTheLastBirdie) {
  std::vector<Complex> bins(1000, Complex(1.0f, 1.0f));
  const std::vector<rapt::BirdieBins> birdies = {{500, 502}, {990.5, 1200}, {1000, 1010}};
  EXPECT_EQ(rapt::zap_birdies(bins, birdies), 2);
  const float amplitude = static_cast<float>(std::sqrt(2.0 / std::log(2.0)));
  EXPECT_EQ(bins[501], Complex(amplitude, 0.0f));
  EXPECT_EQ(bins[502], Complex(1.0f, 1.0f));
  EXPECT_EQ(bins[989], Complex(1.0f, 1.0f));
  EXPECT_EQ(bins[990], Complex(amplitude, 0.0f));
  EXPECT_EQ(bins[998], Complex(amplitude, 0.0f));
  EXPECT_EQ(bins[999], Complex(1.0f, 1.0f));  // hibin capped at numbins - 1 = 999: ceil is 999
}

}  // namespace
