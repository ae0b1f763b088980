// GUPPI RAW: the PUPPI sample's known answers, header quirks (DIRECTIO, quoted numbers,
// SIMPLE order, 4/16 bits, several antennas), bad headers, and writer round trips.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "io/guppi_raw.hpp"
#include "io/voltage_stream.hpp"
#include "test_data.hpp"
#include "voltage_test_support.hpp"

using rapt::testing::data_error_text;
using rapt::testing::guppi_card;
using rapt::testing::guppi_end_card;
using rapt::testing::ScratchDir;
using rapt::testing::voltage_value;
using rapt::testing::write_whole_file;

namespace {

struct GuppiSpec {
  int obsnchan = 2;
  int npol = 4;
  int nbits = 8;
  int nants = 1;
  int overlap = 0;
  int64_t ntime = 4;
  std::string pktfmt = "'1SFA    '";
  std::string directio;
  std::string tbin = "1e-6";
  int64_t pktidx = 0;
};

std::string guppi_header(const GuppiSpec& s, int64_t blocsize) {
  std::string text;
  text += guppi_card("BACKEND", "'GUPPI   '");
  text += guppi_card("TELESCOP", "'GBT     '");
  text += guppi_card("SRC_NAME", "'J0000+0000'");
  text += guppi_card("RA_STR", "'12:30:00.0000'");
  text += guppi_card("RA", "187.5");
  text += guppi_card("DEC_STR", "'-45:00:00.000'");
  text += guppi_card("DEC", "-45.0");
  text += guppi_card("BLOCSIZE", std::to_string(blocsize));
  text += guppi_card("OBSNCHAN", std::to_string(s.obsnchan));
  if (s.nants > 1) text += guppi_card("NANTS", std::to_string(s.nants));
  text += guppi_card("NPOL", std::to_string(s.npol));
  text += guppi_card("NBITS", std::to_string(s.nbits));
  text += guppi_card("OBSFREQ", "'1400.0  '");  // quoted numbers occur in the wild
  text += guppi_card("OBSBW", "-2.0");
  text += guppi_card("CHAN_BW", "-1.0");
  text += guppi_card("TBIN", s.tbin);
  text += guppi_card("OVERLAP", std::to_string(s.overlap));
  text += guppi_card("PKTFMT", s.pktfmt);
  text += guppi_card("PKTIDX", std::to_string(s.pktidx));
  text += guppi_card("STT_IMJD", "60000");
  text += guppi_card("STT_SMJD", "3600");
  text += guppi_card("STT_OFFS", "0.25");
  if (!s.directio.empty()) text += guppi_card("DIRECTIO", s.directio);
  text += guppi_end_card();
  if (!s.directio.empty()) text.resize((text.size() + 511) / 512 * 512, '\0');
  return text;
}

std::string guppi_block(const GuppiSpec& s, const std::string& payload) {
  return guppi_header(s, int64_t(payload.size())) + payload;
}

std::string counting_payload(size_t bytes) {
  std::string payload(bytes, '\0');
  for (size_t i = 0; i < bytes; ++i) payload[i] = char(int8_t(int(i % 200) - 100));
  return payload;
}

std::unique_ptr<rapt::GuppiRawReader> open_text(const ScratchDir& dir, const std::string& bytes) {
  const std::string path = dir.file("t.raw");
  write_whole_file(path, bytes);
  return std::make_unique<rapt::GuppiRawReader>(path);
}

}  // namespace

TEST(GuppiRawReader, ReadsPuppiSampleHeader) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_puppi.raw");
  rapt::GuppiRawReader reader(path);
  const rapt::VoltageHeader& h = reader.header();
  EXPECT_EQ(h.format, "GUPPI RAW");
  EXPECT_EQ(h.nchan, 4);
  EXPECT_EQ(h.npol, 2);
  EXPECT_EQ(h.nant, 1);
  EXPECT_TRUE(h.complex_samples);
  EXPECT_EQ(h.nbits, 8);
  EXPECT_DOUBLE_EQ(h.tsamp_s, 0.004);
  EXPECT_DOUBLE_EQ(h.centre_freq_mhz, 356.6875);
  EXPECT_DOUBLE_EQ(h.bandwidth_mhz, 12.5);
  EXPECT_EQ(h.start_mjd_day, 58132);
  EXPECT_DOUBLE_EQ(h.start_mjd_seconds, 51093.0);
  EXPECT_EQ(h.nsamples, 1024 + 3 * 960);
  // RA_STR 18:10:37.2800 and DEC_STR +17:44:37.380, not the RA and DEC cards' 272.655 and
  // 17.7437 degrees, which round them.
  EXPECT_NEAR(h.ra_deg, (18 + 10 / 60.0 + 37.28 / 3600) * 15, 1e-9);
  EXPECT_NEAR(h.dec_deg, 17 + 44 / 60.0 + 37.38 / 3600, 1e-7);
  ASSERT_FALSE(reader.warnings().empty());
  EXPECT_NE(reader.warnings()[0].find("TBIN"), std::string::npos);
}

TEST(GuppiRawReader, ReadsPuppiSampleFirstSamples) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_puppi.raw");
  rapt::GuppiRawReader reader(path);
  const rapt::VoltageHeader& h = reader.header();
  rapt::VoltageBlock block;
  ASSERT_EQ(reader.read(3, block), 3);
  const float t0p0[4][2] = {{-7, 12}, {-32, -10}, {-17, 25}, {16, -5}};
  const float t0p1[4][2] = {{14, 21}, {-5, -7}, {19, -8}, {7, 7}};
  const float t1p0[4][2] = {{5, -3}, {-15, -14}, {-8, 14}, {-6, -18}};
  const float t2p1[4][2] = {{10, -12}, {-3, -10}, {-12, -8}, {4, -27}};
  for (int c = 0; c < 4; ++c) {
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(voltage_value(h, block, c, 0, 0, 0, k), t0p0[c][k]) << c;
      EXPECT_EQ(voltage_value(h, block, c, 0, 0, 1, k), t0p1[c][k]) << c;
      EXPECT_EQ(voltage_value(h, block, c, 0, 1, 0, k), t1p0[c][k]) << c;
      EXPECT_EQ(voltage_value(h, block, c, 0, 2, 1, k), t2p1[c][k]) << c;
    }
  }
}

TEST(GuppiRawReader, PuppiFirstBlockSumsMatchAndOverlapIsDropped) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_puppi.raw");
  rapt::GuppiRawReader reader(path);
  rapt::VoltageBlock block;
  ASSERT_EQ(reader.read(1024, block), 1024);
  double sum = 0, sum_sq = 0;
  for (float v : block.data) {
    sum += v;
    sum_sq += double(v) * v;
  }
  EXPECT_EQ(sum, -3191);
  EXPECT_EQ(sum_sq, 3198321);
  int64_t total = 1024;
  for (int64_t n; (n = reader.read(500, block)) > 0;) total += n;
  EXPECT_EQ(total, 1024 + 3 * 960);
  // PKTIDX 0, 15, 30, 45 is what OVERLAP 64 predicts: no gap warnings, only the TBIN one.
  EXPECT_EQ(reader.warnings().size(), 1u);
}

TEST(GuppiRawHeader, PadsToFiveHundredTwelveWithDirectio) {
  GuppiSpec spec;
  spec.directio = "'1       '";
  const std::string header = guppi_header(spec, 32);
  const rapt::GuppiBlockHeader h = rapt::parse_guppi_header(header, "x.raw");
  EXPECT_EQ(h.header_bytes, 2048u);  // 23 cards = 1840 bytes, padded
  EXPECT_DOUBLE_EQ(h.obsfreq_mhz, 1400.0);
  ScratchDir dir;
  auto reader = open_text(dir, guppi_block(spec, counting_payload(32)));
  rapt::VoltageBlock block;
  ASSERT_EQ(reader->read(10, block), 4);
  EXPECT_EQ(voltage_value(reader->header(), block, 0, 0, 0, 0, 0), -100);
}

TEST(GuppiRawHeader, StartTimeAddsPacketIndex) {
  GuppiSpec spec;
  spec.pktidx = 10;
  std::string header = guppi_header(spec, 32);
  header.insert(header.size() - 80, guppi_card("PKTSIZE", "8"));
  std::vector<std::string> warnings;
  const rapt::VoltageHeader h = rapt::guppi_voltage_header(rapt::parse_guppi_header(header, "x"), warnings);
  // 10 packets of 8 bytes = 10 samples of 2 channels x 2 pols x 2 bytes.
  EXPECT_NEAR(h.start_mjd_seconds, 3600.25 + 10 * 1e-6, 1e-9);
  EXPECT_DOUBLE_EQ(h.bandwidth_mhz, -2.0);
  EXPECT_TRUE(warnings.empty());
}

// MJD day 0 is "no start time": a header without STT_IMJD, or with 0 there, gives none, with a
// note, whatever its STT_SMJD and packet index say.
TEST(GuppiRawHeader, GivesNoStartTimeWithoutSttImjd) {
  auto start = [](const std::string& imjd, std::vector<std::string>& warnings) {
    GuppiSpec spec;
    spec.pktidx = 10;
    std::string header = guppi_header(spec, 32);
    header.erase(header.find(guppi_card("STT_IMJD", "").substr(0, 9)), 80);
    if (!imjd.empty()) header.insert(header.size() - 80, guppi_card("STT_IMJD", imjd));
    return rapt::guppi_voltage_header(rapt::parse_guppi_header(header, "x"), warnings);
  };
  std::vector<std::string> absent, zero;
  const rapt::VoltageHeader a = start("", absent);
  EXPECT_FALSE(a.start_known());
  EXPECT_EQ(a.start_mjd_seconds, 0.0);
  EXPECT_EQ(absent, std::vector<std::string>{"GUPPI header has no STT_IMJD; start MJD 0"});
  const rapt::VoltageHeader z = start("0", zero);
  EXPECT_FALSE(z.start_known());
  EXPECT_EQ(z.start_mjd_seconds, 0.0);
  EXPECT_EQ(zero, std::vector<std::string>{"GUPPI STT_IMJD is 0; taken as no start time"});
  // A program that needs the start names the GUPPI key.
  try {
    rapt::require_start_time(a, "x.raw", "the baselines' geometry needs one");
    FAIL() << "no start time was let through";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "x.raw: carries no start time (STT_IMJD); the baselines' geometry needs one");
  }
}

TEST(GuppiRawHeader, ReadsThePointingLenientlyAndNotesItsAbsence) {
  auto pointing = [](const std::vector<std::pair<std::string, std::string>>& replace,
                     std::vector<std::string>& warnings) {
    std::string header = guppi_header(GuppiSpec{}, 32);
    for (const auto& [key, value] : replace) {
      const size_t at = header.find(guppi_card(key, "").substr(0, 9));
      header.erase(at, 80);
      if (!value.empty()) header.insert(header.size() - 80, guppi_card(key, value));
    }
    return rapt::guppi_voltage_header(rapt::parse_guppi_header(header, "x"), warnings);
  };
  std::vector<std::string> warnings;
  rapt::VoltageHeader h = pointing({}, warnings);
  EXPECT_DOUBLE_EQ(h.ra_deg, 187.5);
  EXPECT_DOUBLE_EQ(h.dec_deg, -45.0);
  EXPECT_TRUE(h.pointing_known);
  EXPECT_TRUE(warnings.empty());
  // A string that does not parse gives way to the degrees, with a note.
  h = pointing({{"RA_STR", "'garbage'"}, {"RA", "10.0"}}, warnings);
  EXPECT_DOUBLE_EQ(h.ra_deg, 10.0);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "GUPPI RA_STR 'garbage' is not an angle; using RA");
  // No pointing at all: noted, as PSRDADA's reader notes it.
  warnings.clear();
  h = pointing({{"RA_STR", ""}, {"RA", ""}, {"DEC_STR", ""}, {"DEC", ""}}, warnings);
  EXPECT_EQ(h.ra_deg, 0.0);
  EXPECT_FALSE(h.pointing_known);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "GUPPI header has no RA or DEC: the pointing is not known");
}

TEST(GuppiRawReader, ReadsSimpleTimeMajorOrder) {
  GuppiSpec spec;
  spec.pktfmt = "'SIMPLE  '";
  ScratchDir dir;
  auto reader = open_text(dir, guppi_block(spec, counting_payload(32)));
  rapt::VoltageBlock block;
  ASSERT_EQ(reader->read(4, block), 4);
  // [time][chan][pol][re,im]: byte ((t * 2 + c) * 2 + p) * 2 + k holds i - 100.
  for (int t = 0; t < 4; ++t)
    for (int c = 0; c < 2; ++c)
      EXPECT_EQ(voltage_value(reader->header(), block, c, 0, t, 1, 1), ((t * 2 + c) * 2 + 1) * 2 + 1 - 100);
}

TEST(GuppiRawReader, ReadsFourAndSixteenBitSamples) {
  ScratchDir dir;
  GuppiSpec spec16;
  spec16.nbits = 16;
  std::string payload16(64, '\0');
  for (int i = 0; i < 32; ++i) {
    const int16_t v = int16_t(i * 1000 - 16000);
    std::memcpy(&payload16[size_t(2 * i)], &v, 2);
  }
  auto reader = open_text(dir, guppi_block(spec16, payload16));
  rapt::VoltageBlock block;
  ASSERT_EQ(reader->read(4, block), 4);
  // chan 1, t 2, pol 1, im = value ((1 * 4 + 2) * 2 + 1) * 2 + 1 = 27
  EXPECT_EQ(voltage_value(reader->header(), block, 1, 0, 2, 1, 1), 27 * 1000 - 16000);

  GuppiSpec spec4;
  spec4.nbits = 4;
  std::string payload4(16, '\0');
  payload4[0] = char(0x7F);  // chan 0, t 0, pol 0: re +7 (high nibble), im -1 (low)
  payload4[15] = char(0x81); // chan 1, t 3, pol 1: re -8, im +1
  auto reader4 = open_text(dir, guppi_block(spec4, payload4));
  ASSERT_EQ(reader4->read(4, block), 4);
  EXPECT_EQ(voltage_value(reader4->header(), block, 0, 0, 0, 0, 0), 7);
  EXPECT_EQ(voltage_value(reader4->header(), block, 0, 0, 0, 0, 1), -1);
  EXPECT_EQ(voltage_value(reader4->header(), block, 1, 0, 3, 1, 0), -8);
  EXPECT_EQ(voltage_value(reader4->header(), block, 1, 0, 3, 1, 1), 1);
}

TEST(GuppiRawReader, SplitsAntennasOutOfTheChannels) {
  GuppiSpec spec;
  spec.obsnchan = 6;
  spec.nants = 3;
  spec.ntime = 2;
  ScratchDir dir;
  // [ant][chan][time][pol][re,im]: 3 x 2 x 2 x 2 x 2 = 48 bytes.
  auto reader = open_text(dir, guppi_block(spec, counting_payload(48)));
  const rapt::VoltageHeader& h = reader->header();
  EXPECT_EQ(h.nant, 3);
  EXPECT_EQ(h.nchan, 2);
  rapt::VoltageBlock block;
  ASSERT_EQ(reader->read(2, block), 2);
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 2; ++c)
      EXPECT_EQ(voltage_value(h, block, c, a, 1, 0, 1), (((a * 2 + c) * 2 + 1) * 2 + 0) * 2 + 1 - 100);
}

TEST(GuppiRawReader, DropsOverlapAndStopsAtShortBlock) {
  GuppiSpec spec;
  spec.overlap = 1;
  ScratchDir dir;
  std::string file = guppi_block(spec, counting_payload(32)) + guppi_block(spec, counting_payload(32));
  file += guppi_header(spec, 32) + "short";
  auto reader = open_text(dir, file);
  rapt::VoltageBlock block;
  ASSERT_EQ(reader->read(100, block), 7);
  // Sample 4 is block 1's second sample: chan 0 pol 0 re = byte 4 of its payload.
  EXPECT_EQ(voltage_value(reader->header(), block, 0, 0, 4, 0, 0), 4 - 100);
  ASSERT_FALSE(reader->warnings().empty());
  EXPECT_NE(reader->warnings().back().find("short"), std::string::npos);
}

TEST(GuppiRawReader, RejectsHeaderWithoutEnd) {
  ScratchDir dir;
  std::string text = guppi_header(GuppiSpec(), 32);
  text.resize(text.size() - 80);
  const std::string path = dir.file("t.raw");
  write_whole_file(path, text);
  const std::string error = data_error_text([&] { rapt::GuppiRawReader reader(path); });
  EXPECT_EQ(error, path + ": GUPPI header has no END card");
}

TEST(GuppiRawReader, RejectsBlocsizeNotWholeSamples) {
  ScratchDir dir;
  const std::string path = dir.file("t.raw");
  write_whole_file(path, guppi_header(GuppiSpec(), 30) + std::string(30, '\0'));
  const std::string error = data_error_text([&] { rapt::GuppiRawReader reader(path); });
  EXPECT_EQ(error, path + ": GUPPI BLOCSIZE 30 is not a whole number of time samples of 8 bytes "
                          "(OBSNCHAN x NPOL x NBITS / 8)");
}

TEST(GuppiRawReader, RejectsBlocsizeLongerThanTheFile) {
  ScratchDir dir;
  const std::string path = dir.file("t.raw");
  write_whole_file(path, guppi_header(GuppiSpec(), 64) + std::string(32, '\0'));
  const std::string error = data_error_text([&] { rapt::GuppiRawReader reader(path); });
  EXPECT_EQ(error, path + ": block 0 has 32 of its BLOCSIZE 64 payload bytes");
}

TEST(GuppiRawHeader, RejectsUnsupportedNbits) {
  GuppiSpec spec;
  spec.nbits = 2;
  EXPECT_EQ(data_error_text([&] { rapt::parse_guppi_header(guppi_header(spec, 32), "x.raw"); }),
            "x.raw: GUPPI NBITS 2 is not supported (4, 8, 16)");
}

TEST(GuppiRawHeader, RejectsNonPositiveTbin) {
  GuppiSpec spec;
  spec.tbin = "-1e-6";
  EXPECT_EQ(data_error_text([&] { rapt::parse_guppi_header(guppi_header(spec, 32), "x.raw"); }),
            "x.raw: GUPPI TBIN must be positive");
}

// OBSFREQ absent: the band is unknown, said once (and a program that needs the sky frequency
// refuses the file); given, it must be a sky frequency.
TEST(GuppiRawHeader, NotesAMissingObsfreqAndRefusesAZeroOne) {
  std::string text = guppi_header(GuppiSpec{}, 32);
  const size_t at = text.find("OBSFREQ");
  std::string without = text;
  without.erase(at, 80);
  std::vector<std::string> warnings;
  const rapt::VoltageHeader h =
      rapt::guppi_voltage_header(rapt::parse_guppi_header(without, "x.raw"), warnings);
  EXPECT_EQ(h.centre_freq_mhz, 0.0);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "GUPPI header has no OBSFREQ: the band's frequencies are unknown");
  std::string zero = text;
  zero.replace(at, 80, guppi_card("OBSFREQ", "0"));
  EXPECT_EQ(data_error_text([&] { rapt::parse_guppi_header(zero, "x.raw"); }),
            "x.raw: GUPPI OBSFREQ is 0; must be a positive sky frequency in MHz");
}

TEST(GuppiRawHeader, RejectsZeroChannels) {
  GuppiSpec spec;
  std::string text = guppi_header(spec, 32);
  const size_t at = text.find("OBSNCHAN");
  text.replace(at, 80, guppi_card("OBSNCHAN", "0"));
  EXPECT_EQ(data_error_text([&] { rapt::parse_guppi_header(text, "x.raw"); }),
            "x.raw: GUPPI card OBSNCHAN is '0'; expected an integer in 1 .. 16777216");
}

TEST(GuppiRawWriter, RoundTripsSamplesAndHeader) {
  ScratchDir dir;
  rapt::VoltageHeader h;
  h.telescope = "GBT";
  h.source = "J1234+5678";
  h.ra_deg = 188.5;
  h.dec_deg = 56.9;
  h.nchan = 3;
  h.npol = 2;
  h.centre_freq_mhz = 1400;
  h.bandwidth_mhz = -3;
  h.tsamp_s = 1e-6;
  h.start_mjd_day = 60000;
  h.start_mjd_seconds = 123.456;
  h.nsamples = 200;  // blocks of 200 samples: 200, 200 and a short one of 100
  rapt::VoltageBlock block;
  block.nsamples = 500;
  block.data.resize(h.block_values(500));
  for (size_t i = 0; i < block.data.size(); ++i) block.data[i] = float(int(i * 7 % 251) - 125);
  block.data[5] = 300;  // clipped to 127
  const std::string path = dir.file("out.raw");
  auto writer = rapt::make_guppi_writer(path, h, false);
  writer->write(block);
  writer->commit();
  EXPECT_EQ(writer->clipped_values(), 1);
  block.data[5] = 127;
  rapt::GuppiRawReader reader(path);
  const rapt::VoltageHeader& r = reader.header();
  EXPECT_EQ(r.nchan, 3);
  EXPECT_EQ(r.npol, 2);
  EXPECT_DOUBLE_EQ(r.bandwidth_mhz, -3);
  EXPECT_DOUBLE_EQ(r.centre_freq_mhz, 1400);
  EXPECT_EQ(r.start_mjd_day, 60000);
  EXPECT_NEAR(r.start_mjd_seconds, 123.456, 1e-9);
  EXPECT_EQ(r.source, "J1234+5678");
  EXPECT_DOUBLE_EQ(r.ra_deg, 188.5);
  rapt::VoltageBlock back;
  ASSERT_EQ(reader.read(1000, back), 500);
  EXPECT_EQ(back.data, block.data);
  EXPECT_TRUE(reader.warnings().empty()) << reader.warnings()[0];
}
