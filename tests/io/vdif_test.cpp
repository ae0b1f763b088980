// VDIF: frame header fields, the VLBA (EDV 3, 2-bit, 8 threads) and MWA (EDV 0, complex
// two's-complement int8) samples' known answers, and bad files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "io/vdif.hpp"
#include "test_data.hpp"
#include "voltage_test_support.hpp"

using rapt::testing::data_error_text;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::voltage_value;
using rapt::testing::write_whole_file;

namespace {

// The 2-bit code of a decoded offset-binary level.
int two_bit_code(float level) {
  return level < -2 ? 0 : level < 0 ? 1 : level < 2 ? 2 : 3;
}

}  // namespace

TEST(VdifFrameHeader, ParsesVlbaSampleFirstFrame) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample.vdif");
  const std::string bytes = read_whole_file(path);
  const rapt::VdifFrameHeader h = rapt::parse_vdif_frame_header(
      reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path);
  EXPECT_EQ(h.seconds, 14363767u);
  EXPECT_EQ(h.ref_epoch, 28);
  EXPECT_EQ(h.frame_nr, 0u);
  EXPECT_EQ(h.version, 1);
  EXPECT_EQ(h.nchan, 1);
  EXPECT_EQ(h.frame_bytes, 5032);
  EXPECT_FALSE(h.complex_samples);
  EXPECT_EQ(h.bits, 2);
  EXPECT_EQ(h.thread_id, 1);
  EXPECT_EQ(h.station_id, 0xFFFC);
  EXPECT_EQ(h.edv, 3);
  EXPECT_DOUBLE_EQ(h.edv3_sample_rate_hz, 32e6);
  EXPECT_EQ(h.samples_per_frame(), 20000);
  EXPECT_EQ(rapt::vdif_epoch_mjd(28), 56658);  // 2014-01-01
}

TEST(VdifReader, ReadsVlbaSampleThreadsAsChannels) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample.vdif");
  rapt::VdifReader reader(path, {});
  const rapt::VoltageHeader& h = reader.header();
  EXPECT_EQ(h.format, "VDIF");
  EXPECT_FALSE(h.pointing_known);  // VDIF frames name no direction
  EXPECT_EQ(h.nchan, 8);
  EXPECT_EQ(h.npol, 1);
  EXPECT_FALSE(h.complex_samples);
  EXPECT_EQ(h.nsamples, 40000);
  EXPECT_DOUBLE_EQ(h.tsamp_s, 1 / 32e6);
  EXPECT_EQ(h.start_mjd_day, 56824);
  EXPECT_DOUBLE_EQ(h.start_mjd_seconds, 21367);
  rapt::VoltageBlock block;
  ASSERT_EQ(reader.read(40000, block), 40000);
  const std::map<int, std::vector<int>> first12 = {
      {1, {1, 1, 1, -3, 1, 1, -3, -3, -3, 3, 3, -1}},
      {0, {-1, -1, 3, -1, 1, -1, 3, -1, 1, 3, -1, 1}},
      {3, {-1, 1, -1, 1, -3, -1, 3, -1, 3, -3, 1, 3}}};
  for (const auto& [thread, levels] : first12)
    for (int t = 0; t < 12; ++t)
      EXPECT_EQ(int(voltage_value(h, block, thread, 0, t, 0)), levels[size_t(t)]) << thread << " " << t;
  EXPECT_FLOAT_EQ(voltage_value(h, block, 1, 0, 3, 0), -3.3359f);
  const int sums[8][2] = {{30071, 30041}, {30335, 30086}, {30112, 30037}, {30002, 30197},
                          {29864, 30033}, {29956, 29796}, {29954, 29834}, {29938, 29953}};
  for (int c = 0; c < 8; ++c) {
    for (int frame = 0; frame < 2; ++frame) {
      int sum = 0;
      for (int t = frame * 20000; t < (frame + 1) * 20000; ++t)
        sum += two_bit_code(voltage_value(h, block, c, 0, t, 0));
      EXPECT_EQ(sum, sums[c][frame]) << "thread " << c << " frame " << frame;
    }
  }
}

TEST(VdifReader, ReadsMwaSampleAsTwosComplement) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_mwa.vdif");
  rapt::VdifReadOptions options;
  options.sample_rate_hz = 1.28e6;
  options.twos_complement = true;
  rapt::VdifReader reader(path, options);
  const rapt::VoltageHeader& h = reader.header();
  EXPECT_EQ(h.nchan, 2);
  EXPECT_TRUE(h.complex_samples);
  EXPECT_EQ(h.nbits, 8);
  EXPECT_EQ(h.nsamples, 1280);
  EXPECT_EQ(reader.first_frame().station_id, 0x6d77);
  EXPECT_EQ(h.start_mjd_day, 57298);  // 2015-10-03T20:49:45
  EXPECT_DOUBLE_EQ(h.start_mjd_seconds, 20 * 3600 + 49 * 60 + 45);
  rapt::VoltageBlock block;
  ASSERT_EQ(reader.read(2000, block), 1280);
  // Bytes: t0 ch0 re, im, ch1 re, im; t1 ...
  const int first[16] = {-55, -4, -32, 25, 26, 3, 44, -24, 62, 35, 79, -5, 57, -62, 28, -82};
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(voltage_value(h, block, i / 2 % 2, 0, i / 4, 0, i % 2), first[i]) << i;
}

TEST(VdifReader, DecodesOffsetBinaryByDefault) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_mwa.vdif");
  rapt::VdifReadOptions options;
  options.sample_rate_hz = 1.28e6;
  rapt::VdifReader reader(path, options);
  rapt::VoltageBlock block;
  ASSERT_EQ(reader.read(1280, block), 1280);
  EXPECT_EQ(block.data[0], 201 - 127.5f);
  double sum = 0;
  for (float v : block.data) sum += v;
  EXPECT_DOUBLE_EQ(sum, 645155 - 127.5 * 5120);  // the sum of all payload bytes, offset
}

TEST(VdifReader, TakesTheSkyFrequencyAndSidebandFromTheOptions) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_mwa.vdif");
  rapt::VdifReadOptions options;
  options.sample_rate_hz = 1.28e6;
  {
    rapt::VdifReader reader(path, options);
    EXPECT_EQ(reader.header().centre_freq_mhz, 0);
    EXPECT_DOUBLE_EQ(reader.header().bandwidth_mhz, 2.56);  // 2 complex channels of 1.28 MHz
    ASSERT_EQ(reader.warnings().size(), 1u);
    EXPECT_EQ(reader.warnings()[0].rfind("VDIF carries no sky frequency", 0), 0u);
  }
  options.centre_freq_mhz = 184.96;
  options.lower_sideband = true;
  rapt::VdifReader reader(path, options);
  EXPECT_EQ(reader.header().centre_freq_mhz, 184.96);
  EXPECT_DOUBLE_EQ(reader.header().bandwidth_mhz, -2.56);
  EXPECT_DOUBLE_EQ(reader.header().channel_freq_mhz(0), 184.96 + 0.64);  // the highest
  EXPECT_TRUE(reader.warnings().empty());
}

// A lower sideband's complex samples hold each channel's spectrum reversed: they are read
// conjugated, in the sky sense of rapt(7) (a tone above a channel's centre in the recording is
// below it on the sky).
TEST(VdifReader, ConjugatesComplexSamplesOfALowerSideband) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_mwa.vdif");
  rapt::VdifReadOptions options;
  options.sample_rate_hz = 1.28e6;
  options.twos_complement = true;
  rapt::VoltageBlock upper, lower;
  {
    rapt::VdifReader reader(path, options);
    ASSERT_EQ(reader.read(1280, upper), 1280);
  }
  options.lower_sideband = true;
  rapt::VdifReader reader(path, options);
  ASSERT_EQ(reader.read(1280, lower), 1280);
  const rapt::VoltageHeader& h = reader.header();
  for (int t = 0; t < 1280; t += 97)
    for (int c = 0; c < 2; ++c) {
      EXPECT_EQ(voltage_value(h, lower, c, 0, t, 0, 0), voltage_value(h, upper, c, 0, t, 0, 0));
      EXPECT_EQ(voltage_value(h, lower, c, 0, t, 0, 1), -voltage_value(h, upper, c, 0, t, 0, 1));
    }
}

TEST(VdifReader, NeedsTheSampleRateWhenHeadersLackIt) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_mwa.vdif");
  const std::string error = data_error_text([&] { rapt::VdifReader reader(path, {}); });
  EXPECT_EQ(error.rfind(path + ": VDIF sample rate unknown", 0), 0u) << error;
}

TEST(VdifReader, ReadsTheWholeFramesOfAFileCutShortAndSaysSo) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_mwa.vdif");
  ScratchDir dir;
  const std::string cut = dir.file("cut.vdif");
  write_whole_file(cut, read_whole_file(path).substr(0, 5000));  // 9 frames of 544, 104 bytes
  rapt::VdifReadOptions options;
  options.sample_rate_hz = 1.28e6;
  rapt::VdifReader reader(cut, options), whole(path, options);
  EXPECT_EQ(reader.header().nsamples, 9 * 128);
  const std::vector<std::string>& warnings = reader.warnings();
  EXPECT_NE(std::find(warnings.begin(), warnings.end(),
                      "ignored 104 bytes at the end (less than one VDIF frame of 544 bytes)"),
            warnings.end());
  rapt::VoltageBlock got, expected;
  ASSERT_EQ(reader.read(2000, got), 9 * 128);
  ASSERT_EQ(whole.read(9 * 128, expected), 9 * 128);
  EXPECT_EQ(got.data, expected.data);
  write_whole_file(cut, read_whole_file(path).substr(0, 500));
  EXPECT_EQ(data_error_text([&] { rapt::VdifReader reader(cut, options); }),
            cut + ": file size 500 bytes is less than one VDIF frame of 544 bytes");
}

TEST(VdifReader, RejectsUnsupportedSampleSize) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_mwa.vdif");
  ScratchDir dir;
  std::string bytes = read_whole_file(path);
  for (size_t f = 0; f < bytes.size(); f += 544) bytes[f + 15] = char(0x80 | (11 << 2));  // 12 bits
  const std::string odd = dir.file("odd.vdif");
  write_whole_file(odd, bytes);
  EXPECT_EQ(data_error_text([&] { rapt::VdifReader reader(odd, {}); }),
            odd + ": VDIF samples of 12 bits are not supported");
}

TEST(VdifFrameHeader, RejectsFrameShorterThanItsHeader) {
  uint8_t bytes[32] = {};
  bytes[8] = 2;  // 16 bytes
  EXPECT_EQ(data_error_text([&] { rapt::parse_vdif_frame_header(bytes, 32, "f.vdif"); }),
            "f.vdif: VDIF frame length 16 bytes leaves no payload after the 32-byte header");
}
