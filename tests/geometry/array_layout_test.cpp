#include "geometry/array_layout.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cli/errors.hpp"
#include "geometry_test_support.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

double distance_m(const ItrfPosition& a, const ItrfPosition& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

// The DataError text of parsing `text` as "bad.txt", or "" if it parsed.
std::string parse_error(const std::string& text) {
  try {
    parse_layout_text(text, "bad.txt");
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

TEST(ArrayLayoutText, ReadsItrfLinesWithTabsCrlfAndTrailingComments) {
  const ArrayLayout layout = parse_layout_text(
      "# telescope: Test array\r\n"
      "\r\n"
      "a1\t5109100.5  2006900  -3239000 13.5   # first dish\r\n"
      "  a2 5108899.5\t2006700 -3239600\r\n",
      "test.txt");
  EXPECT_EQ(layout.telescope, "Test array");
  ASSERT_EQ(layout.size(), 2);
  EXPECT_EQ(layout.antennas[0].name, "a1");
  EXPECT_DOUBLE_EQ(layout.antennas[0].itrf_m[0], 5109100.5);
  EXPECT_DOUBLE_EQ(layout.antennas[0].dish_diameter_m, 13.5);
  EXPECT_DOUBLE_EQ(layout.antennas[1].itrf_m[2], -3239600.0);
  EXPECT_DOUBLE_EQ(layout.antennas[1].dish_diameter_m, 0.0);
  // No reference line: the mean of the positions.
  EXPECT_DOUBLE_EQ(layout.reference_itrf_m[0], 5109000.0);
  EXPECT_DOUBLE_EQ(layout.reference_itrf_m[1], 2006800.0);
  EXPECT_DOUBLE_EQ(layout.reference_itrf_m[2], -3239300.0);
}

TEST(ArrayLayoutText, RefusesItrfPositionsOffTheEarthsSurface) {
  // Positions around a site written without their '# frame: enu' line.
  EXPECT_EQ(parse_error("# a site\nA 0 0 0\nB 10 0 0\n"),
            "bad.txt: line 2: antenna 'A' lies 0 km from the Earth's centre: ITRF positions (the "
            "default frame) are geocentric; for positions around a site give '# frame: enu "
            "<lat_deg> <lon_deg> <height_m>'");
  EXPECT_NE(parse_error("A 5109224 2006790 -3239100\nB 5109224 2006790 -32391000\n")
                .find("bad.txt: line 2: antenna 'B' lies 32"),
            std::string::npos);
}

TEST(ArrayLayoutText, ReferenceLineSetsTheItrfReference) {
  const ArrayLayout layout =
      parse_layout_text("# reference: 5109001 2006802 -3239003\na 5109010 2006820 -3239030\n"
                        "b 5109011 2006821 -3239031\n", "ref.txt");
  EXPECT_DOUBLE_EQ(layout.reference_itrf_m[0], 5109001.0);
  EXPECT_DOUBLE_EQ(layout.reference_itrf_m[1], 2006802.0);
  EXPECT_DOUBLE_EQ(layout.reference_itrf_m[2], -3239003.0);
}

TEST(ArrayLayoutText, EnuFrameConvertsAroundTheGeodeticReference) {
  const ArrayLayout layout = parse_layout_text(
      "# frame: enu -30:42:39.8 21:26:38.0 1086.6\ncentre 0 0 0\nnorth 0 1000 0\n", "enu.txt");
  const GeodeticPosition reference = testing::meerkat_reference();
  const ItrfPosition expected_reference = geodetic_to_itrf(reference);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(layout.reference_itrf_m[k], expected_reference[k], 1e-6);
    EXPECT_NEAR(layout.antennas[0].itrf_m[k], expected_reference[k], 1e-6);
  }
  const EnuOffset north = itrf_to_enu(reference, layout.antennas[1].itrf_m);
  EXPECT_NEAR(north[0], 0.0, 1e-8);
  EXPECT_NEAR(north[1], 1000.0, 1e-8);
  EXPECT_NEAR(north[2], 0.0, 1e-8);
}

TEST(ArrayLayoutText, EnuFrameAcceptsDecimalDegrees) {
  const ArrayLayout a = parse_layout_text("# frame: ENU -30.5 21.25 1000\nx 1 2 3\n", "a.txt");
  const ArrayLayout b = parse_layout_text("# frame: enu -30:30:00 21:15 1000\nx 1 2 3\n", "b.txt");
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(a.antennas[0].itrf_m[k], b.antennas[0].itrf_m[k], 1e-6);
}

TEST(ArrayLayoutText, MalformedLineNamesFileAndLine) {
  const std::string message = parse_error("# comment\na 1 2 3\nb 1 2\n");
  EXPECT_NE(message.find("bad.txt: line 3:"), std::string::npos) << message;
  EXPECT_NE(message.find("expected 'name x y z [diameter]'"), std::string::npos) << message;
}

TEST(ArrayLayoutText, NonNumericCoordinateIsNamed) {
  const std::string message = parse_error("a 1 2 zz\n");
  EXPECT_NE(message.find("bad.txt: line 1: z 'zz' is not a finite number"), std::string::npos)
      << message;
}

TEST(ArrayLayoutText, NanCoordinateIsRejected) {
  const std::string message = parse_error("a 1 nan 3\n");
  EXPECT_NE(message.find("bad.txt: line 1: y 'nan' is not a finite number"), std::string::npos)
      << message;
}

TEST(ArrayLayoutText, AbsurdlyLargeCoordinateIsRejected) {
  const std::string message = parse_error("a 1 2 3\nb 1e300 2 3\n");
  EXPECT_NE(message.find("bad.txt: line 2: x '1e300' is more than 1e10 m"), std::string::npos)
      << message;
}

TEST(ArrayLayoutText, DuplicateNameNamesBothLines) {
  const std::string message = parse_error("a 1 2 3\n\nb 4 5 6\na 7 8 9\n");
  EXPECT_NE(message.find("bad.txt: line 4: antenna name 'a' already used on line 1"),
            std::string::npos)
      << message;
}

TEST(ArrayLayoutText, NoAntennasIsAnError) {
  EXPECT_EQ(parse_error("# telescope: Empty\n\n"), "bad.txt: no antenna lines");
  EXPECT_EQ(parse_error(""), "bad.txt: no antenna lines");
}

TEST(ArrayLayoutText, UnknownFrameIsAnError) {
  const std::string message = parse_error("# frame: galactic\na 1 2 3\n");
  EXPECT_NE(message.find("bad.txt: line 1: expected 'frame: itrf' or 'frame: enu"),
            std::string::npos)
      << message;
}

TEST(ArrayLayoutText, FrameAfterAntennasIsAnError) {
  const std::string message = parse_error("a 1 2 3\n# frame: itrf\n");
  EXPECT_NE(message.find("bad.txt: line 2: 'frame' must come before the first antenna line"),
            std::string::npos)
      << message;
}

TEST(ArrayLayoutText, LatitudeOutOfRangeIsAnError) {
  const std::string message = parse_error("# frame: enu 95 20 1000\na 1 2 3\n");
  EXPECT_NE(message.find("bad.txt: line 1: latitude outside [-90, 90] degrees"), std::string::npos)
      << message;
}

TEST(ArrayLayoutText, NegativeDiameterIsAnError) {
  const std::string message = parse_error("a 1 2 3 -5\n");
  EXPECT_NE(message.find("bad.txt: line 1: diameter is negative"), std::string::npos) << message;
}

TEST(ArrayLayoutText, BadReferenceLineIsAnError) {
  const std::string message = parse_error("# reference: 1 2\na 1 2 3\n");
  EXPECT_NE(message.find("bad.txt: line 1: expected 'reference: x y z'"), std::string::npos)
      << message;
}

TEST(ArrayLayoutFile, MissingFileNamesThePath) {
  testing::ScratchDir scratch;
  const std::string path = scratch.file("none.txt");
  try {
    read_layout_file(path);
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":", 0), 0u) << e.what();
  }
}

TEST(ArrayLayoutFile, MeerkatExampleHas64DishesWithinFiveKilometres) {
  const std::string path = testing::repository_file("examples/layouts/meerkat.txt");
  ASSERT_FALSE(path.empty()) << "examples/layouts/meerkat.txt not found";
  const ArrayLayout layout = read_layout_file(path);
  EXPECT_EQ(layout.telescope, "MeerKAT");
  ASSERT_EQ(layout.size(), 64);
  EXPECT_EQ(layout.antennas[0].name, "m000");
  EXPECT_EQ(layout.antennas[63].name, "m063");
  const ItrfPosition reference = geodetic_to_itrf(testing::meerkat_reference());
  for (const Antenna& antenna : layout.antennas) {
    EXPECT_DOUBLE_EQ(antenna.dish_diameter_m, 13.5);
    EXPECT_LT(distance_m(antenna.itrf_m, reference), 4500.0) << antenna.name;
  }
  EXPECT_LT(distance_m(layout.reference_itrf_m, reference), 1e-6);
  // m000 is 207 m south and 8 m west of the reference.
  const EnuOffset m000 = itrf_to_enu(testing::meerkat_reference(), layout.antennas[0].itrf_m);
  EXPECT_NEAR(m000[0], -8.264, 1e-6);
  EXPECT_NEAR(m000[1], -207.290, 1e-6);
}

TEST(ArrayLayoutFile, VlaDExampleHas27DishesAroundTheSite) {
  const std::string path = testing::repository_file("examples/layouts/vla_d.txt");
  ASSERT_FALSE(path.empty()) << "examples/layouts/vla_d.txt not found";
  const ArrayLayout layout = read_layout_file(path);
  EXPECT_EQ(layout.telescope, "VLA");
  ASSERT_EQ(layout.size(), 27);
  const GeodeticPosition site = itrf_to_geodetic(layout.reference_itrf_m);
  EXPECT_NEAR(site.latitude_rad / testing::kDegToRad, 34.08, 0.01);
  EXPECT_NEAR(site.longitude_rad / testing::kDegToRad, -107.62, 0.01);
  for (const Antenna& antenna : layout.antennas) {
    EXPECT_DOUBLE_EQ(antenna.dish_diameter_m, 25.0);
    EXPECT_LT(distance_m(antenna.itrf_m, layout.reference_itrf_m), 700.0) << antenna.name;
  }
  // The north arm runs north: N09 is north of N01.
  const EnuOffset n01 = itrf_to_enu(site, layout.antennas[18].itrf_m);
  const EnuOffset n09 = itrf_to_enu(site, layout.antennas[26].itrf_m);
  EXPECT_EQ(layout.antennas[26].name, "N09");
  EXPECT_GT(n09[1] - n01[1], 400.0);
}

}  // namespace
}  // namespace rapt
