#include "bf/beam_directions.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/errors.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegToRad = kPi / 180.0;

Vector3 unit_vector(const SkyDirection& d) {
  return {std::cos(d.dec_rad) * std::cos(d.ra_rad), std::cos(d.dec_rad) * std::sin(d.ra_rad),
          std::sin(d.dec_rad)};
}

// Angle between two directions, accurate for small angles.
double separation_rad(const SkyDirection& a, const SkyDirection& b) {
  const Vector3 u = unit_vector(a), v = unit_vector(b);
  const Vector3 cross{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                      u[0] * v[1] - u[1] * v[0]};
  const double dot = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  return std::atan2(std::hypot(cross[0], cross[1], cross[2]), dot);
}

const SkyDirection kPointing{1.2, -0.5};

// The DataError text of parsing `text` as "beams.txt", or "" if it parsed.
std::string parse_error(const std::string& text, const SkyDirection& pointing = kPointing) {
  try {
    parse_beams_text(text, "beams.txt", pointing);
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

std::string tiling_error(BeamTiling tiling, double spacing_deg, int count) {
  try {
    tile_beams(tiling, spacing_deg, count, kPointing);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

// Position angle of (l, m) from north through east, degrees in [0, 360).
double position_angle_deg(double l, double m) {
  double pa = std::atan2(l, m) / kDegToRad;
  if (pa < 0) pa += 360.0;
  return pa;
}

TEST(DirectionFromLmn, RoundTripsWithDirectionLmnEverywhereOnTheSky) {
  const std::vector<SkyDirection> pointings = {
      {1.2, -0.5},          {0.0, 0.0},
      {2 * kPi - 1e-9, 0.3},                                  // just short of 24h
      {3.0, 89.9999 * kDegToRad}, {0.5, -89.99999 * kDegToRad},
      {4.0, kPi / 2},       {5.0, -kPi / 2}};                // at the poles
  const std::vector<std::pair<double, double>> offsets = {
      {0, 0}, {1e-6, -2e-6}, {0.01, -0.02}, {-0.3, 0.4}, {0.6, 0.55}, {-0.05, -0.9}};
  for (const SkyDirection& pointing : pointings) {
    for (const auto& [l, m] : offsets) {
      const SkyDirection direction = direction_from_lmn(l, m, pointing);
      EXPECT_GE(direction.ra_rad, 0.0);
      EXPECT_LT(direction.ra_rad, 2 * kPi);
      const Vector3 lmn = direction_lmn(direction, pointing);
      EXPECT_NEAR(lmn[0], l, 1e-12) << pointing.ra_rad << " " << pointing.dec_rad;
      EXPECT_NEAR(lmn[1], m, 1e-12) << pointing.ra_rad << " " << pointing.dec_rad;
      EXPECT_GT(lmn[2], 0.0);
      // And back: direction -> (l, m) -> the same direction.
      const SkyDirection again = direction_from_lmn(lmn[0], lmn[1], pointing);
      EXPECT_LT(separation_rad(again, direction), 1e-12);
    }
  }
}

TEST(DirectionFromLmn, CentreIsThePointing) {
  const SkyDirection centre = direction_from_lmn(0, 0, kPointing);
  EXPECT_NEAR(centre.ra_rad, kPointing.ra_rad, 1e-15);
  EXPECT_NEAR(centre.dec_rad, kPointing.dec_rad, 1e-15);
}

TEST(DirectionFromLmn, WrapsRightAscensionAcrossZeroHours) {
  // Just east of 0h, a beam to the west lands just short of 24h, and the other way round.
  const SkyDirection west = direction_from_lmn(-0.01, 0, {0.001, 0.2});
  EXPECT_GT(west.ra_rad, 2 * kPi - 0.02);
  EXPECT_LT(west.ra_rad, 2 * kPi);
  const SkyDirection east = direction_from_lmn(0.01, 0, {2 * kPi - 0.001, 0.2});
  EXPECT_GE(east.ra_rad, 0.0);
  EXPECT_LT(east.ra_rad, 0.02);
  const Vector3 lmn = direction_lmn(east, {2 * kPi - 0.001, 0.2});
  EXPECT_NEAR(lmn[0], 0.01, 1e-14);
  EXPECT_NEAR(lmn[1], 0.0, 1e-14);
}

TEST(DirectionFromLmn, RefusesOffsetsOutsideTheSky) {
  EXPECT_THROW(direction_from_lmn(0.8, 0.8, kPointing), std::invalid_argument);
  EXPECT_THROW(direction_from_lmn(NAN, 0, kPointing), std::invalid_argument);
  EXPECT_NO_THROW(direction_from_lmn(1.0, 0.0, kPointing));
}

TEST(BeamsFile, ReadsRaDecAndOffsetLines) {
  const std::vector<BeamDirection> beams = parse_beams_text(
      "# two beams and an offset\r\n"
      "\r\n"
      "05:34:31.94\t+22:00:52.2  crab   # the Crab pulsar\r\n"
      "  83.5 -30.25\r\n"
      "offset 0.5 -0.25 east_south\r\n"
      "OFFSET 0 0\n",
      "beams.txt", kPointing);
  ASSERT_EQ(beams.size(), 4u);
  EXPECT_EQ(beams[0].name, "crab");
  EXPECT_NEAR(beams[0].direction.ra_rad, (5 + 34 / 60.0 + 31.94 / 3600.0) * kPi / 12, 1e-15);
  EXPECT_NEAR(beams[0].direction.dec_rad, (22 + 52.2 / 3600.0) * kDegToRad, 1e-15);
  EXPECT_EQ(beams[1].name, "B1");
  EXPECT_NEAR(beams[1].direction.ra_rad, 83.5 * kDegToRad, 1e-15);
  EXPECT_NEAR(beams[1].direction.dec_rad, -30.25 * kDegToRad, 1e-15);
  EXPECT_EQ(beams[2].name, "east_south");
  EXPECT_DOUBLE_EQ(beams[2].l, 0.5 * kDegToRad);
  EXPECT_DOUBLE_EQ(beams[2].m, -0.25 * kDegToRad);
  EXPECT_EQ(beams[3].name, "B3");
  EXPECT_NEAR(separation_rad(beams[3].direction, kPointing), 0.0, 1e-15);
  // l, m of a direction line are its direction cosines from the pointing centre.
  const Vector3 lmn = direction_lmn(beams[1].direction, kPointing);
  EXPECT_DOUBLE_EQ(beams[1].l, lmn[0]);
  EXPECT_DOUBLE_EQ(beams[1].m, lmn[1]);
}

TEST(BeamsFile, OffsetBeamsDirectionLmnEqualsTheOffset) {
  for (const SkyDirection& pointing :
       {kPointing, SkyDirection{0.0001, 1.5}, SkyDirection{6.28, -1.5707}}) {
    const std::vector<BeamDirection> beams =
        parse_beams_text("offset 1.5 -2.25\noffset -20 30\n", "beams.txt", pointing);
    ASSERT_EQ(beams.size(), 2u);
    const Vector3 a = direction_lmn(beams[0].direction, pointing);
    EXPECT_NEAR(a[0], 1.5 * kDegToRad, 1e-12);
    EXPECT_NEAR(a[1], -2.25 * kDegToRad, 1e-12);
    const Vector3 b = direction_lmn(beams[1].direction, pointing);
    EXPECT_NEAR(b[0], -20 * kDegToRad, 1e-12);
    EXPECT_NEAR(b[1], 30 * kDegToRad, 1e-12);
  }
}

TEST(BeamsFile, ReadsTheFileItNames) {
  testing::ScratchDir scratch;
  const std::string path = scratch.file("beams.txt");
  testing::write_whole_file(path, "offset 0 1 up\n");
  const std::vector<BeamDirection> beams = read_beams_file(path, kPointing);
  ASSERT_EQ(beams.size(), 1u);
  EXPECT_EQ(beams[0].name, "up");
  try {
    read_beams_file(scratch.file("none.txt"), kPointing);
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(scratch.file("none.txt") + ":", 0), 0u) << e.what();
  }
}

TEST(BeamsFile, MalformedLineNamesFileLineAndText) {
  EXPECT_EQ(parse_error("offset 0 0\nnonsense\n"),
            "beams.txt: line 2: expected '<ra> <dec> [name]' or 'offset <east_deg> <north_deg> "
            "[name]', got 'nonsense'");
  EXPECT_EQ(parse_error("12:00:00 -30:00:00 a b\n"),
            "beams.txt: line 1: expected '<ra> <dec> [name]' or 'offset <east_deg> <north_deg> "
            "[name]', got '12:00:00 -30:00:00 a b'");
  EXPECT_EQ(parse_error("offset 1\n"),
            "beams.txt: line 1: expected 'offset <east_deg> <north_deg> [name]', got 'offset 1'");
}

TEST(BeamsFile, BadRightAscensionIsNamed) {
  EXPECT_EQ(parse_error("\nxx -30\n"),
            "beams.txt: line 2: right ascension 'xx' is not hh:mm:ss.s or decimal degrees");
  EXPECT_EQ(parse_error("24:00:00 -30\n"),
            "beams.txt: line 1: right ascension '24:00:00' is outside [0, 24h)");
  EXPECT_EQ(parse_error("360 -30\n"),
            "beams.txt: line 1: right ascension '360' is outside [0, 360) degrees");
}

TEST(BeamsFile, BadDeclinationIsNamed) {
  EXPECT_EQ(parse_error("12:00:00 -30:61:00\n"),
            "beams.txt: line 1: declination '-30:61:00' is not +-dd:mm:ss.s or decimal degrees");
  EXPECT_EQ(parse_error("12:00:00 -90.5\n"),
            "beams.txt: line 1: declination '-90.5' is outside [-90, 90] degrees");
}

TEST(BeamsFile, BadOffsetsAreNamed) {
  EXPECT_EQ(parse_error("offset 1e400 0\n"),
            "beams.txt: line 1: east offset '1e400' is not a finite number");
  EXPECT_EQ(parse_error("offset 0 north\n"),
            "beams.txt: line 1: north offset 'north' is not a finite number");
  EXPECT_EQ(parse_error("offset 50 40 far\n"),
            "beams.txt: line 1: offset (50, 40) degrees is outside the sky: l^2 + m^2 >= 1");
}

TEST(BeamsFile, DirectionBehindThePointingIsRefused) {
  // 12h from a pointing at 0h on the equator: 180 degrees away.
  EXPECT_EQ(parse_error("12:00:00 0\n", SkyDirection{0, 0}),
            "beams.txt: line 1: direction 12:00:00 0 is 90 degrees or more from the pointing "
            "centre");
}

TEST(BeamsFile, DuplicateNamesNameBothLines) {
  EXPECT_EQ(parse_error("offset 0 0 a\n# gap\noffset 0 1 a\n"),
            "beams.txt: line 3: beam name 'a' already used on line 1");
  EXPECT_EQ(parse_error("offset 0 0 B1\noffset 0 1\n"),
            "beams.txt: line 2: beam name 'B1' (given to a beam without a name) already used on "
            "line 1");
}

TEST(BeamsFile, NoBeamsNulAndEmptyAreErrors) {
  EXPECT_EQ(parse_error(""), "beams.txt: no beam lines");
  EXPECT_EQ(parse_error("# only a comment\n\n"), "beams.txt: no beam lines");
  EXPECT_EQ(parse_error(std::string("offset 0 0\noff\0set 1 1\n", 22)),
            "beams.txt: line 2: contains a NUL byte");
}

TEST(BeamTiling, HexOfSevenIsTheCentreAndSixAtSpacingInSixtyDegreeSteps) {
  const double spacing_deg = 0.05;
  const std::vector<BeamDirection> beams = tile_beams(BeamTiling::hex, spacing_deg, 7, kPointing);
  ASSERT_EQ(beams.size(), 7u);
  EXPECT_EQ(beams[0].l, 0.0);
  EXPECT_EQ(beams[0].m, 0.0);
  EXPECT_LT(separation_rad(beams[0].direction, kPointing), 1e-15);
  for (int b = 1; b < 7; ++b) {
    EXPECT_NEAR(std::hypot(beams[b].l, beams[b].m), spacing_deg * kDegToRad, 1e-16) << b;
    EXPECT_NEAR(position_angle_deg(beams[b].l, beams[b].m), 60.0 * (b - 1), 1e-9) << b;
    EXPECT_EQ(beams[b].name, "B" + std::to_string(b));
  }
  // Neighbours on the ring are a spacing apart too: a hexagon.
  for (int b = 1; b < 7; ++b) {
    const int next = b % 6 + 1;
    EXPECT_NEAR(std::hypot(beams[b].l - beams[next].l, beams[b].m - beams[next].m),
                spacing_deg * kDegToRad, 1e-16);
  }
}

TEST(BeamTiling, SquareOfNineIsTheThreeByThreeGrid) {
  const double s = 0.1 * kDegToRad;
  const std::vector<BeamDirection> beams = tile_beams(BeamTiling::square, 0.1, 9, kPointing);
  ASSERT_EQ(beams.size(), 9u);
  // Centre, then N, E, S, W, then NE, SE, SW, NW.
  const std::vector<std::pair<int, int>> expected = {{0, 0},  {0, 1},  {1, 0},   {0, -1}, {-1, 0},
                                                     {1, 1},  {1, -1}, {-1, -1}, {-1, 1}};
  for (size_t b = 0; b < 9; ++b) {
    EXPECT_NEAR(beams[b].l, expected[b].first * s, 1e-18) << b;
    EXPECT_NEAR(beams[b].m, expected[b].second * s, 1e-18) << b;
  }
}

TEST(BeamTiling, BeamsComeNearestFirstThenByPositionAngleAndAreDistinct) {
  for (const BeamTiling tiling : {BeamTiling::hex, BeamTiling::square}) {
    const std::vector<BeamDirection> beams = tile_beams(tiling, 0.2, 61, kPointing);
    ASSERT_EQ(beams.size(), 61u);
    std::set<std::pair<long, long>> seen;
    for (size_t b = 1; b < beams.size(); ++b) {
      const double r0 = std::hypot(beams[b - 1].l, beams[b - 1].m);
      const double r1 = std::hypot(beams[b].l, beams[b].m);
      EXPECT_LE(r0, r1 + 1e-15) << b;
      if (std::fabs(r1 - r0) < 1e-12) {
        EXPECT_LT(position_angle_deg(beams[b - 1].l, beams[b - 1].m),
                  position_angle_deg(beams[b].l, beams[b].m))
            << b;
      }
      seen.insert({std::lround(beams[b].l * 1e9), std::lround(beams[b].m * 1e9)});
    }
    EXPECT_EQ(seen.size(), 60u);
    // Same input, same beams.
    const std::vector<BeamDirection> again = tile_beams(tiling, 0.2, 61, kPointing);
    for (size_t b = 0; b < beams.size(); ++b) {
      EXPECT_EQ(again[b].l, beams[b].l);
      EXPECT_EQ(again[b].m, beams[b].m);
    }
  }
}

TEST(BeamTiling, DirectionsHaveTheirOffsetsAsDirectionCosines) {
  const SkyDirection pointing{0.0005, 88.0 * kDegToRad};
  for (const BeamDirection& beam : tile_beams(BeamTiling::hex, 0.5, 37, pointing)) {
    const Vector3 lmn = direction_lmn(beam.direction, pointing);
    EXPECT_NEAR(lmn[0], beam.l, 1e-12) << beam.name;
    EXPECT_NEAR(lmn[1], beam.m, 1e-12) << beam.name;
  }
}

TEST(BeamTiling, RefusesBadCountSpacingAndGridsOffTheSky) {
  EXPECT_EQ(tiling_error(BeamTiling::hex, 0.1, 0), "beam count 0 is less than 1");
  EXPECT_EQ(tiling_error(BeamTiling::hex, 0.0, 7),
            "beam spacing 0 degrees is not positive and finite");
  EXPECT_EQ(tiling_error(BeamTiling::square, -1.0, 7),
            "beam spacing -1 degrees is not positive and finite");
  EXPECT_EQ(tiling_error(BeamTiling::square, INFINITY, 7),
            "beam spacing inf degrees is not positive and finite");
  EXPECT_EQ(tiling_error(BeamTiling::square, 50.0, 9),
            "a square grid of 9 beams spaced 50 degrees reaches l^2 + m^2 >= 1");
  EXPECT_EQ(tiling_error(BeamTiling::hex, 1.0, 100000000),
            "a hex grid of 100000000 beams spaced 1 degrees reaches l^2 + m^2 >= 1");
  EXPECT_EQ(tile_beams(BeamTiling::square, 50.0, 5, kPointing).size(), 5u);  // 0.87 rad: fits
}

TEST(BeamTiling, ParsesHexAndSquare) {
  EXPECT_EQ(parse_beam_tiling("hex"), BeamTiling::hex);
  EXPECT_EQ(parse_beam_tiling("Square"), BeamTiling::square);
  try {
    parse_beam_tiling("circle");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "beam tiling 'circle': expected 'hex' or 'square'");
  }
}

}  // namespace
}  // namespace rapt
