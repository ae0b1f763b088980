// SigprocReader on real files: the Parkes UWL Crab observation at 8, 4, 2 and 1 bits, and the
// SIGPROC tutorial file (shared data, README-sources.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "io/sigproc.hpp"
#include "sigproc_test_support.hpp"
#include "test_data.hpp"
#include "test_statistics.hpp"

using rapt::testing::read_all;
using rapt::testing::read_file;

namespace {

struct ParkesFile {
  const char* name;
  int nbits;
  double reference_correlation;  // with the 8-bit data (README-sources.md)
};
constexpr ParkesFile kParkesFiles[] = {{"sigpyproc3/parkes_8bit_1.fil", 8, 1.0},
                                       {"sigpyproc3/parkes_4bit.fil", 4, 0.977},
                                       {"sigpyproc3/parkes_2bit.fil", 2, 0.926},
                                       {"sigpyproc3/parkes_1bit.fil", 1, 0.784}};

}  // namespace

TEST(SigprocReaderRealData, ParkesFilesHaveTheDocumentedHeader) {
  for (const ParkesFile& file : kParkesFiles) {
    RAPT_REQUIRE_SHARED_FILE(path, file.name);
    rapt::SigprocReader reader(path);
    const rapt::ObservationInfo& info = reader.info();
    EXPECT_EQ(reader.header().header_bytes, 351u) << file.name;
    EXPECT_EQ(info.nbits, file.nbits) << file.name;
    EXPECT_EQ(info.nchans, 832) << file.name;
    EXPECT_EQ(info.fch1_mhz, 4030.0) << file.name;
    EXPECT_EQ(info.foff_mhz, -4.0) << file.name;
    EXPECT_NEAR(info.tsamp_s, 512e-6, 1e-15) << file.name;
    EXPECT_EQ(info.nspectra, 4096) << file.name;
    EXPECT_NEAR(info.tstart_mjd, 58543.330387, 1e-6) << file.name;
    EXPECT_EQ(info.source_name, "J0534+2200") << file.name;
    EXPECT_EQ(info.telescope, "Parkes") << file.name;
    EXPECT_NEAR(info.ra_deg, 15.0 * (5 + 34 / 60.0 + 31.9 / 3600.0), 1e-6) << file.name;
    EXPECT_NEAR(info.dec_deg, 22 + 0 / 60.0 + 52.0 / 3600.0, 1e-6) << file.name;
    EXPECT_TRUE(reader.warnings().empty()) << file.name;
  }
}

TEST(SigprocReaderRealData, RequantisedParkesFilesAgreeWithTheEightBitData) {
  RAPT_REQUIRE_SHARED_FILE(eight_bit_path, kParkesFiles[0].name);
  const std::vector<float> eight_bit = read_file(eight_bit_path);
  ASSERT_EQ(eight_bit.size(), 4096u * 832u);
  for (const ParkesFile& file : kParkesFiles) {
    RAPT_REQUIRE_SHARED_FILE(path, file.name);
    const std::vector<float> data = read_file(path);
    ASSERT_EQ(data.size(), eight_bit.size()) << file.name;
    const float max_level = float((1 << file.nbits) - 1);
    for (const float v : data) ASSERT_TRUE(v >= 0.0f && v <= max_level) << file.name;
    // Mis-ordered bits or channels would drop these far below the published values.
    EXPECT_GT(rapt::testing::pearson_correlation(data, eight_bit), file.reference_correlation - 0.005) << file.name;
  }
}

TEST(SigprocReaderRealData, ReadsTheSigprocTutorialFile) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/tutorial.fil");
  rapt::SigprocReader reader(path);
  const rapt::ObservationInfo& info = reader.info();
  EXPECT_EQ(info.nbits, 2);
  EXPECT_EQ(info.nchans, 64);
  EXPECT_EQ(info.nspectra, 187520);
  EXPECT_EQ(info.fch1_mhz, 1510.0);
  EXPECT_NEAR(info.foff_mhz, -1.09, 1e-12);
  EXPECT_NEAR(info.tsamp_s, 320e-6, 1e-15);
  EXPECT_EQ(info.source_name.rfind("P: 250", 0), 0u);
  const std::vector<float> data = read_all(reader, 10000);
  ASSERT_EQ(data.size(), 187520u * 64u);
  for (const float v : data) ASSERT_TRUE(v >= 0.0f && v <= 3.0f);
  // The fake pulsar (P = 250 ms; DM 30 smears it by only ~5 ms over this band) must stand out
  // in the channel-summed series folded at its period.
  const int nbins = 100;
  const double period_samples = 0.25 / info.tsamp_s;
  std::vector<double> profile(nbins), hits(nbins);
  for (size_t s = 0; s < 187520; ++s) {
    double sum = 0;
    for (size_t c = 0; c < 64; ++c) sum += data[s * 64 + c];
    const int bin = int(std::fmod(double(s), period_samples) / period_samples * nbins);
    profile[bin] += sum;
    hits[bin] += 1;
  }
  for (int b = 0; b < nbins; ++b) profile[b] /= hits[b];
  const int peak = int(std::max_element(profile.begin(), profile.end()) - profile.begin());
  double off_sum = 0, off_squares = 0, off_bins = 0;
  for (int b = 0; b < nbins; ++b) {
    const int distance = std::min(std::abs(b - peak), nbins - std::abs(b - peak));
    if (distance <= 15) continue;  // the pulse and its wings
    off_sum += profile[b];
    off_squares += profile[b] * profile[b];
    off_bins += 1;
  }
  const double off_mean = off_sum / off_bins;
  const double off_rms = std::sqrt(off_squares / off_bins - off_mean * off_mean);
  EXPECT_GT((profile[peak] - off_mean) / off_rms, 20.0);
}
