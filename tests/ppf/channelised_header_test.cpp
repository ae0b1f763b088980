// The channelised stream's header: fine channel frequencies through channel_freq_mhz (real
// input: bin j at j |bw| / nfine from the band's edge; complex input: fine channel j at
// (j - nfine/2) B / nfine from its coarse channel's centre), both sideband signs; the sample
// time, the start time (the middle of output sample 0's filter span) and the sample count.
#include <gtest/gtest.h>

#include <cmath>

#include "ppf/channeliser.hpp"

namespace rapt {
namespace {

VoltageHeader band(bool real, int nchan, double bw_mhz) {
  VoltageHeader h;
  h.format = "PSRDADA";
  h.nant = 3;
  h.npol = 2;
  h.nchan = nchan;
  h.complex_samples = !real;
  h.nbits = 8;
  h.centre_freq_mhz = 150.0;
  h.bandwidth_mhz = bw_mhz;
  const double width_hz = std::fabs(bw_mhz) * 1e6 / nchan;
  h.tsamp_s = real ? 1 / (2 * width_hz) : 1 / width_hz;
  h.start_mjd_day = 60000;
  h.start_mjd_seconds = 10.0;
  h.nsamples = 100000;
  return h;
}

TEST(ChannelisedHeader, RealBandBinsSitAtMultiplesOfTheChannelWidth) {
  for (double bw : {100.0, -100.0}) {
    const VoltageHeader in = band(true, 1, bw);
    const VoltageHeader out = channelised_header(in, channeliser_shape(in, 256, 16));
    ASSERT_EQ(out.nchan, 256);
    const double edge = bw > 0 ? 100.0 : 200.0;  // real frequency 0: the lower edge, or the upper
    for (int j : {0, 1, 100, 255})
      EXPECT_NEAR(out.channel_freq_mhz(j), edge + j * bw / 256, 1e-9) << "bw " << bw << " bin " << j;
    EXPECT_TRUE(out.complex_samples);
    EXPECT_EQ(out.nbits, 32);
    EXPECT_TRUE(out.float_samples);
    EXPECT_DOUBLE_EQ(out.tsamp_s, 512 * in.tsamp_s);
    EXPECT_EQ(out.nsamples, 100000 / 512);
    EXPECT_EQ(out.nant, 3);
    EXPECT_EQ(out.npol, 2);
    EXPECT_DOUBLE_EQ(out.bandwidth_mhz, bw);
  }
}

TEST(ChannelisedHeader, ComplexFineChannelsRunAcrossEachCoarseChannel) {
  for (double bw : {6.25, -6.25}) {
    for (int nfine : {16, 15}) {
      const VoltageHeader in = band(false, 32, bw);  // 195.3125 kHz coarse channels
      const VoltageHeader out = channelised_header(in, channeliser_shape(in, nfine, 8));
      ASSERT_EQ(out.nchan, 32 * nfine);
      const double width = bw / 32;
      for (int c : {0, 7, 31})
        for (int j : {0, 1, nfine / 2, nfine - 1})
          EXPECT_NEAR(out.channel_freq_mhz(c * nfine + j),
                      in.channel_freq_mhz(c) + (j - nfine / 2) * width / nfine, 1e-9)
              << "bw " << bw << " nfine " << nfine << " coarse " << c << " fine " << j;
      EXPECT_DOUBLE_EQ(out.tsamp_s, nfine * in.tsamp_s);
    }
  }
}

TEST(ChannelisedHeader, StartsAtTheMiddleOfTheFirstSamplesFilterSpan) {
  const VoltageHeader in = band(false, 4, 1.0);  // tsamp 4 us
  const ChanneliserShape s = channeliser_shape(in, 8, 16);
  const VoltageHeader out = channelised_header(in, s);
  // Output sample 0 covers input samples -120 .. 7; its middle is -56.5.
  EXPECT_EQ(out.start_mjd_day, 60000);
  EXPECT_NEAR(out.start_mjd_seconds, 10.0 - 56.5 * 4e-6, 1e-12);
  // Across midnight backwards.
  VoltageHeader early = in;
  early.start_mjd_seconds = 1e-5;
  const VoltageHeader moved = channelised_header(early, s);
  EXPECT_EQ(moved.start_mjd_day, 59999);
  EXPECT_NEAR(moved.start_mjd_seconds, 86400 + 1e-5 - 56.5 * 4e-6, 1e-9);
  VoltageHeader pipe = in;
  pipe.nsamples = -1;
  EXPECT_EQ(channelised_header(pipe, s).nsamples, -1);
  // A start not known (MJD 0) stays unknown, not a day before it.
  VoltageHeader unknown = in;
  unknown.start_mjd_day = 0;
  unknown.start_mjd_seconds = 0;
  const VoltageHeader still = channelised_header(unknown, s);
  EXPECT_FALSE(still.start_known());
  EXPECT_EQ(still.start_mjd_seconds, 0.0);
}

TEST(ChannelisedHeader, FineChannelBinsFollowTheContract) {
  ChanneliserShape s;
  s.nfine = 8;
  EXPECT_EQ(pfb_fine_channel_bin(s, 0), 4);  // the lowest fine channel: the most negative bin
  EXPECT_EQ(pfb_fine_channel_bin(s, 4), 0);
  EXPECT_EQ(pfb_fine_channel_bin(s, 7), 3);
  s.inverted = true;
  EXPECT_EQ(pfb_fine_channel_bin(s, 0), 4);  // the highest: bin +4 = -4 (the Nyquist bin)
  EXPECT_EQ(pfb_fine_channel_bin(s, 1), 3);
  EXPECT_EQ(pfb_fine_channel_bin(s, 4), 0);
  EXPECT_EQ(pfb_fine_channel_bin(s, 7), 5);
  EXPECT_FALSE(pfb_conjugates(s));
  s.real_input = true;
  EXPECT_EQ(pfb_fine_channel_bin(s, 5), 5);
  EXPECT_TRUE(pfb_conjugates(s));
  s.inverted = false;
  EXPECT_FALSE(pfb_conjugates(s));
}

}  // namespace
}  // namespace rapt
