// inspect on visibilities: the shared UVFITS files and Measurement Sets against the known
// answers of formats-interferometry.md section 8, round trips through our own UVFITS and MS
// writers, and the bad inputs.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <complex>
#include <string>

#include "inspect/inspect_report.hpp"
#include "inspect_test_support.hpp"
#include "io/measurement_set.hpp"
#include "io/uvfits.hpp"
#include "io/visibility_set.hpp"
#include "test_data.hpp"

using rapt::testing::contains;
using rapt::testing::inspect_error;
using rapt::testing::number_after;
using rapt::testing::report_line_of;
using rapt::testing::ScratchDir;

namespace {

// Three antennas, two integrations 10 s apart, three baselines, two channels, XX and YY.
// XX = 3 + 4i everywhere (|V| 5); YY = 1 except one flagged sample of 100.
rapt::VisibilitySet small_visibilities() {
  rapt::VisibilitySet vis;
  vis.telescope = "TESTARRAY";
  vis.instrument = "RAPTCORR";
  vis.object = "3C123";
  vis.phase_centre_ra_rad = 69.268 / 57.29577951308232;
  vis.phase_centre_dec_rad = 29.6706 / 57.29577951308232;
  vis.array.telescope = "TESTARRAY";
  vis.array.reference_itrf_m = {5109224.0, 2006790.0, -3239100.0};
  for (int a = 0; a < 3; ++a)
    vis.array.antennas.push_back({"T" + std::to_string(a),
                                  {5109224.0 + 10.0 * a, 2006790.0 - 20.0 * a, -3239100.0},
                                  12.0});
  vis.channel_freq_hz = {150e6, 151e6};
  vis.channel_width_hz = 1e6;
  vis.stokes = {-5, -6};
  const std::array<double, 3> uvw[3] = {{100, 0, 0}, {0, -300, 40}, {3, 4, 0}};
  const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int t = 0; t < 2; ++t)
    for (int b = 0; b < 3; ++b) {
      vis.time_mjd.push_back(60000.5 + t * 10.0 / 86400.0);
      vis.integration_s.push_back(10.0f);
      vis.antenna1.push_back(pairs[b][0]);
      vis.antenna2.push_back(pairs[b][1]);
      vis.uvw_m.push_back(uvw[b]);
      for (int k = 0; k < 2; ++k) {
        const bool flagged = t == 1 && b == 2 && k == 1;
        vis.vis.push_back({3.0f, 4.0f});
        vis.vis.push_back({flagged ? 100.0f : 1.0f, 0.0f});
        vis.weight.insert(vis.weight.end(), {1.0f, 1.0f});
        vis.flag.push_back(0);
        vis.flag.push_back(flagged ? 1 : 0);
      }
    }
  return vis;
}

void expect_small_visibility_report(const std::string& report) {
  EXPECT_TRUE(contains(report_line_of(report, "Source"), "3C123")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Rows"), " 6")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Baselines"), " 3"));
  EXPECT_TRUE(contains(report_line_of(report, "Antennas"), " 3 in the antenna table, 3 in the rows"));
  EXPECT_TRUE(contains(report_line_of(report, "Integrations"), " 2"));
  EXPECT_TRUE(contains(report_line_of(report, "Time range (UTC)"), "2023-02-25 12:00:0"));
  EXPECT_TRUE(contains(report_line_of(report, "First channel (MHz)"), "150.000000"));
  EXPECT_TRUE(contains(report_line_of(report, "Last channel (MHz)"), "151.000000"));
  EXPECT_TRUE(contains(report_line_of(report, "Polarisation products"), " XX YY"));
  EXPECT_TRUE(contains(report_line_of(report, "Phase centre (J2000)"), "04:37:04.3200  +29:40:14.160"));
  EXPECT_TRUE(contains(report_line_of(report, "Pointing (J2000)"), "04:37:04.3200  +29:40:14.160"));
  EXPECT_TRUE(contains(report_line_of(report, "Longest baseline |uvw| (m)"), "302.655"));
  EXPECT_TRUE(contains(report_line_of(report, "Largest |u| |v| |w| (m)"), "100.000 300.000 40.000"));
  const std::string xx = report_line_of(report, "XX");
  EXPECT_NEAR(number_after(xx, "mean "), 5.0, 1e-5) << report;
  EXPECT_NEAR(number_after(xx, "max "), 5.0, 1e-5);
  EXPECT_EQ(number_after(xx, "flagged "), 0.0);
  const std::string yy = report_line_of(report, "YY");
  EXPECT_NEAR(number_after(yy, "max "), 1.0, 1e-6) << report;  // the flagged 100 is left out
  EXPECT_NEAR(number_after(yy, "flagged "), 1.0 / 12.0, 1e-4);
}

}  // namespace

TEST(InspectVisibilities, ReportsTheMwaUvfits) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/1061316296.uvfits");
  const std::string report = rapt::inspect_file(path, {});
  EXPECT_TRUE(contains(report, "(UVFITS)")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Rows"), " 16256"));
  EXPECT_TRUE(contains(report_line_of(report, "Antennas"), " 128 in the antenna table"));
  EXPECT_TRUE(contains(report_line_of(report, "Baselines"), " 8128 (127 of them autocorrelations)"))
      << report;
  EXPECT_TRUE(contains(report_line_of(report, "Integrations"), " 2"));
  EXPECT_TRUE(contains(report_line_of(report, "Polarisation products"), " XX YY XY YX"));
  EXPECT_TRUE(contains(report_line_of(report, "Channels"), " 1"));
  EXPECT_TRUE(contains(report_line_of(report, "First channel (MHz)"), "167.075000"));
  EXPECT_NEAR(number_after(report_line_of(report, "Largest |u| |v| |w| (m)"), "(m) "), 2393.2, 0.05);
  // Every weight is 0 in this file, so all of it is flagged.
  EXPECT_EQ(number_after(report_line_of(report, "All products"), "flagged "), 1.0) << report;
  EXPECT_FALSE(report_line_of(report, "All, flags ignored").empty());
}

TEST(InspectVisibilities, ReportsThePaperUvfits) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/zen.2456865.60537.xy.uvcRREAAM.uvfits");
  std::vector<std::string> warnings;
  const std::string report = rapt::inspect_file(path, {}, &warnings);
  EXPECT_TRUE(contains(report_line_of(report, "Rows"), " 285")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Baselines"), " 15"));
  EXPECT_TRUE(contains(report_line_of(report, "Integrations"), " 19"));
  EXPECT_TRUE(contains(report_line_of(report, "Channels"), " 11"));
  EXPECT_TRUE(contains(report_line_of(report, "Polarisation products"), " XY"));
  EXPECT_TRUE(contains(report_line_of(report, "Source"), "zenith"));
  EXPECT_FALSE(warnings.empty());
  for (const std::string& w : warnings) EXPECT_EQ(w.rfind(path + ": ", 0), 0u) << w;
}

TEST(InspectVisibilities, ReportsTheEvlaMeasurementSet) {
  if (!rapt::measurement_set_supported()) GTEST_SKIP() << "built without casacore";
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/day2_TDEM0003_10s_norx_1src_1spw.ms");
  const std::string report = rapt::inspect_file(path, {});
  EXPECT_TRUE(contains(report, "(Measurement Set)")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Rows"), " 1360"));
  EXPECT_TRUE(contains(report_line_of(report, "Channels"), " 64"));
  EXPECT_TRUE(contains(report_line_of(report, "Polarisation products"), " RR RL LR LL"));
  EXPECT_TRUE(contains(report_line_of(report, "Baselines"), " 153"));
  EXPECT_TRUE(contains(report_line_of(report, "Integrations"), " 15"));
  EXPECT_TRUE(contains(report_line_of(report, "Source"), "J1008+0730"));
  EXPECT_TRUE(contains(report_line_of(report, "Time range (UTC)"), "2010-04-26 03:21:56"));
  EXPECT_TRUE(contains(report_line_of(report, "Channel width (kHz)"), "125.000000"));
  EXPECT_NEAR(number_after(report_line_of(report, "Largest |u| |v| |w| (m)"), "(m) "), 1011.35, 0.01)
      << report;
  EXPECT_EQ(number_after(report_line_of(report, "All products"), "flagged "), 0.0);
}

TEST(InspectVisibilities, ReportsThePaperMeasurementSetLikeItsUvfits) {
  if (!rapt::measurement_set_supported()) GTEST_SKIP() << "built without casacore";
  RAPT_REQUIRE_SHARED_FILE(ms, "pyuvdata/zen.2456865.60537.xy.uvcRREAAM.ms");
  RAPT_REQUIRE_SHARED_FILE(uvfits, "pyuvdata/zen.2456865.60537.xy.uvcRREAAM.uvfits");
  const std::string from_ms = rapt::inspect_file(ms, {});
  const std::string from_uvfits = rapt::inspect_file(uvfits, {});
  for (const char* label : {"Rows", "Baselines", "Integrations", "Channels", "XY"})
    EXPECT_EQ(report_line_of(from_ms, label), report_line_of(from_uvfits, label)) << label;
}

TEST(InspectVisibilities, MeasurementSetWithoutCasacoreIsOneReadError) {
  if (rapt::measurement_set_supported()) GTEST_SKIP() << "this build reads Measurement Sets";
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/day2_TDEM0003_10s_norx_1src_1spw.ms");
  const std::string message = inspect_error(path);  // a DataError: the next file is still read
  EXPECT_EQ(message.rfind(path + ": this build of rapt has no Measurement Set support", 0), 0u)
      << message;
}

TEST(InspectVisibilities, RoundTripsOurUvfitsWriter) {
  ScratchDir dir;
  rapt::write_uvfits(dir.file("small.uvfits"), small_visibilities(), false);
  const std::string report = rapt::inspect_file(dir.file("small.uvfits"), {});
  EXPECT_TRUE(contains(report, "(UVFITS)")) << report;
  expect_small_visibility_report(report);
}

TEST(InspectVisibilities, LeavesNaNValuesOutOfTheAmplitudes) {
  ScratchDir dir;
  rapt::VisibilitySet vis = small_visibilities();
  vis.vis[23] = {NAN, 0.0f};  // the flagged YY sample, stored as NaN as some writers do
  vis.vis[4] = {3.0f, NAN};   // an unflagged XX sample
  ASSERT_TRUE(vis.flag[23]);
  rapt::write_uvfits(dir.file("nan.uvfits"), vis, false);
  const std::string report = rapt::inspect_file(dir.file("nan.uvfits"), {});
  // XX is 5 and YY 1 wherever they are finite.
  EXPECT_DOUBLE_EQ(number_after(report_line_of(report, "XX"), "mean "), 5.0) << report;
  EXPECT_DOUBLE_EQ(number_after(report_line_of(report, "YY"), "mean "), 1.0) << report;
  EXPECT_DOUBLE_EQ(number_after(report_line_of(report, "All, flags ignored"), "max "), 5.0)
      << report;
  EXPECT_TRUE(contains(report, "Non-finite values            2 (NaN or infinite; left out of "
                               "the statistics)\n")) << report;
}

TEST(InspectVisibilities, RoundTripsOurMeasurementSetWriter) {
  if (!rapt::measurement_set_supported()) GTEST_SKIP() << "built without casacore";
  ScratchDir dir;
  rapt::write_measurement_set(dir.file("small.ms"), small_visibilities(), false);
  const std::string report = rapt::inspect_file(dir.file("small.ms"), {});
  EXPECT_TRUE(contains(report, "(Measurement Set)")) << report;
  expect_small_visibility_report(report);
}

TEST(InspectVisibilities, ReportsThePointingApartFromThePhaseCentre) {
  ScratchDir dir;
  rapt::VisibilitySet vis = small_visibilities();
  vis.pointing = rapt::SkyDirection{70.0 / 57.29577951308232, 30.5 / 57.29577951308232};
  std::vector<std::string> paths = {dir.file("p.uvfits")};
  rapt::write_uvfits(paths[0], vis, false);
  if (rapt::measurement_set_supported()) {
    paths.push_back(dir.file("p.ms"));
    rapt::write_measurement_set(paths[1], vis, false);
  }
  for (const std::string& path : paths) {
    const std::string report = rapt::inspect_file(path, {true, false, 0});
    EXPECT_TRUE(contains(report_line_of(report, "Phase centre (J2000)"), "04:37:04.3200  +29:40:14.160"))
        << report;
    EXPECT_TRUE(contains(report_line_of(report, "Pointing (J2000)"), "04:40:00.0000  +30:30:00.000"))
        << report;
  }
}

TEST(InspectVisibilities, HeaderOnlyLeavesOutTheAmplitudes) {
  ScratchDir dir;
  rapt::write_uvfits(dir.file("small.uvfits"), small_visibilities(), false);
  const std::string report = rapt::inspect_file(dir.file("small.uvfits"), {true, false, 0});
  EXPECT_FALSE(contains(report, "Statistics")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Rows"), " 6"));
}

TEST(InspectVisibilities, TruncatedUvfitsNamesTheFile) {
  ScratchDir dir;
  rapt::write_uvfits(dir.file("small.uvfits"), small_visibilities(), false);
  const std::string whole = rapt::testing::read_whole_file(dir.file("small.uvfits"));
  const std::string path = dir.file("cut.uvfits");
  rapt::testing::write_whole_file(path, whole.substr(0, 2880 + 100));
  const std::string message = inspect_error(path);
  EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
}

TEST(InspectVisibilities, DirectoryThatIsNoMeasurementSetIsNamed) {
  ScratchDir dir;
  const std::string path = dir.file("empty.ms");
  ASSERT_EQ(::mkdir(path.c_str(), 0755), 0);
  EXPECT_EQ(inspect_error(path), path + ": a directory, and not a Measurement Set (no table.dat)");
}
