// inspect on voltage files: the shared GUPPI RAW, VDIF and PSRDADA samples against the known
// answers of formats-interferometry.md section 8, a native multi-antenna file of our own
// writer, and one test per bad input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inspect/inspect_report.hpp"
#include "inspect_test_support.hpp"
#include "io/voltage_stream.hpp"
#include "test_data.hpp"

using rapt::testing::contains;
using rapt::testing::inspect_error;
using rapt::testing::number_after;
using rapt::testing::report_line_of;
using rapt::testing::ScratchDir;

namespace {

// Two antennas (m000, m001), two channels around 1400 MHz, two polarisations, 8-bit complex,
// four samples: re = antenna + 1, im = -3 in X and +4 in Y.
rapt::VoltageHeader small_array_header() {
  rapt::VoltageHeader h;
  h.format = "PSRDADA";
  h.telescope = "MeerKAT";
  h.instrument = "rapt";
  h.source = "J0437-4715";
  h.ra_deg = 69.316;
  h.dec_deg = -47.2525;
  h.nant = 2;
  h.nchan = 2;
  h.npol = 2;
  h.nbits = 8;
  h.centre_freq_mhz = 1400.0;
  h.bandwidth_mhz = 2.0;
  h.tsamp_s = 1e-6;
  h.start_mjd_day = 60000;
  h.start_mjd_seconds = 3630.5;
  h.array.telescope = "MeerKAT";
  h.array.antennas = {{"m000", {5109224.0, 2006790.0, -3239100.0}, 13.5},
                      {"m001", {5109200.0, 2006800.0, -3239120.0}, 13.5}};
  return h;
}

std::string write_small_array_file(const ScratchDir& dir) {
  const rapt::VoltageHeader h = small_array_header();
  rapt::VoltageBlock block;
  block.nsamples = 4;
  for (int c = 0; c < h.nchan; ++c)
    for (int a = 0; a < h.nant; ++a)
      for (int t = 0; t < 4; ++t)
        for (int p = 0; p < h.npol; ++p) {
          block.data.push_back(float(a + 1));
          block.data.push_back(p == 0 ? -3.0f : 4.0f);
        }
  const std::string path = dir.file("array.dada");
  auto writer = rapt::make_psrdada_writer(path, h, false);
  writer->write(block);
  writer->commit();
  return path;
}

// Sum of the values and of their squares over the labelled lines, from each line's mean and
// rms and `count` values per line.
void sums_of_lines(const std::string& report, const std::vector<std::string>& labels, double count,
                   double& sum, double& sum_squares) {
  sum = sum_squares = 0;
  for (const std::string& label : labels) {
    const std::string line = report_line_of(report, label);
    EXPECT_FALSE(line.empty()) << label << "\n" << report;
    const double rms = number_after(line, "rms ");
    sum += number_after(line, "mean ") * count;
    sum_squares += rms * rms * count;
  }
}

}  // namespace

TEST(InspectVoltages, ReportsThePuppiSampleHeader) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_puppi.raw");
  const std::string report = rapt::inspect_file(path, {true, false, 0});
  EXPECT_TRUE(contains(report, "(GUPPI RAW)")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Source"), "J1810+1744"));
  EXPECT_TRUE(contains(report_line_of(report, "Telescope"), "Arecibo"));
  EXPECT_TRUE(contains(report_line_of(report, "Channels"), " 4"));
  EXPECT_TRUE(contains(report_line_of(report, "Channel width (MHz)"), "3.125000"));
  EXPECT_TRUE(contains(report_line_of(report, "Polarisations"), " 2 "));
  EXPECT_TRUE(contains(report_line_of(report, "Samples"), "complex, 8-bit integers"));
  EXPECT_TRUE(contains(report_line_of(report, "Start MJD (UTC)"), "(day 58132 + 51093.000000 s)"));
  EXPECT_TRUE(contains(report_line_of(report, "Start (UTC)"), "2018-01-14 14:11:33.000000"));
  EXPECT_FALSE(contains(report, "Statistics"));
}

TEST(InspectVoltages, PuppiFirstBlockStatisticsMatchTheKnownSums) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_puppi.raw");
  // Block 0 holds 1024 samples x 4 channels x 2 pols x (re, im): int8 sum -3191, sum of
  // squares 3198321.
  const std::string report = rapt::inspect_file(path, {false, false, 1024});
  EXPECT_TRUE(contains(report, "Statistics of 1024 time samples:")) << report;
  double sum = 0, sum_squares = 0;
  sums_of_lines(report, {"Pol X real", "Pol X imag", "Pol Y real", "Pol Y imag"}, 4096.0, sum,
                sum_squares);
  EXPECT_NEAR(sum, -3191.0, 0.1);
  EXPECT_NEAR(sum_squares, 3198321.0, 30.0);
}

TEST(InspectVoltages, PerChannelTableHasOneRowPerChannelAndPolarisation) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_puppi.raw");
  const std::string report = rapt::inspect_file(path, {false, true, 64});
  EXPECT_TRUE(contains(report, "re_mean")) << report;
  EXPECT_TRUE(contains(report, "\n        3  361.375000      Y  ")) << report;
}

TEST(InspectVoltages, ReportsTheVlbaVdifSample) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample.vdif");
  const std::string report = rapt::inspect_file(path, {});
  EXPECT_TRUE(contains(report, "(VDIF)")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Start MJD (UTC)"), "(day 56824 + 21367.000000 s)"));
  EXPECT_TRUE(contains(report_line_of(report, "Channels"), " 8"));
  EXPECT_TRUE(contains(report_line_of(report, "Samples"), "real, 2-bit"));
  EXPECT_TRUE(contains(report_line_of(report, "Time samples"), " 40000"));
  // VDIF headers hold no pointing and no sky frequency.
  EXPECT_TRUE(contains(report_line_of(report, "Centre frequency (MHz)"), "not in VDIF headers"));
  EXPECT_TRUE(contains(report_line_of(report, "RA, Dec (J2000)"), "not in VDIF headers"));
  EXPECT_TRUE(contains(report_line_of(report, "Bandwidth (MHz)"), "128.000000"));
  EXPECT_TRUE(contains(report, "Statistics of 40000 time samples:"));
}

TEST(InspectVoltages, MwaVdifNeedsAndTakesTheSampleRate) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_mwa.vdif");
  EXPECT_TRUE(contains(inspect_error(path), path + ": ")) << inspect_error(path);
  rapt::InspectSettings settings;
  settings.vdif.sample_rate_hz = 1.28e6;
  const std::string report = rapt::inspect_file(path, settings);
  EXPECT_TRUE(contains(report_line_of(report, "Start (UTC)"), "2015-10-03 20:49:45.000000"));
  EXPECT_TRUE(contains(report_line_of(report, "Channels"), " 2"));
  EXPECT_TRUE(contains(report_line_of(report, "Samples"), "complex, 8-bit"));
  EXPECT_TRUE(contains(report, "Statistics of 1280 time samples:")) << report;
  // Its 8-bit samples are two's complement (README-sources): read so, they centre on 0 with an
  // rms near 34 and a range within -128..127, not +-127.5 as offset binary gives; and the band's
  // centre, which the frames do not carry, sets the channels' frequencies.
  settings.vdif.twos_complement = true;
  settings.vdif.centre_freq_mhz = 184.96;
  const std::string signed_report = rapt::inspect_file(path, settings);
  EXPECT_TRUE(contains(report_line_of(signed_report, "First channel centre (MHz)"), "184.320000"))
      << signed_report;
  EXPECT_TRUE(contains(report_line_of(signed_report, "Pol 0 real"), "min -106"))
      << signed_report;
  EXPECT_TRUE(contains(report_line_of(signed_report, "Pol 0 real"), "rms 34.688"))
      << signed_report;
  EXPECT_FALSE(contains(report_line_of(report, "Pol 0 real"), "rms 34.688")) << report;
}

TEST(InspectVoltages, ReportsTheEffelsbergDadaSampleAndItsSums) {
  RAPT_REQUIRE_SHARED_FILE(path, "baseband/sample_meerkat.dada");
  const std::string report = rapt::inspect_file(path, {});
  EXPECT_TRUE(contains(report, "(PSRDADA)")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Telescope"), "Effelsberg"));
  EXPECT_TRUE(contains(report_line_of(report, "Source"), "FRB20200120"));
  EXPECT_TRUE(contains(report_line_of(report, "Time samples"), " 14336"));
  double sum = 0, sum_squares = 0;
  sums_of_lines(report, {"Pol X", "Pol Y"}, 14336.0, sum, sum_squares);
  EXPECT_NEAR(sum, -19793.0, 0.5);
  EXPECT_NEAR(sum_squares, 6737121.0, 60.0);
}

TEST(InspectVoltages, NativeMultiAntennaFileShowsAntennasAndExactStatistics) {
  ScratchDir dir;
  const std::string report = rapt::inspect_file(write_small_array_file(dir), {});
  EXPECT_TRUE(contains(report, "(PSRDADA)")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Antennas"), " 2")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Antenna names"), "m000 m001")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Start (UTC)"), "2023-02-25 01:00:30.500000"));
  EXPECT_TRUE(contains(report_line_of(report, "First channel centre (MHz)"), "1399.500000"));
  EXPECT_TRUE(contains(report_line_of(report, "Last channel centre (MHz)"), "1400.500000"));
  EXPECT_TRUE(contains(report_line_of(report, "Source"), "J0437-4715"));
  const std::string x_real = report_line_of(report, "Pol X real");
  EXPECT_DOUBLE_EQ(number_after(x_real, "mean "), 1.5) << report;
  EXPECT_DOUBLE_EQ(number_after(x_real, "min "), 1.0);
  EXPECT_DOUBLE_EQ(number_after(x_real, "max "), 2.0);
  const std::string y_imag = report_line_of(report, "Pol Y imag");
  EXPECT_DOUBLE_EQ(number_after(y_imag, "mean "), 4.0);
  EXPECT_DOUBLE_EQ(number_after(y_imag, "rms "), 4.0);
  EXPECT_FALSE(report_line_of(report, "Antenna m001").empty()) << report;
}

TEST(InspectVoltages, MaxSpectraLimitsTheTimeSamplesRead) {
  ScratchDir dir;
  const std::string report = rapt::inspect_file(write_small_array_file(dir), {false, false, 3});
  EXPECT_TRUE(contains(report, "Statistics of 3 time samples:")) << report;
}

TEST(InspectVoltages, TruncatedGuppiHeaderNamesTheFile) {
  RAPT_REQUIRE_SHARED_FILE(sample, "baseband/sample_puppi.raw");
  ScratchDir dir;
  const std::string path = dir.file("cut.raw");
  rapt::testing::write_whole_file(path, rapt::testing::read_whole_file(sample).substr(0, 3000));
  EXPECT_EQ(inspect_error(path), path + ": GUPPI header has no END card");
}

TEST(InspectVoltages, GuppiCutInsideTheFirstBlockNamesTheFile) {
  RAPT_REQUIRE_SHARED_FILE(sample, "baseband/sample_puppi.raw");
  ScratchDir dir;
  const std::string path = dir.file("short.raw");
  rapt::testing::write_whole_file(path, rapt::testing::read_whole_file(sample).substr(0, 10000));
  const std::string message = inspect_error(path);
  EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
  EXPECT_TRUE(contains(message, "BLOCSIZE")) << message;
}

TEST(InspectVoltages, NativeDadaWithoutNantNamesTheFileAndTheKey) {
  ScratchDir dir;
  std::string contents = rapt::testing::read_whole_file(write_small_array_file(dir));
  const size_t at = contents.find("\nNANT ");
  ASSERT_NE(at, std::string::npos);
  contents[at + 1] = 'X';  // "XANT": the key is gone, the header size unchanged
  const std::string path = dir.file("no_nant.dada");
  rapt::testing::write_whole_file(path, contents);
  const std::string message = inspect_error(path);
  EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
  EXPECT_TRUE(contains(message, "NANT")) << message;
}
