#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "inspect/inspect_report.hpp"
#include "inspect/running_stats.hpp"
#include "io/presto_inf.hpp"
#include "io/presto_series.hpp"
#include "io/sigproc.hpp"
#include "test_data.hpp"

using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::write_whole_file;

namespace {

// A 4-channel 8-bit file whose channel c holds the values 10c + (s % 3), s = 0..5.
std::string write_small_filterbank(const ScratchDir& dir) {
  rapt::SigprocHeader h;
  h.source_name = "J0000+0000";
  h.telescope_id = 4;
  h.tsamp = 64e-6;
  h.nbits = 8;
  h.nchans = 4;
  h.fch1 = 1500.0;
  h.foff = -2.0;
  std::vector<float> samples;
  for (int s = 0; s < 6; ++s)
    for (int c = 0; c < 4; ++c) samples.push_back(float(10 * c + s % 3));
  const std::string path = dir.file("small.fil");
  rapt::SigprocWriter writer(path, h, false);
  writer.write(samples.data(), 6);
  writer.commit();
  return path;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(RunningStats, MergedPartsEqualOnePass) {
  rapt::RunningStats whole, left, right;
  for (int i = 0; i < 100; ++i) {
    const double x = (i * 37 % 11) - 3.5;
    whole.add(x);
    (i < 40 ? left : right).add(x);
  }
  left.merge(right);
  EXPECT_EQ(left.count, whole.count);
  EXPECT_NEAR(left.mean, whole.mean, 1e-12);
  EXPECT_NEAR(left.variance(), whole.variance(), 1e-12);
  EXPECT_EQ(left.min, whole.min);
  EXPECT_EQ(left.max, whole.max);
}

TEST(InspectReport, ShowsHeaderAndExactStatisticsOfAFilterbank) {
  ScratchDir dir;
  const std::string path = write_small_filterbank(dir);
  const std::string report = rapt::inspect_file(path, {});
  EXPECT_TRUE(contains(report, "(SIGPROC filterbank)")) << report;
  EXPECT_TRUE(contains(report, "J0000+0000"));
  EXPECT_TRUE(contains(report, "Parkes"));
  EXPECT_TRUE(contains(report, "Lowest channel (MHz)         1494.000000"));
  EXPECT_TRUE(contains(report, "Spectra                      6\n"));
  // All samples: mean of 10c + (s%3) over c=0..3, s=0..5 = 15 + 1 = 16; min 0, max 32.
  EXPECT_TRUE(contains(report, "All samples                  mean 16  ")) << report;
  EXPECT_TRUE(contains(report, "min 0  max 32")) << report;
  // Channel sum: 60 + 4*(s%3): mean 64, min 60, max 68.
  EXPECT_TRUE(contains(report, "Channel sum (DM 0)           mean 64  ")) << report;
}

TEST(InspectReport, ShowsTheDmOfADedispersedTimeSeries) {
  ScratchDir dir;
  rapt::SigprocHeader h;
  h.tsamp = 64e-6;
  h.nbits = 32;
  h.nchans = 1;
  h.fch1 = 1500.0;
  h.foff = -400.0;
  h.refdm = 56.25;
  const std::vector<float> samples = {1.0f, 2.0f};
  const std::string path = dir.file("x_DM56.25.tim");
  rapt::SigprocWriter writer(path, h, false);
  writer.write(samples.data(), 2);
  writer.commit();
  const std::string report = rapt::inspect_file(path, {true, false, 0});
  EXPECT_TRUE(contains(report, "DM (pc cm^-3)                56.25\n")) << report;
  // A filterbank has no refdm and no DM line.
  EXPECT_FALSE(contains(rapt::inspect_file(write_small_filterbank(dir), {}), "DM (pc"));
}

TEST(InspectReport, HeaderOnlyReadsNoData) {
  ScratchDir dir;
  const std::string report = rapt::inspect_file(write_small_filterbank(dir), {true, false, 0});
  EXPECT_FALSE(contains(report, "Statistics"));
}

TEST(InspectReport, WarnsOfBytesAfterTheLastWholeSpectrum) {
  ScratchDir dir;
  const std::string path = write_small_filterbank(dir);
  // Three bytes of a seventh 4-byte spectrum: a file cut short while being copied.
  rapt::testing::write_whole_file(path, rapt::testing::read_whole_file(path) + "abc");
  std::vector<std::string> warnings;
  const std::string report = rapt::inspect_file(path, {}, &warnings);
  EXPECT_TRUE(contains(report, "Spectra                      6\n")) << report;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            path + ": ignored 3 bytes at the end (less than one spectrum of 4 bytes)");
}

TEST(InspectReport, CountsNonFiniteFloatSamplesApartFromTheStatistics) {
  ScratchDir dir;
  rapt::SigprocHeader h;
  h.tsamp = 64e-6;
  h.nbits = 32;
  h.nchans = 2;
  h.fch1 = 1500.0;
  h.foff = -2.0;
  const std::vector<float> samples = {1.0f, 2.0f, NAN, 4.0f, 5.0f, INFINITY};
  const std::string path = dir.file("float.fil");
  rapt::SigprocWriter writer(path, h, false);
  writer.write(samples.data(), 3);
  writer.commit();
  const std::string report = rapt::inspect_file(path, {});
  // Finite samples 1, 2, 4, 5: mean 3; channel sums 3, 4, 5: mean 4.
  EXPECT_TRUE(contains(report, "All samples                  mean 3  ")) << report;
  EXPECT_TRUE(contains(report, "min 1  max 5")) << report;
  EXPECT_TRUE(contains(report, "Channel sum (DM 0)           mean 4  ")) << report;
  EXPECT_TRUE(contains(report, "Non-finite samples           2 (NaN or infinite; left out of the "
                               "statistics)\n")) << report;
}

TEST(InspectReport, PerChannelTableAndSpectrumLimit) {
  ScratchDir dir;
  const std::string report = rapt::inspect_file(write_small_filterbank(dir), {false, true, 3});
  EXPECT_TRUE(contains(report, "Statistics of 3 spectra")) << report;
  EXPECT_TRUE(contains(report, "        3  1494.000000   31")) << report;
}

TEST(InspectReport, DatUsesItsInfAndReportsSampleStatistics) {
  ScratchDir dir;
  rapt::InfFile inf;
  inf.name = dir.file("x_DM10.00");
  inf.n = 4;
  inf.dt_s = 1e-3;
  inf.dm = 10.0;
  inf.ra_deg = 83.6329167;  // 05:34:31.90
  inf.dec_deg = -22.5;
  inf.lofreq_mhz = 1182.0;
  inf.num_channels = 64;
  inf.chan_bw_mhz = 4.0;
  inf.bandwidth_mhz = 256.0;
  rapt::write_inf(dir.file("x_DM10.00.inf"), inf, false);
  rapt::write_dat(dir.file("x_DM10.00.dat"), {1.0f, 2.0f, 3.0f, 6.0f}, false);
  const std::string report = rapt::inspect_file(dir.file("x_DM10.00.dat"), {});
  EXPECT_TRUE(contains(report, "DM (pc cm^-3)                10")) << report;
  // What fold and the searches read from the .inf: position and band.
  EXPECT_TRUE(contains(report, "RA (J2000)                   05:34:31.9000\n")) << report;
  EXPECT_TRUE(contains(report, "Dec (J2000)                  -22:30:00.000\n")) << report;
  EXPECT_TRUE(contains(report, "Lowest channel (MHz)         1182.000000\n")) << report;
  EXPECT_TRUE(contains(report, "Channels                     64\n")) << report;
  EXPECT_TRUE(contains(report, "Total bandwidth (MHz)        256.000000\n")) << report;
  EXPECT_TRUE(contains(report, "Statistics of 4 samples")) << report;
  EXPECT_TRUE(contains(report, "mean 3  ")) << report;
}

TEST(InspectReport, NamesTheFileForEveryProblem) {
  ScratchDir dir;
  const auto message_of = [&](const std::string& path) -> std::string {
    try {
      rapt::inspect_file(path, {});
    } catch (const rapt::DataError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message_of(dir.file("missing.fil")), dir.file("missing.fil") + ": no such file");
  rapt::testing::write_whole_file(dir.file("junk.fits"), "this is not FITS");
  EXPECT_EQ(message_of(dir.file("junk.fits")),
            dir.file("junk.fits") + ": " +
                "not a format inspect reads (SIGPROC, PSRFITS, PRESTO .inf and series, ACCEL, "
                ".pfd, GUPPI RAW, PSRDADA, VDIF, UVFITS, Measurement Sets, FITS images, a-term "
                "cubes, layout files)");
  // Known by its name alone it would be a PRESTO series: that is said as what is missing.
  rapt::testing::write_whole_file(dir.file("lonely.dat"), std::string(16, '\0'));
  EXPECT_EQ(message_of(dir.file("lonely.dat")),
            dir.file("lonely.dat") + ": not a format inspect reads, and no " +
                dir.file("lonely.inf") + " beside it for a PRESTO series");
}

TEST(InspectReport, RefusesSeriesWhoseLengthDisagreesWithTheirInf) {
  ScratchDir dir;
  const auto message_of = [&](const std::string& path, bool header_only) -> std::string {
    rapt::InspectSettings settings;
    settings.header_only = header_only;
    try {
      rapt::inspect_file(path, settings);
    } catch (const rapt::DataError& e) {
      return e.what();
    }
    return "no error";
  };
  rapt::InfFile inf;
  inf.name = dir.file("x");
  inf.n = 8;
  inf.dt_s = 1e-3;
  rapt::write_inf(dir.file("x.inf"), inf, false);
  rapt::write_dat(dir.file("x.dat"), {1.0f, 2.0f, 3.0f}, false);
  EXPECT_EQ(message_of(dir.file("x.dat"), true),
            dir.file("x.dat") + ": holds 3 samples but " + dir.file("x.inf") +
                " says N = 8; the file is truncated");
  rapt::testing::write_whole_file(dir.file("x.fft"), "");
  EXPECT_EQ(message_of(dir.file("x.fft"), false), dir.file("x.fft") + ": is empty (no samples)");
  rapt::write_fft(dir.file("y.fft"), std::vector<rapt::Complex64>(5), false);
  rapt::write_inf(dir.file("y.inf"), inf, false);
  EXPECT_EQ(message_of(dir.file("y.fft"), false),
            dir.file("y.fft") + ": holds 5 samples but " + dir.file("y.inf") +
                " says N/2 = 4; they must agree");
  rapt::write_fft(dir.file("z.fft"), std::vector<rapt::Complex64>(4), false);
  rapt::write_inf(dir.file("z.inf"), inf, false);
  EXPECT_EQ(message_of(dir.file("z.fft"), false), "no error");
}

TEST(InspectReport, ReadsRealParkesData) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_4bit.sf");
  const std::string report = rapt::inspect_file(path, {});
  EXPECT_TRUE(contains(report, "(PSRFITS search)")) << report;
  EXPECT_TRUE(contains(report, "Channels                     416"));
  EXPECT_TRUE(contains(report, "Statistics of 4096 spectra"));
}

// accelsearch's table and prepfold's .pfd of PRESTO's own run: the figures its .bestprof and
// table print (presto-golden/README.md).
TEST(InspectReport, ReadsPrestoCandidatesAndFolds) {
  RAPT_REQUIRE_SHARED_FILE(accel, "presto-golden/test_DM56.00_ACCEL_50");
  const std::string table = rapt::inspect_file(accel, {});
  EXPECT_TRUE(contains(table, "(PRESTO ACCEL candidates)")) << table;
  EXPECT_TRUE(contains(table, "Candidates                   46\n")) << table;
  EXPECT_TRUE(contains(table, "Observation length (s)       67.108864\n")) << table;
  // Candidate 2, the pulsar: 87.077(7) ms, 11.4841(9) Hz, z 4.00, 2.32(14)x10^4 m/s^2.
  EXPECT_TRUE(contains(table, "        2  153.80       8  87.0765654        11.4841461       4   "
                              "       2.319e+04\n")) << table;
  // Without the .inf accelsearch appends, T and so period, frequency and acceleration are
  // unknown: "-", not nan.
  ScratchDir dir;
  const std::string text = read_whole_file(accel);
  const std::string cut = dir.file("noinf_ACCEL_50");
  write_whole_file(cut, text.substr(0, text.find(" Data file name without suffix")));
  const std::string bare = rapt::inspect_file(cut, {});
  EXPECT_TRUE(contains(bare, "unknown (no .inf appended)")) << bare;
  EXPECT_TRUE(contains(bare, "        2  153.80       8  -                 -                4   "
                             "       -\n")) << bare;
  EXPECT_FALSE(contains(bare, "nan")) << bare;
  RAPT_REQUIRE_SHARED_FILE(pfd, "presto-golden/test_DM56.00_ACCEL_Cand_2.pfd");
  const std::string fold = rapt::inspect_file(pfd, {});
  EXPECT_TRUE(contains(fold, "Candidate                    ACCEL_Cand_2\n")) << fold;
  EXPECT_TRUE(contains(fold, "Epoch topo (MJD)             60000.123456788999\n")) << fold;
  EXPECT_TRUE(contains(fold, "Topocentric P (ms), P'       87.2996320176  -6.76956e-06\n")) << fold;
  EXPECT_TRUE(contains(fold, "Search grid (DM, P, P')      0 x 257 x 257\n")) << fold;
}
