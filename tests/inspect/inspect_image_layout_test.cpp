// inspect on FITS images (a round trip through our writer) and plain-text layout files.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "inspect/inspect_report.hpp"
#include "inspect_test_support.hpp"
#include "io/fits_image.hpp"
#include "test_data.hpp"

using rapt::testing::contains;
using rapt::testing::inspect_error;
using rapt::testing::number_after;
using rapt::testing::report_line_of;
using rapt::testing::ScratchDir;

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;

// 32 x 16 pixels of 0.5 with a peak of 7.5 at (x 5, y 9) and one blanked pixel at (0, 0).
rapt::FitsImage small_image() {
  rapt::FitsImage image;
  image.nx = 32;
  image.ny = 16;
  image.pixels.assign(32 * 16, 0.5f);
  image.pixels[9 * 32 + 5] = 7.5f;
  image.pixels[0] = std::nanf("");
  image.cell_rad = 2.0 / 3600.0 * kDeg;
  image.phase_centre_ra_rad = 152.0000667 * kDeg;
  image.phase_centre_dec_rad = -27.5045978 * kDeg;
  image.freq_hz = 1.4e9;
  image.bandwidth_hz = 8e6;
  image.stokes = -5;
  image.beam_major_deg = 0.01;
  image.beam_minor_deg = 0.005;
  image.beam_pa_deg = 33.0;
  image.object = "J1008+0730";
  image.telescope = "EVLA";
  return image;
}

const char kLayout[] =
    "# telescope: TOY\n"
    "# frame: enu -30:42:39.8 21:26:38.0 1086.6\n"
    "a   0  0 0 13.5\n"
    "b  30 40 0 13.5\n"
    "c -30 40 0 13.5\n";

}  // namespace

TEST(InspectImage, RoundTripsOurFitsImageWriter) {
  ScratchDir dir;
  rapt::write_fits_image(dir.file("image.fits"), small_image(), false);
  const std::string report = rapt::inspect_file(dir.file("image.fits"), {});
  EXPECT_TRUE(contains(report, "(FITS image)")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Size (pixels)"), "32 x 16"));
  EXPECT_TRUE(contains(report_line_of(report, "Cell (arcsec)"), " 2\n") ||
              report_line_of(report, "Cell (arcsec)").substr(31) == "2") << report;
  EXPECT_TRUE(contains(report_line_of(report, "Centre (J2000)"), "10:08:00.0160  -27:30:16.552"));
  EXPECT_TRUE(contains(report_line_of(report, "Frequency (MHz)"), "1400.000000"));
  EXPECT_TRUE(contains(report_line_of(report, "Stokes"), "XX"));
  EXPECT_TRUE(contains(report_line_of(report, "Unit (BUNIT)"), "JY/BEAM"));
  EXPECT_TRUE(contains(report_line_of(report, "Beam"), "36 x 18 arcsec, PA 33 deg"));
  EXPECT_TRUE(contains(report_line_of(report, "Blanked (NaN) pixels"), " 1"));
  const std::string pixels = report_line_of(report, "Pixels");
  EXPECT_DOUBLE_EQ(number_after(pixels, "min "), 0.5);
  EXPECT_DOUBLE_EQ(number_after(pixels, "max "), 7.5);
  EXPECT_TRUE(contains(report_line_of(report, "Peak"), "7.5 at pixel (5, 9) from 0; FITS (6, 10)"))
      << report;
}

TEST(InspectImage, HeaderOnlyLeavesOutThePixelStatistics) {
  ScratchDir dir;
  rapt::write_fits_image(dir.file("image.fits"), small_image(), false);
  const std::string report = rapt::inspect_file(dir.file("image.fits"), {true, false, 0});
  EXPECT_FALSE(contains(report, "Peak")) << report;
}

TEST(InspectImage, TruncatedImageNamesTheFile) {
  ScratchDir dir;
  rapt::write_fits_image(dir.file("image.fits"), small_image(), false);
  const std::string whole = rapt::testing::read_whole_file(dir.file("image.fits"));
  const std::string path = dir.file("cut.fits");
  rapt::testing::write_whole_file(path, whole.substr(0, 2880 + 64));
  const std::string message = inspect_error(path);
  EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
}

TEST(InspectLayout, RecognisesALayoutByItsFrameLine) {
  ScratchDir dir;
  rapt::testing::write_whole_file(dir.file("toy.txt"), kLayout);
  const std::string report = rapt::inspect_file(dir.file("toy.txt"), {});
  EXPECT_TRUE(contains(report, "(array layout)")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Telescope"), "TOY"));
  EXPECT_TRUE(contains(report_line_of(report, "Antennas"), " 3"));
  EXPECT_TRUE(contains(report_line_of(report, "Baselines (m)"), "50.000 .. 60.000")) << report;
  EXPECT_TRUE(contains(report_line_of(report, "Reference lat, lon (deg)"), "-30.711056 21.443889"))
      << report;
  EXPECT_TRUE(contains(report, "\n  b             30.000        40.000")) << report;
}

TEST(InspectLayout, NeedsTheOptionWithoutAFrameLine) {
  ScratchDir dir;
  const std::string path = dir.file("plain.txt");
  rapt::testing::write_whole_file(path, "a 5109224 2006790 -3239100\nb 5109234 2006790 -3239100\n");
  EXPECT_NE(inspect_error(path).find(path + ": not a format inspect reads ("), std::string::npos);
  rapt::InspectSettings settings;
  settings.layout = true;
  const std::string report = rapt::inspect_file(path, settings);
  EXPECT_TRUE(contains(report_line_of(report, "Baselines (m)"), "10.000 .. 10.000")) << report;
}

TEST(InspectLayout, BadLineNamesTheFileAndTheLine) {
  ScratchDir dir;
  const std::string path = dir.file("bad.txt");
  rapt::testing::write_whole_file(path, std::string(kLayout) + "d 1 2\n");
  const std::string message = inspect_error(path);
  EXPECT_EQ(message.rfind(path + ": line 6", 0), 0u) << message;
}
