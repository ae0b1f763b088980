// open_voltage_file's format sniffing, and the shared sample and header-text helpers.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cli/errors.hpp"
#include "io/voltage_samples.hpp"
#include "io/voltage_stream.hpp"
#include "io/voltage_text.hpp"
#include "test_data.hpp"
#include "voltage_test_support.hpp"

using rapt::testing::data_error_text;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::write_whole_file;

TEST(OpenVoltageFile, RecognisesEachSampleByItsFirstBytes) {
  RAPT_REQUIRE_SHARED_FILE(puppi, "baseband/sample_puppi.raw");
  RAPT_REQUIRE_SHARED_FILE(vlba, "baseband/sample.vdif");
  RAPT_REQUIRE_SHARED_FILE(mwa, "baseband/sample_mwa.vdif");
  RAPT_REQUIRE_SHARED_FILE(edd, "baseband/sample_meerkat.dada");
  ScratchDir dir;
  // Names that lie about the format: only the bytes count.
  const std::string raw = dir.file("a.dada"), vdif = dir.file("b.raw"), dada = dir.file("c.vdif");
  write_whole_file(raw, read_whole_file(puppi));
  write_whole_file(vdif, read_whole_file(vlba));
  write_whole_file(dada, read_whole_file(edd));
  EXPECT_EQ(rapt::open_voltage_file(raw)->header().format, "GUPPI RAW");
  EXPECT_EQ(rapt::open_voltage_file(vdif)->header().format, "VDIF");
  EXPECT_EQ(rapt::open_voltage_file(dada)->header().format, "PSRDADA");
  const auto mwa_reader = rapt::open_voltage_file(mwa, rapt::VdifReadOptions{1.28e6});
  EXPECT_EQ(mwa_reader->header().format, "VDIF");
  EXPECT_DOUBLE_EQ(mwa_reader->header().tsamp_s, 1 / 1.28e6);
}

TEST(OpenVoltageFile, RejectsTextThatIsNoVoltageFormat) {
  ScratchDir dir;
  const std::string path = dir.file("notes.txt");
  write_whole_file(path, "hello");
  EXPECT_EQ(data_error_text([&] { rapt::open_voltage_file(path); }),
            path + ": not a GUPPI RAW, PSRDADA or VDIF file");
  // A FITS file's cards look like GUPPI RAW's: it is named for what it is.
  std::string fits = "SIMPLE  =                    T";
  fits.resize(2880, ' ');
  write_whole_file(dir.file("image.fits"), fits);
  EXPECT_EQ(data_error_text([&] { rapt::open_voltage_file(dir.file("image.fits")); }),
            dir.file("image.fits") + ": is a FITS file, not voltages (GUPPI RAW, PSRDADA or VDIF)");
  // Any 16 bytes decode as a VDIF header; one announcing a frame longer than the file is none.
  std::string dump(64, '\0');
  dump[8] = dump[9] = dump[10] = '\xff';  // word 2: a frame of 2^24 - 1 eight-byte units
  write_whole_file(dir.file("dump.dat"), dump);
  EXPECT_EQ(data_error_text([&] { rapt::open_voltage_file(dir.file("dump.dat")); }),
            dir.file("dump.dat") + ": not a GUPPI RAW, PSRDADA or VDIF file");
  EXPECT_EQ(data_error_text([&] { rapt::open_voltage_file(dir.file("missing")); }),
            dir.file("missing") + ": cannot open: No such file or directory");
}

TEST(RequirePointing, RefusesAFileThatNamesNoDirection) {
  auto message = [](const rapt::VoltageHeader& h) -> std::string {
    try {
      rapt::require_pointing(h, "x.dada", "--phase-centre");
    } catch (const rapt::UsageError& e) {
      return e.what();
    }
    return "";
  };
  rapt::VoltageHeader h;
  h.format = "PSRDADA";
  EXPECT_EQ(message(h), "");  // a pointing known, even at RA 0, Dec 0, is taken
  h.pointing_known = false;
  EXPECT_EQ(message(h), "x.dada: PSRDADA header names no RA and DEC; give --phase-centre");
  h.format = "VDIF";
  EXPECT_EQ(message(h), "x.dada: VDIF carries no pointing; give --phase-centre");
}

// A file whose band is not known: VDIF without --vdif-freq (an option fixes it), a header
// without a sky frequency (the file lacks it).
TEST(RequireSkyFrequency, RefusesAFileWhoseBandIsUnknown) {
  rapt::VoltageHeader h;
  h.format = "PSRDADA";
  h.centre_freq_mhz = 1400;
  h.bandwidth_mhz = 16;
  EXPECT_NO_THROW(rapt::require_sky_frequency(h, "x.dada", "visibilities need"));
  h.centre_freq_mhz = 0;
  EXPECT_EQ(data_error_text([&] { rapt::require_sky_frequency(h, "x.dada", "visibilities need"); }),
            "x.dada: the PSRDADA header gives no sky frequency (FREQ and BW), which "
            "visibilities need");
  h.format = "GUPPI RAW";
  EXPECT_EQ(data_error_text([&] { rapt::require_sky_frequency(h, "x.raw", "a filterbank needs"); }),
            "x.raw: the GUPPI RAW header gives no sky frequency (OBSFREQ and CHAN_BW), which "
            "a filterbank needs");
  h.format = "VDIF";
  try {
    rapt::require_sky_frequency(h, "x.vdif", "visibilities need");
    ADD_FAILURE() << "VDIF without a sky frequency was taken";
  } catch (const rapt::UsageError& e) {
    EXPECT_STREQ(e.what(), "x.vdif: VDIF carries no sky frequency, which visibilities need: give "
                           "--vdif-freq (MHz)");
  }
  h.centre_freq_mhz = 1400;  // --vdif-freq
  EXPECT_NO_THROW(rapt::require_sky_frequency(h, "x.vdif", "visibilities need"));
}

TEST(VoltageSamples, EncodingRoundsClipsAndDecodesBack) {
  const float in[6] = {1.5f, -2.5f, 200.0f, -129.0f, NAN, 3.49f};
  uint8_t bytes[12];
  EXPECT_EQ(rapt::encode_voltage_values(in, 6, 8, bytes), 3);
  float out[6];
  rapt::decode_voltage_values(bytes, 6, 8, out);
  const float expected[6] = {2, -2, 127, -128, 0, 3};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expected[i]) << i;
  EXPECT_EQ(rapt::encode_voltage_values(in, 6, 16, bytes), 1);
  rapt::decode_voltage_values(bytes, 6, 16, out);
  EXPECT_EQ(out[2], 200);
  EXPECT_EQ(out[3], -129);
  const float nibbles[4] = {7, -8, -1, 9};
  uint8_t packed[2];
  EXPECT_EQ(rapt::encode_voltage_values(nibbles, 4, 4, packed), 1);
  EXPECT_EQ(packed[0], 0x78);
  rapt::decode_voltage_values(packed, 4, 4, out);
  EXPECT_EQ(out[3], 7);
}

// Decoding rows straight into a block equals decoding the chunk and copying its rows, for
// every sample width, from the middle of a chunk into the middle of a block; and rows large
// enough to be shared among threads come out the same as small ones.
TEST(VoltageSamples, DecodingTimeRangesEqualsDecodingThenCopying) {
  struct Case {
    int nbits;
    int64_t nrows, src_ntime, dst_ntime, count;
  };
  // The last two copy 34 MB: more than two 16 MB pieces, so several threads share them.
  for (const Case& k : {Case{4, 3, 40, 50, 17}, Case{8, 3, 40, 50, 17}, Case{16, 3, 40, 50, 17},
                        Case{32, 3, 40, 50, 17}, Case{8, 8200, 300, 280, 260},
                        Case{4, 8200, 300, 280, 260}}) {
    const int64_t per_time = 4, src_t0 = k.src_ntime - k.count - 3, dst_t0 = k.dst_ntime - k.count - 5;
    const size_t nvalues = size_t(k.nrows * k.src_ntime * per_time);
    std::vector<float> values(nvalues);
    for (size_t i = 0; i < nvalues; ++i) values[i] = float(int(i * 7919 % 15) - 7);
    std::vector<uint8_t> bytes(rapt::voltage_bytes(nvalues, k.nbits));
    rapt::encode_voltage_values(values.data(), nvalues, k.nbits, bytes.data());
    std::vector<float> decoded(nvalues);
    rapt::decode_voltage_values(bytes.data(), nvalues, k.nbits, decoded.data());
    std::vector<float> want(size_t(k.nrows * k.dst_ntime * per_time), -99.0f), got = want;
    rapt::copy_time_range(decoded.data(), k.src_ntime, src_t0, want.data(), k.dst_ntime, dst_t0,
                          k.count, k.nrows, per_time);
    rapt::decode_time_range(bytes.data(), k.src_ntime, src_t0, k.nbits, got.data(), k.dst_ntime,
                            dst_t0, k.count, k.nrows, per_time);
    ASSERT_EQ(got, want) << k.nbits << " bits, " << k.nrows << " rows";
    EXPECT_EQ(got[size_t(dst_t0 * per_time)], values[size_t(src_t0 * per_time)]);
  }
}

TEST(VoltageText, ParsesNumbersLeniently) {
  EXPECT_EQ(rapt::parse_lenient_number("'0.0     '"), 0.0);
  EXPECT_EQ(rapt::parse_lenient_number("  12.5 "), 12.5);
  EXPECT_FALSE(rapt::parse_lenient_number("12 apples"));
  EXPECT_FALSE(rapt::parse_lenient_number("''"));
  EXPECT_FALSE(rapt::parse_lenient_integer("1.5"));
  EXPECT_EQ(rapt::parse_lenient_integer("'16384'"), 16384);
}

TEST(VoltageText, ConvertsSexagesimalAndDates) {
  EXPECT_NEAR(*rapt::parse_sexagesimal_value("-47:15:09.1"), -(47 + 15 / 60.0 + 9.1 / 3600), 1e-12);
  EXPECT_FALSE(rapt::parse_sexagesimal_value("1:-2:3"));
  EXPECT_EQ(rapt::format_sexagesimal_value(-0.5, 2), "-00:30:00.00");
  EXPECT_EQ(rapt::format_sexagesimal_value(4.5, 0), "04:30:00");
  // Right ascensions stay below 24 h however they round, and wrap from either side.
  EXPECT_EQ(rapt::format_right_ascension(359.9999999, 4), "00:00:00.0000");
  EXPECT_EQ(rapt::format_right_ascension(359.99, 4), "23:59:57.6000");
  EXPECT_EQ(rapt::format_right_ascension(-15.0, 1), "23:00:00.0");
  EXPECT_EQ(rapt::format_right_ascension(375.0, 0), "01:00:00");
  EXPECT_EQ(rapt::mjd_from_calendar(1858, 11, 17), 0);
  EXPECT_EQ(rapt::mjd_from_calendar(2000, 1, 1), 51544);
  int y, m, d;
  rapt::calendar_from_mjd(60369, y, m, d);
  EXPECT_EQ(y * 10000 + m * 100 + d, 20240229);
  int day = 100;
  double seconds = -1.0;
  rapt::normalise_mjd(day, seconds);
  EXPECT_EQ(day, 99);
  EXPECT_DOUBLE_EQ(seconds, 86399.0);
}
