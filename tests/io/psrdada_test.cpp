// PSRDADA: the EDD sample's known answers, header keys and orders, bad headers, and native
// writer round trips (8/16-bit integers and floats, blocks not multiples of INNER_T, pipes).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <thread>

#include "io/psrdada.hpp"
#include "io/voltage_layout.hpp"
#include "test_data.hpp"
#include "voltage_test_support.hpp"

using rapt::testing::data_error_text;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::voltage_value;
using rapt::testing::write_whole_file;

namespace {

// A header of 4096 bytes from `lines` (each "KEY value\n").
std::string dada_header_text(const std::string& lines) {
  std::string text = "HDR_SIZE 4096\n" + lines;
  text.resize(4096, '\0');
  return text;
}

const char* kSmallKeys =
    "NCHAN 2\nNPOL 2\nNDIM 2\nNBIT 8\nTSAMP 1.5\nUTC_START 2024-02-29-12:00:00.5\n"
    "FREQ 1400\nBW 1.3333333333333333\nRA 04:37:15.9\nDEC -47:15:09\n";

rapt::VoltageHeader native_header(int nbits, bool float_samples) {
  rapt::VoltageHeader h;
  h.telescope = "MeerKAT";
  h.source = "J0437-4715";
  h.ra_deg = 69.3158;
  h.dec_deg = -47.2525;
  h.nant = 3;
  h.nchan = 5;
  h.npol = 2;
  h.nbits = nbits;
  h.float_samples = float_samples;
  h.centre_freq_mhz = 1284;
  h.bandwidth_mhz = -856;
  h.tsamp_s = 5 / 856e6;  // complex channels 856 / 5 MHz wide
  h.start_mjd_day = 60310;
  h.start_mjd_seconds = 43210.123456789;
  h.pol_basis = "CIRC";
  for (int a = 0; a < 3; ++a)
    h.array.antennas.push_back({"m00" + std::to_string(a), {5109224.0 + a, 2006790.5, -3239100.25}, 13.5});
  return h;
}

// Values in the range of `nbits`, some outside it when `overflow`.
rapt::VoltageBlock ramp_block(const rapt::VoltageHeader& h, int64_t nsamples, int64_t first,
                              float scale) {
  rapt::VoltageBlock block;
  block.first_sample = first;
  block.nsamples = nsamples;
  block.data.resize(h.block_values(nsamples));
  for (size_t i = 0; i < block.data.size(); ++i)
    block.data[i] = std::round(float(int((i + size_t(first) * 13) * 37 % 255) - 127) * scale);
  return block;
}

// Writes 700 samples in blocks of 100 and reads them back in blocks of 77.
void expect_round_trip(int nbits, bool float_samples, float scale) {
  ScratchDir dir;
  const rapt::VoltageHeader h = native_header(nbits, float_samples);
  const std::string path = dir.file("out.dada");
  auto writer = rapt::make_psrdada_writer(path, h, false);
  std::vector<rapt::VoltageBlock> written;
  for (int64_t t = 0; t < 700; t += 100) {
    written.push_back(ramp_block(h, 100, t, scale));
    writer->write(written.back());
  }
  writer->commit();
  EXPECT_EQ(writer->clipped_values(), 0);
  rapt::PsrdadaReader reader(path);
  const rapt::VoltageHeader& r = reader.header();
  EXPECT_EQ(r.nsamples, 700);
  EXPECT_EQ(r.nbits, nbits);
  EXPECT_EQ(r.float_samples, float_samples);
  rapt::VoltageBlock all;
  std::vector<float> got_values;
  int64_t total = 0;
  rapt::VoltageBlock piece;
  while (reader.read(77, piece) > 0) {
    for (int64_t t = 0; t < piece.nsamples; ++t) {
      const int64_t sample = piece.first_sample + t;
      const rapt::VoltageBlock& w = written[size_t(sample / 100)];
      for (int c = 0; c < h.nchan; ++c)
        for (int a = 0; a < h.nant; ++a)
          for (int p = 0; p < h.npol; ++p)
            for (int k = 0; k < 2; ++k)
              ASSERT_EQ(voltage_value(r, piece, c, a, t, p, k),
                        voltage_value(h, w, c, a, sample % 100, p, k))
                  << "sample " << sample;
    }
    total += piece.nsamples;
  }
  EXPECT_EQ(total, 700);
  EXPECT_TRUE(reader.warnings().empty());
}

}  // namespace

TEST(PsrdadaReader, ReadsEddSampleHeader) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_meerkat.dada");
  rapt::PsrdadaReader reader(path);
  const rapt::VoltageHeader& h = reader.header();
  EXPECT_EQ(h.format, "PSRDADA");
  EXPECT_EQ(h.telescope, "Effelsberg");
  EXPECT_EQ(h.source, "FRB20200120");
  EXPECT_EQ(h.nchan, 1);
  EXPECT_EQ(h.npol, 2);
  EXPECT_FALSE(h.complex_samples);
  EXPECT_EQ(h.nbits, 8);
  EXPECT_DOUBLE_EQ(h.tsamp_s, 0.00125e-6);
  EXPECT_DOUBLE_EQ(h.centre_freq_mhz, 1400);
  EXPECT_DOUBLE_EQ(h.bandwidth_mhz, 400);
  EXPECT_EQ(h.nsamples, 14336);
  EXPECT_EQ(reader.dada_header().order, "FTP");
  // MJD_START, then OBS_OFFSET: 4276224000000 bytes of 2-byte samples at 1.25 ns.
  EXPECT_EQ(h.start_mjd_day, 59596);
  EXPECT_NEAR(h.start_mjd_seconds, 0.262395813837 * 86400 + 2672.64, 1e-6);
}

TEST(PsrdadaReader, ReadsEddSampleFirstSamples) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_meerkat.dada");
  rapt::PsrdadaReader reader(path);
  const rapt::VoltageHeader& h = reader.header();
  rapt::VoltageBlock block;
  ASSERT_EQ(reader.read(20000, block), 14336);
  const float first[16] = {-15, 5, -20, 40, -14, 2, -8, -7, -8, 35, -17, -6, 0, -25, 27, 15};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(voltage_value(h, block, 0, 0, i / 2, i % 2), first[i]) << i;
  double sum = 0, sum_sq = 0;
  for (float v : block.data) {
    sum += v;
    sum_sq += double(v) * v;
  }
  EXPECT_EQ(sum, -19793);
  EXPECT_EQ(sum_sq, 6737121);
  EXPECT_EQ(reader.read(10, block), 0);
}

TEST(PsrdadaHeader, ReadsUtcStartWithFractionalSeconds) {
  const rapt::DadaHeader h = rapt::parse_dada_header(dada_header_text(kSmallKeys), "x.dada");
  EXPECT_EQ(h.voltage.start_mjd_day, 60369);  // 2024-02-29
  EXPECT_DOUBLE_EQ(h.voltage.start_mjd_seconds, 43200.5);
  EXPECT_EQ(h.order, "TFP");
  EXPECT_EQ(h.voltage.nant, 1);
  EXPECT_TRUE(h.voltage.complex_samples);
  ASSERT_EQ(h.warnings.size(), 1u);  // no ORDER with 2 channels and 2 pols
}

TEST(PsrdadaHeader, PrefersMjdStartAndAddsObsOffset) {
  const rapt::DadaHeader h = rapt::parse_dada_header(
      dada_header_text(std::string(kSmallKeys) + "MJD_START 60000.5\nOBS_OFFSET 800\n"), "x");
  // 800 bytes = 100 samples of 2 chans x 2 pols x 2 bytes, at 1.5 us.
  EXPECT_EQ(h.voltage.start_mjd_day, 60000);
  EXPECT_NEAR(h.voltage.start_mjd_seconds, 43200 + 150e-6, 1e-9);
}

// MJD day 0 is "no start time": a start within it (1858) is taken as none, with a note, and
// OBS_OFFSET moves no start that is not given, so that both read as not known and a writer
// leaves them out alike.
TEST(PsrdadaHeader, TakesAStartInMjdDayZeroAsNone) {
  const std::string keys = "NCHAN 2\nNPOL 2\nNDIM 2\nNBIT 8\nTSAMP 1.5\nFREQ 1400\nBW 1\n"
                           "ORDER TFP\n";
  const rapt::DadaHeader day0 =
      rapt::parse_dada_header(dada_header_text(keys + "MJD_START 0.5\n"), "x");
  EXPECT_FALSE(day0.voltage.start_known());
  EXPECT_EQ(day0.voltage.start_mjd_seconds, 0.0);
  EXPECT_NE(std::find(day0.warnings.begin(), day0.warnings.end(),
                      "DADA start time lies in MJD day 0 (1858-11-17); taken as no start time"),
            day0.warnings.end());
  const rapt::DadaHeader offset =
      rapt::parse_dada_header(dada_header_text(keys + "OBS_OFFSET 800\n"), "x");
  EXPECT_FALSE(offset.voltage.start_known());
  EXPECT_EQ(offset.voltage.start_mjd_seconds, 0.0);
  // Written without a start, read back without one.
  const rapt::DadaHeader again = rapt::parse_dada_header(
      rapt::format_dada_header(offset.voltage, rapt::kDadaInnerT, "x"), "x");
  EXPECT_FALSE(again.voltage.start_known());
  EXPECT_EQ(again.voltage.start_mjd_seconds, 0.0);
}

TEST(PsrdadaReader, ReadsTimeMajorOrders) {
  ScratchDir dir;
  std::string payload(64, '\0');  // 8 samples x 2 chans x 2 pols x (re, im)
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = char(i);
  for (const std::string order : {"TFP", "TPF"}) {
    const std::string path = dir.file(order + ".dada");
    write_whole_file(path, dada_header_text(std::string(kSmallKeys) + "ORDER " + order + "\n") + payload);
    rapt::PsrdadaReader reader(path);
    rapt::VoltageBlock block;
    ASSERT_EQ(reader.read(8, block), 8);
    // t 3, chan 1, pol 0, im
    const int index = order == "TFP" ? ((3 * 2 + 1) * 2 + 0) * 2 + 1 : ((3 * 2 + 0) * 2 + 1) * 2 + 1;
    EXPECT_EQ(voltage_value(reader.header(), block, 1, 0, 3, 0, 1), index) << order;
  }
}

TEST(PsrdadaReader, ReadsChannelMajorFtpWithManyChannels) {
  ScratchDir dir;
  std::string payload(64, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = char(i);
  const std::string path = dir.file("ftp.dada");
  write_whole_file(path, dada_header_text(std::string(kSmallKeys) + "ORDER FTP\n") + payload);
  rapt::PsrdadaReader reader(path);
  rapt::VoltageBlock block;
  ASSERT_EQ(reader.read(5, block), 5);
  ASSERT_EQ(reader.read(5, block), 3);
  // sample 6 of chan 1, pol 1, re: byte ((1 * 8 + 6) * 2 + 1) * 2 = 58
  EXPECT_EQ(voltage_value(reader.header(), block, 1, 0, 1, 1, 0), 58);
}

TEST(PsrdadaReader, ReadsMeerkatStyleTaftpBlocks) {
  ScratchDir dir;
  // 2 antennas, 2 chans, 1 pol, complex, INNER_T 2: blocks of 16 bytes; 2 blocks.
  std::string payload(32, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = char(i);
  const std::string path = dir.file("taftp.dada");
  write_whole_file(path, dada_header_text("NCHAN 2\nNPOL 1\nNDIM 2\nNBIT 8\nTSAMP 1\nNANT 2\n"
                                          "INNER_T 2\nORDER TAFTP\n") + payload);
  rapt::PsrdadaReader reader(path);
  rapt::VoltageBlock block;
  ASSERT_EQ(reader.read(4, block), 4);
  // sample 3 = block 1, t 1; ant 1, chan 0, im: 16 + ((1 * 2 + 0) * 2 + 1) * 2 + 1 = 27
  EXPECT_EQ(voltage_value(reader.header(), block, 0, 1, 3, 0, 1), 27);
}

TEST(PsrdadaReader, WarnsAboutTrailingPartialSample) {
  ScratchDir dir;
  const std::string path = dir.file("odd.dada");
  write_whole_file(path, dada_header_text(kSmallKeys) + std::string(8 * 3 + 5, '\0'));
  rapt::PsrdadaReader reader(path);
  EXPECT_EQ(reader.header().nsamples, 3);
  rapt::VoltageBlock block;
  EXPECT_EQ(reader.read(10, block), 3);
  EXPECT_NE(reader.warnings().back().find("not a whole time sample"), std::string::npos);
}

// kSmallKeys with `key` set to `value` (its line replaced, or added).
std::string small_keys_with(const std::string& key, const std::string& value) {
  std::string out;
  std::istringstream lines(kSmallKeys);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(key + " ", 0) != 0) out += line + "\n";
  return out + key + " " + value + "\n";
}

// 2 antennas, 2 channels, 1 polarisation, complex 8-bit, INNER_T 4: 8-byte rows, 4-byte
// samples, 32-byte blocks. The first block's sample t of antenna a, channel c holds
// (c * 2 + a) * 8 + 2t as its real part.
std::string tfatp_file(const std::string& path, size_t payload_bytes) {
  std::string payload(payload_bytes, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = char(i % 32);
  write_whole_file(path, dada_header_text(small_keys_with("NPOL", "1") +
                                          "NANT 2\nINNER_T 4\nORDER TFATP\n") + payload);
  return path;
}

TEST(PsrdadaReader, LeavesOutABlockCutInsideASample) {
  ScratchDir dir;
  // Two whole blocks, then 9 bytes of a third: not a whole number of 4-byte samples, so the
  // block was cut short and holds no whole samples (its bytes run row by row).
  rapt::PsrdadaReader reader(tfatp_file(dir.file("cut.dada"), 2 * 32 + 9));
  EXPECT_EQ(reader.header().nsamples, 8);
  rapt::VoltageBlock block;
  EXPECT_EQ(reader.read(100, block), 8);
  EXPECT_EQ(voltage_value(reader.header(), block, 1, 0, 5, 0, 0), 16 + 2);  // block 1, t 1
  ASSERT_EQ(reader.warnings().size(), 1u) << "one warning, from the header and the read alike";
  EXPECT_NE(reader.warnings()[0].find("payload ends inside a block of 4 samples (9 bytes"),
            std::string::npos)
      << reader.warnings()[0];
}

TEST(PsrdadaReader, ReadsAShorterLastBlockOfWholeSamples) {
  ScratchDir dir;
  // A last block of 2 samples (16 bytes: rows of 2 samples), as rapt's writer ends a file.
  const std::string path = dir.file("short.dada");
  std::string payload(32 + 16, '\0');
  for (size_t i = 0; i < 32; ++i) payload[i] = char(i);
  for (size_t i = 0; i < 16; ++i) payload[32 + i] = char(100 + i);
  write_whole_file(path, dada_header_text(small_keys_with("NPOL", "1") +
                                          "NANT 2\nINNER_T 4\nORDER TFATP\n") + payload);
  rapt::PsrdadaReader reader(path);
  EXPECT_EQ(reader.header().nsamples, 6);
  rapt::VoltageBlock block;
  EXPECT_EQ(reader.read(100, block), 6);
  // sample 5 = the short block's t 1; channel 1, antenna 0: row 2 of 4-byte rows, + 2
  EXPECT_EQ(voltage_value(reader.header(), block, 1, 0, 5, 0, 0), 100 + 2 * 4 + 2);
  EXPECT_TRUE(reader.warnings().empty());
}

TEST(PsrdadaReader, RefusesASecondHeaderInThePayload) {
  // Streams joined end to end (cat a.dada b.dada): the second header is not read as samples,
  // from a file or a pipe, time-major or in blocks, also where its HDR_SIZE is cut between two
  // reads; the samples before it are read.
  ScratchDir dir;
  std::string payload(64, '\0');  // 8 samples of 8 bytes
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = char(i);
  const std::string one = dada_header_text(std::string(kSmallKeys) + "ORDER TFP\n") + payload;
  const std::string joined = dir.file("joined.dada");
  write_whole_file(joined, one + one);
  const std::string want = "another PSRDADA header (its HDR_SIZE at byte 64 of the data) follows "
                           "the data (streams joined end to end?): read them one by one";
  const auto read_all = [](const std::string& path) {
    rapt::PsrdadaReader reader(path);
    rapt::VoltageBlock block;
    while (reader.read(3, block) > 0) {
    }
  };
  EXPECT_EQ(data_error_text([&] { read_all(joined); }), joined + ": " + want);
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread feeder([&] { write_whole_file(fifo, one + one); });
  EXPECT_EQ(data_error_text([&] { read_all(fifo); }), fifo + ": " + want);
  feeder.join();

  // ORDER FTP (NCHAN 2) reads each channel's part of a file: the header is in channel 0's.
  const std::string ftp = dada_header_text(std::string(kSmallKeys) + "ORDER FTP\n") + payload;
  write_whole_file(joined, ftp + ftp);
  EXPECT_EQ(data_error_text([&] { read_all(joined); }), joined + ": " + want);

  // ORDER TFATP reads one 32-byte block at a time: a header after 61 bytes has "HDR" in the
  // second read and "_SIZE" in the third.
  const std::string blocks = tfatp_file(dir.file("blocks.dada"), 61);
  write_whole_file(joined, read_whole_file(blocks) + one);
  EXPECT_EQ(data_error_text([&] { read_all(joined); }),
            joined + ": another PSRDADA header (its HDR_SIZE at byte 61 of the data) follows the "
                     "data (streams joined end to end?): read them one by one");
  // The first block, read before it, came out.
  rapt::PsrdadaReader reader(joined);
  rapt::VoltageBlock block;
  EXPECT_EQ(reader.read(4, block), 4);
  EXPECT_EQ(voltage_value(reader.header(), block, 1, 0, 1, 0, 0), 16 + 2);
}

TEST(PsrdadaHeader, RefusesAPointingItCannotRead) {
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(small_keys_with("RA", "garbage")),
                                      "x.dada");
            }),
            "x.dada: DADA RA is 'garbage'; expected hh:mm:ss.s or hours in 0 .. 24");
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(small_keys_with("DEC", "+95:00:00")),
                                      "x.dada");
            }),
            "x.dada: DADA DEC is '+95:00:00'; expected dd:mm:ss.s or degrees in -90 .. 90");
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(small_keys_with("RA", "99:00:00")),
                                      "x.dada");
            }),
            "x.dada: DADA RA is '99:00:00'; expected hh:mm:ss.s or hours in 0 .. 24");
}

TEST(PsrdadaHeader, NotesAMissingPointingOrBand) {
  const rapt::DadaHeader h = rapt::parse_dada_header(
      dada_header_text("NCHAN 1\nNPOL 1\nNDIM 2\nNBIT 8\nTSAMP 1\nMJD_START 60000\n"), "x.dada");
  EXPECT_EQ(h.voltage.ra_deg, 0);
  EXPECT_FALSE(h.voltage.pointing_known);
  ASSERT_EQ(h.warnings.size(), 2u);
  EXPECT_EQ(h.warnings[0], "DADA header has no RA or DEC: the pointing is not known");
  EXPECT_EQ(h.warnings[1], "DADA header has no FREQ or BW: the band's frequencies are unknown");
  // RA alone is no pointing either; both are.
  EXPECT_FALSE(rapt::parse_dada_header(dada_header_text("NCHAN 1\nNPOL 1\nNDIM 2\nNBIT 8\nTSAMP 1\n"
                                                        "MJD_START 60000\nRA 04:00:00\n"),
                                       "x.dada")
                   .voltage.pointing_known);
  EXPECT_TRUE(rapt::parse_dada_header(dada_header_text(small_keys_with("RA", "04:00:00")), "x.dada")
                  .voltage.pointing_known);
}

TEST(PsrdadaHeader, AnUnknownPointingComesBackUnknownThroughTheWriter) {
  // Written as RA 0, Dec 0 it would be read as a pointing there, and steered towards.
  const rapt::DadaHeader first = rapt::parse_dada_header(
      dada_header_text("NCHAN 2\nNPOL 1\nNDIM 2\nNBIT 8\nTSAMP 1\nMJD_START 60000\n"), "x.dada");
  const std::string text = rapt::format_dada_header(first.voltage, rapt::kDadaInnerT, "y.dada");
  EXPECT_EQ(text.find("\nRA "), std::string::npos);
  EXPECT_EQ(text.find("\nDEC "), std::string::npos);
  EXPECT_FALSE(rapt::parse_dada_header(text, "y.dada").voltage.pointing_known);
  rapt::VoltageHeader known = first.voltage;
  known.pointing_known = true;
  known.ra_deg = 60.0;
  known.dec_deg = -30.0;
  const rapt::DadaHeader again =
      rapt::parse_dada_header(rapt::format_dada_header(known, rapt::kDadaInnerT, "z.dada"), "z.dada");
  EXPECT_TRUE(again.voltage.pointing_known);
  EXPECT_NEAR(again.voltage.ra_deg, 60.0, 1e-6);
  EXPECT_NEAR(again.voltage.dec_deg, -30.0, 1e-6);
}

TEST(PsrdadaHeader, AnUnknownBandComesBackUnknownThroughTheWriter) {
  // No FREQ or BW: noted, and the header rapt writes from it parses again the same way (not as
  // channels at negative frequencies, which would be refused).
  const rapt::DadaHeader first = rapt::parse_dada_header(
      dada_header_text("NCHAN 2\nNPOL 1\nNDIM 2\nNBIT 8\nTSAMP 1\nMJD_START 60000\n"), "x.dada");
  const rapt::DadaHeader second = rapt::parse_dada_header(
      rapt::format_dada_header(first.voltage, rapt::kDadaInnerT, "y.dada"), "y.dada");
  EXPECT_EQ(second.voltage.centre_freq_mhz, 0);
  EXPECT_EQ(second.voltage.bandwidth_mhz, 0);
  ASSERT_EQ(second.warnings.size(), 2u);  // the pointing, not known either, is noted first
  EXPECT_EQ(second.warnings[1], "DADA header has no FREQ or BW: the band's frequencies are unknown");
  // A bandwidth without a centre (VDIF at baseband) keeps its width.
  rapt::VoltageHeader baseband = first.voltage;
  baseband.bandwidth_mhz = 2.56;
  const rapt::DadaHeader third = rapt::parse_dada_header(
      rapt::format_dada_header(baseband, rapt::kDadaInnerT, "z.dada"), "z.dada");
  EXPECT_EQ(third.voltage.bandwidth_mhz, 2.56);
  EXPECT_EQ(third.voltage.centre_freq_mhz, 0);
}

TEST(PsrdadaHeader, RefusesABandBelowZeroOrOfNoWidth) {
  // The message gives FREQ as the header has it.
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(small_keys_with("FREQ", "-1400")),
                                      "x.dada");
            }).rfind("x.dada: header field FREQ = -1400 MHz", 0),
            0u);
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(small_keys_with("FREQ", "0")),
                                      "x.dada");
            }).rfind("x.dada: header field FREQ = 0 MHz", 0),
            0u);
  // A centre above zero whose band reaches below it.
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(small_keys_with("FREQ", "0.3")),
                                      "x.dada");
            }),
            "x.dada: DADA FREQ 0.3 MHz and BW 1.33333333 MHz put channels from -0.0333333333 to "
            "0.633333333 MHz; every channel must lie between 0 and 1e+07 MHz");
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(small_keys_with("BW", "0")),
                                      "x.dada");
            }).rfind("x.dada: header field BW = 0 MHz", 0),
            0u);
  // Half a band is checked too: a centre below zero without BW, a BW of 0 without FREQ.
  auto band_key_only = [](const std::string& key_value) {
    std::string out;
    std::istringstream lines(kSmallKeys);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("FREQ ", 0) != 0 && line.rfind("BW ", 0) != 0) out += line + "\n";
    return out + key_value + "\n";
  };
  EXPECT_EQ(data_error_text([&] {
              rapt::parse_dada_header(dada_header_text(band_key_only("FREQ -1400")), "x.dada");
            }).rfind("x.dada: header field FREQ = -1400 MHz", 0),
            0u);
  EXPECT_EQ(data_error_text([&] {
              rapt::parse_dada_header(dada_header_text(band_key_only("BW 0")), "x.dada");
            }).rfind("x.dada: header field BW = 0 MHz", 0),
            0u);
  EXPECT_NE(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(small_keys_with("TSAMP", "1e20")),
                                      "x.dada");
            }).find("x.dada"),
            std::string::npos);
}

TEST(PsrdadaHeader, NotesAHeaderSizeOfNoWholePages) {
  const std::string note = "DADA HDR_SIZE 4097 is not a whole number of 512-byte pages; if the "
                           "header was damaged, every sample is read from the wrong bytes";
  std::string text = dada_header_text(kSmallKeys);
  const std::vector<std::string> whole = rapt::parse_dada_header(text, "x.dada").warnings;
  const size_t at = text.find("HDR_SIZE 4096");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 13, "HDR_SIZE 4097");
  const std::vector<std::string> odd = rapt::parse_dada_header(text, "x.dada").warnings;
  ASSERT_EQ(odd.size(), whole.size() + 1);
  EXPECT_EQ(odd[0], note);
}

TEST(PsrdadaHeader, NotesASampleTimeThatDisagreesWithTheChannelWidth) {
  // 2 complex channels of 0.6667 MHz are sampled every 1.5 us; 3 us says otherwise.
  const rapt::DadaHeader h = rapt::parse_dada_header(
      dada_header_text(small_keys_with("TSAMP", "3") + "ORDER TFP\n"), "x.dada");
  ASSERT_EQ(h.warnings.size(), 1u);
  EXPECT_NE(h.warnings[0].find("TSAMP is 3 us but complex channels 0.666666667 MHz wide are "
                               "sampled every 1.5 us"),
            std::string::npos)
      << h.warnings[0];
}

TEST(PsrdadaHeader, SaysWhyManyAntennasNeedABlockOrder) {
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(std::string(kSmallKeys) + "NANT 4\n"),
                                      "x.dada");
            }),
            "x.dada: DADA NANT is 4, but several antennas need ORDER TFATP or TAFTP and the header "
            "has no ORDER");
}

TEST(PsrdadaHeader, NotesAntennaNamesWithoutPositions) {
  const rapt::DadaHeader h = rapt::parse_dada_header(
      dada_header_text(small_keys_with("NPOL", "1") +
                       "NANT 2\nINNER_T 4\nORDER TFATP\nANT_NAMES a,b\n"),
      "x.dada");
  ASSERT_EQ(h.voltage.array.size(), 2);
  ASSERT_EQ(h.warnings.size(), 1u);
  EXPECT_EQ(h.warnings[0], "ANT_NAMES comes without ANT_ITRF: the antennas have no positions");
  // A program that needs positions says the voltages have none.
  EXPECT_EQ(data_error_text([&] { rapt::voltage_array_layout("", h.voltage, "x.dada", true); }),
            "x.dada: the voltages carry no antenna positions (ANT_NAMES comes without ANT_ITRF); "
            "give --layout FILE");
}

// An antenna list that does not match NANT is set aside with its positions; a program that
// needs them says why there are none.
TEST(PsrdadaHeader, SetsAsideAnAntennaListOfAnotherLength) {
  const rapt::DadaHeader h = rapt::parse_dada_header(
      dada_header_text(small_keys_with("NPOL", "1") +
                       "NANT 3\nINNER_T 4\nORDER TFATP\nANT_NAMES a,b\n"
                       "ANT_ITRF 5109224,2006790.5,-3239100.25,5109225,2006790.5,-3239100.25\n"),
      "x.dada");
  EXPECT_EQ(h.voltage.array.size(), 0);
  ASSERT_EQ(h.warnings.size(), 1u);
  EXPECT_EQ(h.warnings[0], "ANT_NAMES lists 2 antennas, NANT is 3; ignored");
  EXPECT_EQ(data_error_text([&] { rapt::voltage_array_layout("", h.voltage, "x.dada", true); }),
            "x.dada: the voltages carry no antenna positions (ANT_NAMES lists 2 antennas, NANT is "
            "3); give --layout FILE");
}

// Stations are told apart by name (flags files, the outputs' antenna tables).
TEST(PsrdadaHeader, RefusesAStationNamedTwice) {
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(
                  dada_header_text(small_keys_with("NPOL", "1") +
                                   "NANT 3\nINNER_T 4\nORDER TFATP\nANT_NAMES a,b,a\n"),
                  "x.dada");
            }),
            "x.dada: DADA ANT_NAMES lists 'a' twice");
}

// A layout file whose antennas the header names (ANT_NAMES) in another order is taken by name,
// in the voltages' order; one whose names the header lacks keeps its own order.
TEST(VoltageArrayLayout, TakesALayoutFilesAntennasByTheHeadersNames) {
  const rapt::DadaHeader h = rapt::parse_dada_header(
      dada_header_text(small_keys_with("NPOL", "1") +
                       "NANT 3\nINNER_T 4\nORDER TFATP\nANT_NAMES m000,m001,m002\n"),
      "x.dada");
  rapt::testing::ScratchDir dir;
  const std::string reversed = dir.file("reversed.txt"), other = dir.file("other.txt");
  std::FILE* f = std::fopen(reversed.c_str(), "w");
  std::fputs("# frame: enu -30.7 21.4 1050\nm002 20 0 0\nm001 10 0 0\nm000 0 0 0\n", f);
  std::fclose(f);
  f = std::fopen(other.c_str(), "w");
  std::fputs("# frame: enu -30.7 21.4 1050\na 20 0 0\nb 10 0 0\nc 0 0 0\n", f);
  std::fclose(f);
  const rapt::ArrayLayout by_name = rapt::voltage_array_layout(reversed, h.voltage, "x.dada", true);
  ASSERT_EQ(by_name.size(), 3);
  EXPECT_EQ(by_name.antennas[0].name, "m000");
  EXPECT_EQ(by_name.antennas[2].name, "m002");
  const rapt::ArrayLayout file = rapt::read_layout_file(reversed);
  EXPECT_EQ(by_name.antennas[0].itrf_m, file.antennas[2].itrf_m);
  EXPECT_EQ(by_name.antennas[2].itrf_m, file.antennas[0].itrf_m);
  const rapt::ArrayLayout unnamed = rapt::voltage_array_layout(other, h.voltage, "x.dada", true);
  EXPECT_EQ(unnamed.antennas[0].name, "a");
  EXPECT_EQ(unnamed.antennas[2].name, "c");
}

TEST(PsrdadaHeader, RejectsBlockOrderWithoutNant) {
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text(std::string(kSmallKeys) +
                                                       "ORDER TFATP\nINNER_T 256\n"), "x.dada");
            }),
            "x.dada: DADA header has no NANT");
}

TEST(PsrdadaHeader, RejectsMissingNchan) {
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text("NPOL 2\nNBIT 8\nTSAMP 1\n"), "x.dada");
            }),
            "x.dada: DADA header has no NCHAN");
}

TEST(PsrdadaHeader, RejectsZeroChannels) {
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text("NCHAN 0\nNPOL 2\nNBIT 8\nTSAMP 1\n"), "x.dada");
            }),
            "x.dada: DADA NCHAN is '0'; expected an integer in 1 .. 16777216");
}

TEST(PsrdadaHeader, RejectsUnsupportedNbit) {
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text("NCHAN 1\nNPOL 2\nNBIT 3\nTSAMP 1\n"), "x.dada");
            }),
            "x.dada: DADA NBIT 3 is not supported (8, 16, 32)");
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text("NCHAN 1\nNPOL 2\nNBIT -16\nTSAMP 1\n"), "x.dada");
            }),
            "x.dada: DADA NBIT -16 (IEEE half-precision floats) is not supported");
}

TEST(PsrdadaHeader, RejectsNonPositiveTsamp) {
  EXPECT_EQ(data_error_text([] {
              rapt::parse_dada_header(dada_header_text("NCHAN 1\nNPOL 2\nNBIT 8\nTSAMP 0\n"), "x.dada");
            }),
            "x.dada: DADA TSAMP is '0'; must be a positive number of microseconds");
  EXPECT_NE(data_error_text([] {
              rapt::parse_dada_header(dada_header_text("NCHAN 1\nNPOL 2\nNBIT 8\nTSAMP -2\n"), "x.dada");
            }).find("TSAMP is '-2'"),
            std::string::npos);
}

TEST(PsrdadaReader, RejectsHeaderSizeBiggerThanTheFile) {
  ScratchDir dir;
  const std::string path = dir.file("big.dada");
  std::string text = "HDR_SIZE 8192\n" + std::string(kSmallKeys);
  text.resize(5000, '\0');
  write_whole_file(path, text);
  EXPECT_EQ(data_error_text([&] { rapt::PsrdadaReader reader(path); }),
            path + ": DADA HDR_SIZE 8192 is bigger than the file (5000 bytes)");
}

TEST(PsrdadaWriter, RoundTripsEightBitIntegers) { expect_round_trip(8, false, 1.0f); }
TEST(PsrdadaWriter, RoundTripsSixteenBitIntegers) { expect_round_trip(16, false, 250.0f); }
TEST(PsrdadaWriter, RoundTripsFloats) { expect_round_trip(32, true, 0.37f); }

// A stream's first bytes, read to tell its format (inspect -), handed to the reader: the same
// samples wherever the cut falls (in the header, at its end, in the payload, past the end).
TEST(PsrdadaReader, TakesTheBytesReadToTellTheFormat) {
  ScratchDir dir;
  const rapt::VoltageHeader h = native_header(8, false);
  const std::string path = dir.file("whole.dada");
  auto writer = rapt::make_psrdada_writer(path, h, false);
  for (int64_t t = 0; t < 700; t += 100) writer->write(ramp_block(h, 100, t, 1.0f));
  writer->commit();
  const auto read_all = [](rapt::PsrdadaReader& reader) {
    std::vector<float> values;
    rapt::VoltageBlock block;
    while (reader.read(64, block) > 0) values.insert(values.end(), block.data.begin(), block.data.end());
    return values;
  };
  rapt::PsrdadaReader whole(path);
  const std::vector<float> expected = read_all(whole);
  ASSERT_EQ(expected.size(), h.block_values(700));
  const size_t file_bytes = read_whole_file(path).size();
  const size_t header_bytes = size_t(whole.dada_header().hdr_size);
  for (const size_t cut : {size_t(0), size_t(100), header_bytes - 1, header_bytes,
                           header_bytes + 1001, size_t(65536), file_bytes}) {
    SCOPED_TRACE("first " + std::to_string(cut) + " bytes read before");
    FILE* file = std::fopen(path.c_str(), "rb");
    ASSERT_NE(file, nullptr);
    std::vector<uint8_t> first(cut);
    first.resize(std::fread(first.data(), 1, first.size(), file));
    rapt::PsrdadaReader reader(path, file, std::move(first));
    EXPECT_EQ(reader.header().nsamples, 700);
    EXPECT_EQ(read_all(reader), expected);
  }
}

TEST(PsrdadaWriter, KeepsTheDishSizesAndTheArraysReferencePosition) {
  // A layout's geometry passes through the file whole: a program reading it without --layout
  // writes the same antenna table and delays as one given the layout.
  ScratchDir dir;
  rapt::VoltageHeader h = native_header(8, false);
  for (rapt::Antenna& a : h.array.antennas) a.dish_diameter_m = 13.5;
  h.array.antennas[1].dish_diameter_m = 0;  // unknown stays unknown
  h.array.reference_itrf_m = {5109000.5, 2006800.25, -3239000.125};
  const std::string path = dir.file("h.dada");
  auto writer = rapt::make_psrdada_writer(path, h, false);
  writer->write(ramp_block(h, 3, 0, 1.0f));
  writer->commit();
  rapt::PsrdadaReader reader(path);
  const rapt::ArrayLayout& r = reader.header().array;
  ASSERT_EQ(r.size(), 3);
  EXPECT_EQ(r.antennas[0].dish_diameter_m, 13.5);
  EXPECT_EQ(r.antennas[1].dish_diameter_m, 0);
  EXPECT_EQ(r.reference_itrf_m, h.array.reference_itrf_m);
  EXPECT_TRUE(reader.warnings().empty());
}

TEST(PsrdadaHeader, NotesBadDishSizesAndReferenceAndFallsBack) {
  const std::string keys = small_keys_with("NPOL", "1") +
                           "NANT 2\nINNER_T 4\nORDER TFATP\nANT_NAMES a,b\n"
                           "ANT_ITRF 1,2,3,5,6,7\n";
  const rapt::DadaHeader h = rapt::parse_dada_header(
      dada_header_text(keys + "ANT_DIAMETER 25\nARRAY_ITRF 1,2\n"), "x.dada");
  ASSERT_EQ(h.warnings.size(), 2u);
  EXPECT_EQ(h.warnings[0], "ANT_DIAMETER is not one size of 0 to 1000 m per antenna; ignored");
  EXPECT_EQ(h.warnings[1], "ARRAY_ITRF is not 3 numbers of a place on the Earth's surface (ITRF "
                           "metres); the antennas' mean position is taken as the array's reference");
  EXPECT_EQ(h.voltage.array.antennas[0].dish_diameter_m, 0);
  EXPECT_EQ(h.voltage.array.reference_itrf_m, (rapt::ItrfPosition{3, 4, 5}));
  // Finite but not physical: a dish 5 km across, a reference at the Earth's centre, NaN.
  for (const char* bad : {"ANT_DIAMETER 25,5000\nARRAY_ITRF 1,2,3\n",
                          "ANT_DIAMETER 25,nan\nARRAY_ITRF 5109224,nan,-3239100\n"}) {
    const rapt::DadaHeader odd = rapt::parse_dada_header(dada_header_text(keys + bad), "x.dada");
    ASSERT_EQ(odd.warnings.size(), 2u) << bad;
    EXPECT_EQ(odd.voltage.array.antennas[1].dish_diameter_m, 0) << bad;
    EXPECT_EQ(odd.voltage.array.reference_itrf_m, (rapt::ItrfPosition{3, 4, 5})) << bad;
  }
  // A reference on the Earth's surface is taken.
  const rapt::DadaHeader good = rapt::parse_dada_header(
      dada_header_text(keys + "ANT_DIAMETER 25,13.5\nARRAY_ITRF 5109224,2006790,-3239100\n"),
      "x.dada");
  EXPECT_EQ(good.voltage.array.antennas[1].dish_diameter_m, 13.5);
  EXPECT_EQ(good.voltage.array.reference_itrf_m, (rapt::ItrfPosition{5109224, 2006790, -3239100}));
}

TEST(PsrdadaWriter, WritesNativeHeaderKeysAndAntennas) {
  ScratchDir dir;
  const rapt::VoltageHeader h = native_header(8, false);
  const std::string path = dir.file("h.dada");
  auto writer = rapt::make_psrdada_writer(path, h, false);
  writer->write(ramp_block(h, 3, 0, 1.0f));
  writer->commit();
  const std::string bytes = read_whole_file(path);
  ASSERT_EQ(bytes.size(), 4096u + 3 * 5 * 3 * 2 * 2);
  for (const char* key : {"HEADER      DADA\n", "HDR_VERSION ", "INSTRUMENT  RAPT\n",
                          "ORDER       TFATP\n", "INNER_T     256\n", "NANT        3\n",
                          "ANT_NAMES   m000,m001,m002\n", "ANT_ITRF    5109224,2006790.5,-3239100.25,",
                          "RESOLUTION  15360", "POL_BASIS   CIRC", "CHAN_FREQ0"})
    EXPECT_NE(bytes.find(key), std::string::npos) << key;
  rapt::PsrdadaReader reader(path);
  const rapt::VoltageHeader& r = reader.header();
  ASSERT_EQ(r.array.size(), 3);
  EXPECT_EQ(r.array.antennas[2].name, "m002");
  EXPECT_DOUBLE_EQ(r.array.antennas[2].itrf_m[0], 5109226.0);
  EXPECT_DOUBLE_EQ(r.array.antennas[1].itrf_m[2], -3239100.25);
  EXPECT_EQ(r.start_mjd_day, 60310);
  EXPECT_NEAR(r.start_mjd_seconds, 43210.123456789, 1e-6);
  EXPECT_NEAR(r.ra_deg, 69.3158, 1e-5);
  EXPECT_NEAR(r.dec_deg, -47.2525, 1e-5);
  EXPECT_DOUBLE_EQ(r.bandwidth_mhz, -856);
  EXPECT_NEAR(r.tsamp_s, h.tsamp_s, 1e-20);
  EXPECT_EQ(r.pol_basis, "CIRC");
  EXPECT_EQ(r.source, "J0437-4715");
}

TEST(PsrdadaWriter, GrowsTheHeaderByWholePagesForManyAntennas) {
  ScratchDir dir;
  rapt::VoltageHeader h = native_header(8, false);
  h.nant = 128;  // names and ITRF positions need more than one 4096-byte page
  h.array.antennas.clear();
  for (int a = 0; a < 128; ++a)
    h.array.antennas.push_back({"m" + std::to_string(100 + a),
                                {5109224.123456 + a, 2006790.654321 - a, -3239100.25 + 0.5 * a}, 13.5});
  const std::string path = dir.file("many.dada");
  auto writer = rapt::make_psrdada_writer(path, h, false);
  writer->write(ramp_block(h, 2, 0, 1.0f));
  writer->commit();
  const std::string bytes = read_whole_file(path);
  ASSERT_EQ(bytes.size(), 8192u + 5 * 128 * 2 * 2 * 2);
  EXPECT_NE(bytes.find("HDR_SIZE    8192\n"), std::string::npos);
  rapt::PsrdadaReader reader(path);
  ASSERT_EQ(reader.header().array.size(), 128);
  EXPECT_EQ(reader.header().array.antennas[127].name, "m227");
  EXPECT_DOUBLE_EQ(reader.header().array.antennas[127].itrf_m[2], -3239100.25 + 63.5);
  rapt::VoltageBlock block;
  ASSERT_EQ(reader.read(10, block), 2);
  EXPECT_EQ(block.data, ramp_block(h, 2, 0, 1.0f).data);
}

TEST(PsrdadaWriter, CountsClippedValues) {
  ScratchDir dir;
  rapt::VoltageHeader h = native_header(8, false);
  h.array = {};
  rapt::VoltageBlock block = ramp_block(h, 2, 0, 1.0f);
  block.data[0] = 128.4f;
  block.data[1] = -300;
  block.data[2] = 126.6f;  // rounds to 127: not clipped
  auto writer = rapt::make_psrdada_writer(dir.file("c.dada"), h, false);
  writer->write(block);
  writer->commit();
  EXPECT_EQ(writer->clipped_values(), 2);
  rapt::PsrdadaReader reader(dir.file("c.dada"));
  rapt::VoltageBlock back;
  ASSERT_EQ(reader.read(2, back), 2);
  EXPECT_EQ(back.data[0], 127);
  EXPECT_EQ(back.data[1], -128);
  EXPECT_EQ(back.data[2], 127);
}

TEST(PsrdadaReader, StreamsFromAPipe) {
  ScratchDir dir;
  const rapt::VoltageHeader h = native_header(16, false);
  const std::string file = dir.file("f.dada");
  auto writer = rapt::make_psrdada_writer(file, h, false);
  const rapt::VoltageBlock block = ramp_block(h, 300, 0, 100.0f);
  writer->write(block);
  writer->commit();
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread feeder([&] { write_whole_file(fifo, read_whole_file(file)); });
  rapt::VoltageBlock back;
  int64_t n = 0;
  {
    rapt::PsrdadaReader reader(fifo);
    EXPECT_EQ(reader.header().nsamples, -1);
    n = reader.read(1000, back);
  }
  feeder.join();
  ASSERT_EQ(n, 300);
  EXPECT_EQ(back.data, block.data);
}

TEST(PsrdadaWriter, WritesToStandardOutputAndReadsFromStandardInput) {
  ScratchDir dir;
  const rapt::VoltageHeader h = native_header(8, false);
  const rapt::VoltageBlock block = ramp_block(h, 300, 0, 1.0f);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::fflush(stdout);  // nothing of ours may reach the child's stdout but the file
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the writer's process: its stdout is the pipe
    close(fds[0]);
    dup2(fds[1], 1);
    auto writer = rapt::make_psrdada_writer("-", h, false);
    writer->write(block);
    writer->commit();
    _exit(0);
  }
  close(fds[1]);
  std::string bytes;
  char buffer[65536];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) bytes.append(buffer, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_EQ(status, 0);
  EXPECT_EQ(bytes.size(), 4096u + 300 * 5 * 3 * 2 * 2);
  const std::string path = dir.file("stdin.dada");
  write_whole_file(path, bytes);
  // Standard input from that file, for the "-" reader.
  const int saved_stdin = dup(0);
  const int file_fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(file_fd, 0);
  dup2(file_fd, 0);
  close(file_fd);
  clearerr(stdin);
  rapt::VoltageBlock back;
  int64_t n = 0;
  {
    rapt::PsrdadaReader reader("-");
    EXPECT_EQ(reader.header().nsamples, 300);  // standard input redirected from a file tells it
    n = reader.read(1000, back);
  }
  dup2(saved_stdin, 0);
  close(saved_stdin);
  clearerr(stdin);
  ASSERT_EQ(n, 300);
  EXPECT_EQ(back.data, block.data);
}

// The native writer holds one block in memory: 256 samples a block, fewer where that block
// would pass 64 MiB (channelize --nchan 1024 of 64 channels of six dual-polarisation stations
// writes 393216 rows of 16 bytes a sample: 8 samples a block, 48 MiB).
TEST(PsrdadaWriter, BlocksOfAtMost64MiB) {
  rapt::VoltageHeader h;
  h.nchan = 64;
  h.nant = 6;
  h.npol = 2;
  h.complex_samples = true;
  h.nbits = 8;
  EXPECT_EQ(rapt::dada_inner_t(h), 256);
  h.nchan = 64 * 1024;
  h.nbits = 32;
  EXPECT_EQ(rapt::dada_inner_t(h), 8);
  h.nchan = 1 << 24;  // one sample is more than 64 MiB: blocks of one
  EXPECT_EQ(rapt::dada_inner_t(h), 1);
  h.nchan = 1;
  h.nant = 1;
  h.npol = 1;
  h.complex_samples = false;
  EXPECT_EQ(rapt::dada_inner_t(h), 256);
}
