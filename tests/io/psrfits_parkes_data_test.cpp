// PSRFITS reader on real data: the Parkes UWL search-mode file, on its own and against the
// SIGPROC filterbank of the same observation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/psrfits.hpp"
#include "io/sigproc.hpp"
#include "test_data.hpp"
#include "test_statistics.hpp"

using rapt::PsrfitsReader;

// Parkes UWL / Medusa search-mode file of the Crab, 416 channels x 8 MHz, NPOL=4
// (AABBCRCI), 4-bit, ZERO_OFF 7.5, 2 rows of 2048 spectra.

namespace {

constexpr const char* kParkesSearchFile = "sigpyproc3/parkes_4bit.sf";

std::vector<float> read_spectra(rapt::SpectraSource& source) {
  const auto& info = source.info();
  std::vector<float> out(size_t(info.nspectra) * size_t(info.nchans));
  EXPECT_EQ(source.read(out.data(), size_t(info.nspectra)), size_t(info.nspectra));
  return out;
}

// Per channel: rms over mean, and the correlation of each sample with the one before it.
struct ChannelStatistics {
  std::vector<double> rms_over_mean;
  std::vector<double> lag1_autocorrelation;
};

ChannelStatistics channel_statistics(const std::vector<float>& data, size_t nchans) {
  const size_t nspectra = data.size() / nchans;
  ChannelStatistics stats;
  for (size_t c = 0; c < nchans; ++c) {
    double mean = 0.0;
    for (size_t t = 0; t < nspectra; ++t) mean += data[t * nchans + c];
    mean /= double(nspectra);
    double variance = 0.0;
    double lagged = 0.0;
    for (size_t t = 0; t < nspectra; ++t) {
      const double x = data[t * nchans + c] - mean;
      variance += x * x;
      if (t > 0) lagged += x * (data[(t - 1) * nchans + c] - mean);
    }
    stats.rms_over_mean.push_back(std::sqrt(variance / double(nspectra)) / mean);
    stats.lag1_autocorrelation.push_back(variance > 0.0 ? lagged / variance : 0.0);
  }
  return stats;
}

}  // namespace

TEST(PsrfitsReaderOnParkesData, ReadsTheHeaderFacts) {
  RAPT_REQUIRE_SHARED_FILE(path, kParkesSearchFile);
  PsrfitsReader reader(path);
  const rapt::ObservationInfo& info = reader.info();
  EXPECT_EQ(info.source_name, "J0534+2200");
  EXPECT_EQ(info.telescope, "Parkes");
  EXPECT_EQ(info.instrument, "Medusa");
  EXPECT_NEAR(info.ra_deg, (5 + 34 / 60.0 + 31.9 / 3600) * 15, 1e-9);
  EXPECT_NEAR(info.dec_deg, 22 + 52 / 3600.0, 1e-9);
  EXPECT_DOUBLE_EQ(info.tstart_mjd, 58543 + (28543 + 0.360500000000002) / 86400);
  EXPECT_DOUBLE_EQ(info.tsamp_s, 0.000512);
  EXPECT_EQ(info.nchans, 416);
  EXPECT_EQ(info.nbits, 4);
  EXPECT_EQ(info.npol_summed, 2);
  EXPECT_EQ(info.nspectra, 4096);
  EXPECT_DOUBLE_EQ(info.fch1_mhz, 4028.0);
  EXPECT_DOUBLE_EQ(info.foff_mhz, -8.0);
  EXPECT_TRUE(reader.warnings().empty());
}

TEST(PsrfitsReaderOnParkesData, CalibratesTheFirstSampleByHand) {
  RAPT_REQUIRE_SHARED_FILE(path, kParkesSearchFile);
  PsrfitsReader reader(path);
  std::vector<float> spectrum(416);
  ASSERT_EQ(reader.read(spectrum.data(), 1), 1u);
  // Row 1, channel 0: AA nibble 8, BB nibble 7 (first DATA bytes 0x88..., byte 208 0x7.);
  // DAT_SCL 3331.0657 and 3176.0071, DAT_OFFS 196376.80 and 185161.61, DAT_WTS 1.
  const double expected = ((8 - 7.5) * 3331.065673828125 + 196376.796875) +
                          ((7 - 7.5) * 3176.007080078125 + 185161.609375);
  EXPECT_NEAR(spectrum[0], expected, 0.05);
}

TEST(PsrfitsReaderOnParkesData, ShowsRadiometerNoiseOnceCalibrated) {
  // Total intensity AA+BB of an 8 MHz channel integrated for 512 us has rms/mean of at least
  // 1/sqrt(2 * 8e6 * 512e-6) = 0.01105 (ideal rectangular channels, no other noise); channel
  // filters and 4-bit quantisation raise it a little. Measured median: 1.064 times that. The
  // same data decoded without ZERO_OFF gives 0.947 (below the bound), with AA alone 1.49,
  // with AA+CR 1.83, without DAT_SCL 0.09, without DAT_OFFS a negative mean.
  RAPT_REQUIRE_SHARED_FILE(path, kParkesSearchFile);
  PsrfitsReader reader(path);
  std::vector<double> ratio = channel_statistics(read_spectra(reader), 416).rms_over_mean;
  std::sort(ratio.begin(), ratio.end());
  const double median_over_bound = ratio[ratio.size() / 2] * std::sqrt(2 * 8e6 * 512e-6);
  EXPECT_GT(median_over_bound, 1.0);
  EXPECT_LT(median_over_bound, 1.2);
}

TEST(PsrfitsReaderOnParkesData, SkipsTheFirstRowToTheSameSpectraAsReading) {
  RAPT_REQUIRE_SHARED_FILE(path, kParkesSearchFile);
  PsrfitsReader whole(path);
  const std::vector<float> all = read_spectra(whole);
  PsrfitsReader skipping(path);
  ASSERT_EQ(skipping.skip(2048 + 5), 2048u + 5);
  std::vector<float> tail(10 * 416);
  ASSERT_EQ(skipping.read(tail.data(), 10), 10u);
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), all.begin() + (2048 + 5) * 416));
}

TEST(PsrfitsReaderOnParkesData, AgreesWithTheFilterbankOfTheSameObservation) {
  // parkes_4bit.fil is the same Parkes UWL Crab observation made by another pipeline: 832
  // channels of 4 MHz (channels 2k and 2k+1 cover .sf channel k), each channel normalised and
  // requantised, and starting where the .sf ends (tstart later by exactly 4096 * 512 us), so
  // the two hold no common samples. What the two share is the observation's channel
  // structure: RFI-affected channels (mostly below 1.1 GHz) vary slowly, other channels are
  // white. The lag-1 autocorrelation of each .sf channel against that of the summed .fil pair
  // correlates at 0.90 over the 416 channels (0.90 with parkes_8bit_1.fil too); a band flip
  // gives -0.07, pairing shifted by one .sf channel 0.65, swapped nibbles in our unpacking 0.71.
  RAPT_REQUIRE_SHARED_FILE(sf_path, kParkesSearchFile);
  RAPT_REQUIRE_SHARED_FILE(fil_path, "sigpyproc3/parkes_4bit.fil");
  PsrfitsReader psrfits(sf_path);
  rapt::SigprocReader sigproc(fil_path);
  const rapt::ObservationInfo& sf = psrfits.info();
  const rapt::ObservationInfo& fil = sigproc.info();

  EXPECT_EQ(fil.source_name, sf.source_name);
  EXPECT_EQ(fil.telescope, sf.telescope);
  EXPECT_NEAR(fil.ra_deg, sf.ra_deg, 1e-4);
  EXPECT_NEAR(fil.dec_deg, sf.dec_deg, 1e-4);
  EXPECT_DOUBLE_EQ(fil.tsamp_s, sf.tsamp_s);
  EXPECT_EQ(fil.nspectra, sf.nspectra);
  EXPECT_NEAR((fil.tstart_mjd - sf.tstart_mjd) * 86400.0, sf.nspectra * sf.tsamp_s, 1e-5);
  ASSERT_EQ(fil.nchans, 2 * sf.nchans);
  EXPECT_DOUBLE_EQ(fil.foff_mhz, sf.foff_mhz / 2);
  for (int k = 0; k < sf.nchans; ++k) {
    const double pair_centre =
        0.5 * (fil.channel_freq_mhz(2 * k) + fil.channel_freq_mhz(2 * k + 1));
    ASSERT_DOUBLE_EQ(pair_centre, sf.channel_freq_mhz(k)) << "channel " << k;
  }

  const size_t nchans = size_t(sf.nchans);
  const std::vector<float> fine = read_spectra(sigproc);
  std::vector<float> paired(fine.size() / 2);
  for (size_t i = 0; i < paired.size(); ++i) paired[i] = fine[2 * i] + fine[2 * i + 1];
  const std::vector<double> sf_lag1 =
      channel_statistics(read_spectra(psrfits), nchans).lag1_autocorrelation;
  const std::vector<double> fil_lag1 = channel_statistics(paired, nchans).lag1_autocorrelation;
  const std::vector<double> fil_flipped(fil_lag1.rbegin(), fil_lag1.rend());
  const std::vector<double> fil_shifted(fil_lag1.begin() + 1, fil_lag1.end());

  const double matched = rapt::testing::pearson_correlation(sf_lag1, fil_lag1);
  EXPECT_GT(matched, 0.8);
  EXPECT_LT(rapt::testing::pearson_correlation(sf_lag1, fil_flipped), 0.2);
  EXPECT_LT(rapt::testing::pearson_correlation(sf_lag1, fil_shifted), matched - 0.15);
}
