#include "io/presto_inf.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "cli/errors.hpp"
#include "test_data.hpp"

using rapt::InfFile;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;

namespace {

std::string error_of(const std::string& text, const std::string& name = "obs.inf") {
  try {
    rapt::parse_inf(text, name);
  } catch (const rapt::DataError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// A radio observation whose values survive PRESTO's printf precisions unchanged.
InfFile radio_observation() {
  InfFile inf;
  inf.name = "obs_DM10.50";
  inf.telescope = "Parkes";
  inf.instrument = "BPSR";
  inf.object = "J0437-4715";
  inf.ra_deg = rapt::parse_ra_hms("04:37:15.8961", "t");
  inf.dec_deg = rapt::parse_dec_dms("-47:15:09.1106", "t");
  inf.observer = "Somebody";
  inf.mjd_int = 58000;
  inf.mjd_frac = 0.25;
  inf.barycentered = true;
  inf.n = 1048576;
  inf.dt_s = 6.4e-05;
  inf.onoff = {{0, 1000000}, {1048575, 1048575}};
  inf.band = "Radio";
  inf.beam_diameter_arcsec = 840;
  inf.dm = 10.5;
  inf.lofreq_mhz = 1182.1953125;
  inf.bandwidth_mhz = 400;
  inf.num_channels = 1024;
  inf.chan_bw_mhz = 0.390625;
  inf.analyzer = "rapt";
  inf.notes = "First line.\n    Second line.\n";
  return inf;
}

void expect_same_fields(const InfFile& a, const InfFile& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.telescope, b.telescope);
  EXPECT_EQ(a.instrument, b.instrument);
  EXPECT_EQ(a.object, b.object);
  EXPECT_NEAR(a.ra_deg, b.ra_deg, 1e-9);
  EXPECT_NEAR(a.dec_deg, b.dec_deg, 1e-9);
  EXPECT_EQ(a.observer, b.observer);
  EXPECT_EQ(a.mjd_int, b.mjd_int);
  EXPECT_NEAR(a.mjd_frac, b.mjd_frac, 1e-15);
  EXPECT_EQ(a.barycentered, b.barycentered);
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.dt_s, b.dt_s);
  EXPECT_EQ(a.onoff, b.onoff);
  EXPECT_EQ(a.band, b.band);
  EXPECT_EQ(a.analyzer, b.analyzer);
  EXPECT_EQ(a.notes, b.notes);
}

}  // namespace

// ---- PRESTO's own files ----------------------------------------------------------------------

class PrestoGoldenInf : public ::testing::TestWithParam<const char*> {};

TEST_P(PrestoGoldenInf, FormatsBackToTheSameBytes) {
  RAPT_REQUIRE_SHARED_FILE(path, std::string("presto-golden/") + GetParam());
  const std::string original = read_whole_file(path);
  EXPECT_EQ(rapt::format_inf(rapt::read_inf(path)), original);
}

INSTANTIATE_TEST_SUITE_P(EveryGoldenFile, PrestoGoldenInf,
                         ::testing::Values("pd_DM56.00.inf", "test_DM56.00.inf",
                                           "test_DM56.00_red.inf", "test_rfifind.inf"));

TEST(PrestoInfReader, ReadsEveryFieldOfAPrepsubbandFile) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00.inf");
  const InfFile inf = rapt::read_inf(path);
  EXPECT_EQ(inf.name, "test_DM56.00");
  EXPECT_EQ(inf.telescope, "GBT");
  EXPECT_EQ(inf.instrument, "Unknown");
  EXPECT_EQ(inf.object, "FAKE_PSR");
  EXPECT_NEAR(inf.ra_deg, 15.0 * (12 + 34 / 60.0 + 56.789 / 3600.0), 1e-10);
  EXPECT_NEAR(inf.dec_deg, -(12 + 34 / 60.0 + 56.78 / 3600.0), 1e-10);
  EXPECT_EQ(inf.observer, "unset");
  EXPECT_EQ(inf.mjd_int, 60000);
  EXPECT_NEAR(inf.mjd_frac, 0.123456788998737, 1e-16);
  EXPECT_FALSE(inf.barycentered);
  EXPECT_EQ(inf.n, 262144);
  EXPECT_DOUBLE_EQ(inf.dt_s, 0.000256);
  const std::vector<rapt::BinRange> pairs{{0, 256799}, {262143, 262143}};
  EXPECT_EQ(inf.onoff, pairs);
  EXPECT_EQ(inf.band, "Radio");
  EXPECT_EQ(inf.beam_diameter_arcsec, 540);
  EXPECT_EQ(inf.dm, 56);
  EXPECT_EQ(inf.lofreq_mhz, 1246);
  EXPECT_EQ(inf.bandwidth_mhz, 256);
  EXPECT_EQ(inf.num_channels, 128);
  EXPECT_EQ(inf.chan_bw_mhz, 2);
  EXPECT_EQ(inf.analyzer, "root");
  EXPECT_EQ(inf.notes,
            "Project ID unset, Date: 2023-02-25T02:57:46.6666.\n"
            "    2 polns were summed.  Samples have 8 bits.\n");
}

TEST(PrestoInfReader, SynthesisesOnePairWhenThereAreNoBreaks) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_rfifind.inf");
  const InfFile inf = rapt::read_inf(path);
  EXPECT_TRUE(inf.onoff.empty());
  const std::vector<rapt::BinRange> whole{{0, 262143}};
  EXPECT_EQ(inf.valid_bin_ranges(), whole);
}

// M28A_bary.inf comes from an older writer: "(1=yes, 0=no)" labels, "%f" numbers, a 3-decimal
// Dec and no closing blank lines, so it cannot come back byte for byte; its values must.
TEST(PrestoInfReader, ReadsAnOlderXrayFile) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto/M28A_bary.inf");
  const InfFile inf = rapt::read_inf(path);
  EXPECT_EQ(inf.name, "M28_bary");
  EXPECT_EQ(inf.telescope, "Chandra");
  EXPECT_EQ(inf.instrument, "HRC-S");
  EXPECT_EQ(inf.object, "M28A");
  EXPECT_NEAR(inf.ra_deg, 15.0 * (18 + 24 / 60.0 + 32.0077 / 3600.0), 1e-10);
  EXPECT_NEAR(inf.dec_deg, -(24 + 52 / 60.0 + 10.771 / 3600.0), 1e-10);
  EXPECT_EQ(inf.observer, "Chandra Staff");
  EXPECT_EQ(inf.mjd_int, 52586);
  EXPECT_NEAR(inf.mjd_frac, 0.24269631531, 1e-16);
  EXPECT_TRUE(inf.barycentered);
  EXPECT_EQ(inf.n, 6700000000LL);
  EXPECT_DOUBLE_EQ(inf.dt_s, 0.0005);
  EXPECT_TRUE(inf.onoff.empty());
  EXPECT_EQ(inf.band, "X-ray");
  EXPECT_EQ(inf.fov_arcsec, 3.0);
  EXPECT_EQ(inf.energy_kev, 1.0);
  EXPECT_EQ(inf.energy_band_kev, 5.0);
  EXPECT_EQ(inf.analyzer, "Scott Ransom");
  EXPECT_EQ(inf.notes, "Quick and dirty analysis.");

  const std::string text = rapt::format_inf(inf);
  EXPECT_NE(text.find(" J2000 Declination     (dd:mm:ss.ssss)  =  -24:52:10.7710\n"),
            std::string::npos);
  EXPECT_NE(text.find(" Epoch of observation (MJD)             =  52586.242696315310000\n"),
            std::string::npos);
  EXPECT_NE(text.find(" Number of bins in the time series      =  6700000000 \n"),
            std::string::npos);
  EXPECT_NE(text.find(" Field-of-view diameter (arcsec)        =  3.00\n"), std::string::npos);
  EXPECT_NE(text.find(" Central energy (kev)                   =  1.0\n"), std::string::npos);
  EXPECT_NE(text.find(" Energy bandpass (kev)                  =  5.0\n"), std::string::npos);
  EXPECT_EQ(text.find("Beam diameter"), std::string::npos);
  EXPECT_EQ(rapt::format_inf(rapt::parse_inf(text, "again")), text);
}

// ---- Writer layout ---------------------------------------------------------------------------

TEST(PrestoInfWriter, PutsEveryEqualsSignAtColumnForty) {
  InfFile inf = radio_observation();
  inf.onoff = {{0, 10}, {20, 30}, {40, 1048575}};
  int key_lines = 0;
  for (const std::string& line : lines_of(rapt::format_inf(inf))) {
    if (line.find('=') == std::string::npos) continue;
    ++key_lines;
    ASSERT_GT(line.size(), 43u) << line;
    EXPECT_EQ(line[40], '=') << line;
    EXPECT_EQ(line.substr(41, 2), "  ") << line;
  }
  EXPECT_EQ(key_lines, 23);
}

TEST(PrestoInfWriter, WritesPairsAndBreaksFlagOnlyForMoreThanOnePair) {
  InfFile inf = radio_observation();
  inf.onoff = {{0, 1048575}};
  std::string text = rapt::format_inf(inf);
  EXPECT_NE(text.find("(1 yes, 0 no)  =  0\n"), std::string::npos);
  EXPECT_EQ(text.find("On/Off"), std::string::npos);

  inf.onoff = {{0, 999}, {1048575, 1048575}};
  text = rapt::format_inf(inf);
  EXPECT_NE(text.find(" Any breaks in the data? (1 yes, 0 no)  =  1\n"
                      " On/Off bin pair #  1                   =  0          , 999        \n"
                      " On/Off bin pair #  2                   =  1048575    , 1048575    \n"
                      " Type of observation"),
            std::string::npos);
}

TEST(PrestoInfWriter, WritesMakedataModeWithoutObservationLines) {
  InfFile inf;
  inf.name = "testz";
  inf.telescope = rapt::kMakedataTelescope;
  inf.n = 8388608;
  inf.dt_s = 1.0 / 8388608.0;
  inf.notes = "   T = 1.000000 and r = 1000000.345000";
  EXPECT_EQ(rapt::format_inf(inf),
            " Data file name without suffix          =  testz\n"
            " Telescope used                         =  None (Artificial Data Set)\n"
            " Number of bins in the time series      =  8388608    \n"
            " Width of each time series bin (sec)    =  1.19209289550781e-07\n"
            " Any breaks in the data? (1 yes, 0 no)  =  0\n"
            " Data analyzed by                       =  Unknown\n"
            " Any additional notes:\n"
            "       T = 1.000000 and r = 1000000.345000\n"
            "\n");
  const InfFile back = rapt::parse_inf(rapt::format_inf(inf), "testz.inf");
  EXPECT_TRUE(back.is_makedata());
  EXPECT_EQ(back.notes, inf.notes);
  EXPECT_EQ(rapt::format_inf(back), rapt::format_inf(inf));
}

TEST(PrestoInfWriter, WritesEmptyStringsAsUnknown) {
  InfFile inf = radio_observation();
  inf.telescope = "";
  inf.instrument = "  ";
  inf.object = "";
  inf.observer = "";
  inf.analyzer = "";
  const std::string text = rapt::format_inf(inf);
  EXPECT_NE(text.find(" Telescope used                         =  Unknown\n"), std::string::npos);
  EXPECT_NE(text.find(" Instrument used                        =  Unknown\n"), std::string::npos);
  EXPECT_NE(text.find(" Object being observed                  =  Unknown\n"), std::string::npos);
  EXPECT_NE(text.find(" Data observed by                       =  Unknown\n"), std::string::npos);
  EXPECT_NE(text.find(" Data analyzed by                       =  Unknown\n"), std::string::npos);
}

TEST(PrestoInfWriter, WritesTheEpochWithFifteenFractionDigits) {
  InfFile inf = radio_observation();
  inf.mjd_int = 60000;
  inf.mjd_frac = 0.123456789;
  EXPECT_NE(rapt::format_inf(inf).find("=  60000.123456789000000\n"), std::string::npos);
  inf.mjd_frac = 0.0;
  EXPECT_NE(rapt::format_inf(inf).find("=  60000.000000000000000\n"), std::string::npos);
  // A fraction that rounds up to 1 moves to the next day instead of losing it.
  inf.mjd_frac = 0.9999999999999999;
  EXPECT_NE(rapt::format_inf(inf).find("=  60001.000000000000000\n"), std::string::npos);
}

TEST(PrestoInfWriter, KeepsEpochPrecisionBeyondADouble) {
  InfFile inf = radio_observation();
  inf.mjd_int = 60000;
  inf.mjd_frac = 0.123456788998737;  // more digits than 60000.1234... holds in one double
  const InfFile back = rapt::parse_inf(rapt::format_inf(inf), "x.inf");
  EXPECT_EQ(back.mjd_int, 60000);
  EXPECT_EQ(back.mjd_frac, inf.mjd_frac);
}

struct DecCase {
  const char* text;
  double degrees;
};

class PrestoDeclination : public ::testing::TestWithParam<DecCase> {};

TEST_P(PrestoDeclination, FormatsAndParsesBack) {
  const DecCase c = GetParam();
  EXPECT_EQ(rapt::format_dec_dms(c.degrees), c.text);
  EXPECT_NEAR(rapt::parse_dec_dms(c.text, "t"), c.degrees, 1e-10);
  InfFile inf = radio_observation();
  inf.dec_deg = c.degrees;
  const std::string text = rapt::format_inf(inf);
  EXPECT_NE(text.find(std::string("(dd:mm:ss.ssss)  =  ") + c.text + "\n"), std::string::npos);
  EXPECT_EQ(rapt::format_inf(rapt::parse_inf(text, "t.inf")), text);
}

INSTANTIATE_TEST_SUITE_P(
    NegativeAndPositive, PrestoDeclination,
    ::testing::Values(DecCase{"-00:30:15.5000", -(30 / 60.0 + 15.5 / 3600.0)},
                      DecCase{"-00:00:00.0001", -0.0001 / 3600.0},
                      DecCase{"-12:34:56.7800", -(12 + 34 / 60.0 + 56.78 / 3600.0)},
                      DecCase{"-89:59:59.9999", -(89 + 59 / 60.0 + 59.9999 / 3600.0)},
                      DecCase{"00:00:00.0000", 0.0},
                      DecCase{"00:30:15.5000", 30 / 60.0 + 15.5 / 3600.0},
                      DecCase{"45:00:00.0000", 45.0}));

TEST(PrestoSexagesimal, CarriesRoundedSecondsIntoMinutesAndHours) {
  EXPECT_EQ(rapt::format_ra_hms(15.0 * (1 + 59 / 60.0 + 59.99996 / 3600.0)), "02:00:00.0000");
  EXPECT_EQ(rapt::format_ra_hms(359.9999999999), "00:00:00.0000");
  EXPECT_EQ(rapt::format_dec_dms(-(9 + 59 / 60.0 + 59.99999 / 3600.0)), "-10:00:00.0000");
  EXPECT_EQ(rapt::format_dec_dms(-0.0), "00:00:00.0000");
}

TEST(PrestoSexagesimal, ParsesShortFormsAndRejectsGarbage) {
  EXPECT_NEAR(rapt::parse_ra_hms("12:30", "t"), 187.5, 1e-12);
  EXPECT_NEAR(rapt::parse_dec_dms("-5", "t"), -5.0, 1e-12);
  EXPECT_NEAR(rapt::parse_dec_dms("+05:30:00", "t"), 5.5, 1e-12);
  try {
    rapt::parse_dec_dms("12:ab:00", "x.inf");
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "x.inf: Declination is not in the form dd:mm:ss.ssss: \"12:ab:00\"");
  }
  EXPECT_THROW(rapt::parse_ra_hms("1:2:3:4", "x"), rapt::DataError);
  EXPECT_THROW(rapt::parse_ra_hms("", "x"), rapt::DataError);
}

// ---- Every band ------------------------------------------------------------------------------

class PrestoInfBand : public ::testing::TestWithParam<const char*> {};

TEST_P(PrestoInfBand, RoundTripsThroughText) {
  InfFile inf = radio_observation();
  inf.band = GetParam();
  inf.fov_arcsec = 12.25;
  inf.energy_kev = 2.5;
  inf.energy_band_kev = 8.5;
  inf.filter = "V";
  inf.wavelength_nm = 550.5;
  inf.waveband_nm = 88.5;
  const std::string text = rapt::format_inf(inf);
  const InfFile back = rapt::parse_inf(text, "band.inf");
  expect_same_fields(back, inf);
  EXPECT_EQ(rapt::format_inf(back), text);
  const std::string band = GetParam();
  if (band == "Radio") {
    EXPECT_EQ(back.dm, inf.dm);
    EXPECT_EQ(back.lofreq_mhz, inf.lofreq_mhz);
    EXPECT_EQ(back.bandwidth_mhz, inf.bandwidth_mhz);
    EXPECT_EQ(back.num_channels, inf.num_channels);
    EXPECT_EQ(back.chan_bw_mhz, inf.chan_bw_mhz);
    EXPECT_EQ(back.beam_diameter_arcsec, inf.beam_diameter_arcsec);
    EXPECT_EQ(text.find("Field-of-view"), std::string::npos);
  } else if (band == "X-ray" || band == "Gamma") {
    EXPECT_EQ(back.fov_arcsec, inf.fov_arcsec);
    EXPECT_EQ(back.energy_kev, inf.energy_kev);
    EXPECT_EQ(back.energy_band_kev, inf.energy_band_kev);
    EXPECT_EQ(text.find("Photometric"), std::string::npos);
    EXPECT_EQ(text.find("Dispersion"), std::string::npos);
  } else {
    EXPECT_EQ(back.filter, inf.filter);
    EXPECT_EQ(back.fov_arcsec, inf.fov_arcsec);
    EXPECT_EQ(back.wavelength_nm, inf.wavelength_nm);
    EXPECT_EQ(back.waveband_nm, inf.waveband_nm);
    EXPECT_EQ(text.find("Central energy"), std::string::npos);
    EXPECT_EQ(text.find("Dispersion"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryBand, PrestoInfBand,
                         ::testing::Values("Radio", "IR", "Optical", "UV", "X-ray", "Gamma"));

// ---- Lenient reading -------------------------------------------------------------------------

TEST(PrestoInfReader, AcceptsCrlfReorderedLinesAndLooseSpacing) {
  const std::string text =
      "Width of each time series bin (sec) = 0.001\r\n"
      "   Telescope used=Effelsberg   \r\n"
      "Number of bins in the time series=1000\r\n"
      "Some line another writer added = whatever\r\n"
      " Dispersion measure (cm-3 pc)   =   12.5\r\n"
      " Epoch of observation (MJD)  = 59000.5\r\n"
      " Barycentered?           (1=yes, 0=no)  =  1\r\n"
      " Any additional notes:\r\n"
      "    hello\r\n";
  const InfFile inf = rapt::parse_inf(text, "loose.inf");
  EXPECT_EQ(inf.telescope, "Effelsberg");
  EXPECT_EQ(inf.n, 1000);
  EXPECT_EQ(inf.dt_s, 0.001);
  EXPECT_EQ(inf.dm, 12.5);
  EXPECT_EQ(inf.mjd_int, 59000);
  EXPECT_EQ(inf.mjd_frac, 0.5);
  EXPECT_TRUE(inf.barycentered);
  EXPECT_EQ(inf.object, "Unknown");  // missing optional lines keep their defaults
  EXPECT_EQ(inf.num_channels, 1);
  EXPECT_EQ(inf.notes, "hello");
}

TEST(PrestoInfReader, StopsPairsAtTheOneReachingTheLastBin) {
  const std::string text =
      " Number of bins in the time series      =  100\n"
      " Width of each time series bin (sec)    =  0.5\n"
      " Any breaks in the data? (1 yes, 0 no)  =  1\n"
      " On/Off bin pair #  1                   =  0, 40\n"
      " On/Off bin pair #  2                   =  60 99\n"
      " On/Off bin pair #  3                   =  99 , 99\n";
  const std::vector<rapt::BinRange> pairs{{0, 40}, {60, 99}};
  EXPECT_EQ(rapt::parse_inf(text, "p.inf").onoff, pairs);
}

TEST(PrestoInfReader, IgnoresPairsWhenTheBreaksFlagIsZero) {
  const std::string text =
      " Number of bins in the time series      =  100\n"
      " Width of each time series bin (sec)    =  0.5\n"
      " Any breaks in the data? (1 yes, 0 no)  =  0\n"
      " On/Off bin pair #  1                   =  0, 40\n";
  EXPECT_TRUE(rapt::parse_inf(text, "p.inf").onoff.empty());
}

TEST(PrestoInfReader, NamesTheFileAndKeyWhenNIsMissing) {
  EXPECT_EQ(error_of(" Width of each time series bin (sec)    =  0.5\n"),
            "obs.inf: no \"Number of bins in the time series\" line (N is required)");
}

TEST(PrestoInfReader, NamesTheFileAndKeyWhenDtIsMissing) {
  EXPECT_EQ(error_of(" Number of bins in the time series      =  100\n"),
            "obs.inf: no \"Width of each time series bin (sec)\" line (dt is required)");
}

TEST(PrestoInfReader, RejectsGarbageText) {
  EXPECT_EQ(error_of("this is not\nan inf file = at all\n"),
            "obs.inf: no \"Number of bins in the time series\" line (N is required)");
  EXPECT_EQ(error_of(std::string("\x7f"
                                 "ELF\0\0\1",
                                 7)),
            "obs.inf: not a PRESTO .inf text file (it holds binary data)");
  EXPECT_EQ(error_of(""), "obs.inf: no \"Number of bins in the time series\" line (N is required)");
}

TEST(PrestoInfReader, RejectsNonNumericValues) {
  const std::string dt = " Width of each time series bin (sec)    =  0.5\n";
  EXPECT_EQ(error_of(" Number of bins in the time series      =  many\n" + dt),
            "obs.inf: \"Number of bins in the time series\" is not a number: \"many\"");
  EXPECT_EQ(error_of(" Number of bins in the time series      =  100.5\n" + dt),
            "obs.inf: \"Number of bins in the time series\" is not a whole number: \"100.5\"");
  EXPECT_EQ(error_of(" Number of bins in the time series      =\n" + dt),
            "obs.inf: \"Number of bins in the time series\" is not a number: \"\"");
  EXPECT_EQ(error_of(" Number of bins in the time series      =  10\n"
                     " Width of each time series bin (sec)    =  0\n"),
            "obs.inf: \"Width of each time series bin (sec)\" must be positive: \"0\"");
  EXPECT_EQ(error_of(" Number of bins in the time series 100\n" + dt),
            "obs.inf: line 1: no '=' after \"Number of bins in the time series\"");
  EXPECT_EQ(error_of(" Number of bins in the time series      =  10\n" + dt +
                     " On/Off bin pair #  1                   =  0 to 9\n"),
            "obs.inf: \"On/Off bin pair\" is not a pair of bin numbers: \"0 to 9\"");
}

TEST(PrestoInfReader, NamesAMissingFile) {
  ScratchDir dir;
  const std::string path = dir.file("none.inf");
  try {
    rapt::read_inf(path);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}

// ---- Files and names -------------------------------------------------------------------------

TEST(PrestoInfFile, WritesAndReadsBack) {
  ScratchDir dir;
  const std::string path = dir.file("obs.inf");
  const InfFile inf = radio_observation();
  rapt::write_inf(path, inf, false);
  EXPECT_EQ(read_whole_file(path), rapt::format_inf(inf));
  expect_same_fields(rapt::read_inf(path), inf);
  EXPECT_THROW(rapt::write_inf(path, inf, false), rapt::DataError);
}

TEST(PrestoInfFile, RefusesMorePairsThanPrestoReads) {
  ScratchDir dir;
  InfFile inf = radio_observation();
  inf.onoff.clear();
  for (int i = 0; i < 40; ++i) inf.onoff.push_back({i * 10, i * 10 + 5});
  const std::string path = dir.file("many.inf");
  try {
    rapt::write_inf(path, inf, false);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": 40 on/off pairs; PRESTO reads at most 39");
  }
}

TEST(PrestoNames, BuildsDmTrialRootsWithTwoDecimals) {
  EXPECT_EQ(rapt::dm_trial_root("test", 56.0), "test_DM56.00");
  EXPECT_EQ(rapt::dm_trial_root("dir/obs", 1234.567), "dir/obs_DM1234.57");
  // printf rounding of the binary value: 0.005 is slightly above, 0.015 slightly below.
  EXPECT_EQ(rapt::dm_trial_root("x", 0.005), "x_DM0.01");
  EXPECT_EQ(rapt::dm_trial_root("x", 0.015), "x_DM0.01");
  EXPECT_EQ(rapt::dm_trial_root("x", -0.001), "x_DM-0.00");
  EXPECT_EQ(rapt::dm_trial_root("x", 0.0), "x_DM0.00");
}

TEST(PrestoNames, StripsAKnownSuffixOnly) {
  EXPECT_EQ(rapt::strip_suffix("dir/x_DM1.00.dat", ".dat"), "dir/x_DM1.00");
  EXPECT_EQ(rapt::strip_suffix("x_DM1.00.fft", ".dat"), "x_DM1.00.fft");
  EXPECT_EQ(rapt::strip_suffix(".dat", ".dat"), "");
  EXPECT_EQ(rapt::strip_suffix("at", ".dat"), "at");
}

TEST(PrestoInfReader, CarriesAFractionThatWouldPrintAsOneIntoTheDay) {
  const std::string text =
      " Epoch of observation (MJD)             =  60000.99999999999999999\n"
      " Number of bins in the time series      =  10\n"
      " Width of each time series bin (sec)    =  1\n";
  const InfFile inf = rapt::parse_inf(text, "e.inf");
  EXPECT_EQ(inf.mjd_int, 60001);
  EXPECT_EQ(inf.mjd_frac, 0.0);
}

TEST(PrestoInfReader, RejectsEpochsAndCoordinatesOutOfRange) {
  const std::string required =
      " Number of bins in the time series      =  10\n"
      " Width of each time series bin (sec)    =  1\n";
  EXPECT_EQ(error_of(" Epoch of observation (MJD)             =  60000.5e3\n" + required),
            "obs.inf: \"Epoch of observation (MJD)\" is not a number: \"60000.5e3\"");
  EXPECT_EQ(error_of(" Epoch of observation (MJD)             =  2000000000.5\n" + required),
            "obs.inf: \"Epoch of observation (MJD)\" is out of range: \"2000000000.5\"");
  EXPECT_EQ(error_of(" J2000 Declination     (dd:mm:ss.ssss)  =  91:00:00\n" + required),
            "obs.inf: Declination is out of range: \"91:00:00\"");
  EXPECT_EQ(error_of(" On/Off bin pair #  1                   =  0, 1e300\n" + required),
            "obs.inf: \"On/Off bin pair\" is not a pair of bin numbers: \"0, 1e300\"");
}

TEST(PrestoInfReader, DropsRunsOfCarriageReturnsAtLineEnds) {
  const std::string text =
      " Number of bins in the time series      =  10\r\r\n"
      " Width of each time series bin (sec)    =  1\r\n"
      " Any additional notes:\r\n"
      "    note\r\r\n\r\n\r\n";
  const InfFile inf = rapt::parse_inf(text, "crlf.inf");
  EXPECT_EQ(inf.notes, "note\n");
  EXPECT_EQ(inf.name, "");  // no name line: empty, and written back empty as PRESTO would
  EXPECT_EQ(rapt::format_inf(rapt::parse_inf(rapt::format_inf(inf), "again")),
            rapt::format_inf(inf));
}
