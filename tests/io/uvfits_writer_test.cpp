// UVFITS writer: write-then-read round trips (synthetic and the MWA file), the atomic output and
// the refusals of what one UVFITS FREQ or STOKES axis cannot hold.
#include <gtest/gtest.h>

#include <fitsio.h>

#include <cmath>
#include <filesystem>

#include "cli/errors.hpp"
#include "io/uvfits.hpp"
#include "test_data.hpp"
#include "uvfits_test_support.hpp"

namespace rapt {
namespace {

using testing::make_test_visibilities;
using testing::ScratchDir;

void expect_message(const std::function<void()>& action, const std::string& path,
                    const std::string& problem) {
  try {
    action();
    ADD_FAILURE() << "no exception; expected " << problem;
  } catch (const std::runtime_error& e) {
    const std::string text = e.what();
    EXPECT_EQ(text.rfind(path + ": ", 0), 0u) << text;
    EXPECT_NE(text.find(problem), std::string::npos) << text;
  }
}

// Times survive to well under a microsecond (DATE split in two float32 parts); uvw are float32
// seconds on disk, so they survive to 2^-24 of their length; everything else is exact.
void expect_same(const VisibilitySet& a, const VisibilitySet& b) {
  ASSERT_EQ(a.nrows(), b.nrows());
  ASSERT_EQ(a.channel_freq_hz.size(), b.channel_freq_hz.size());
  for (size_t k = 0; k < a.nchan(); ++k)
    EXPECT_NEAR(a.channel_freq_hz[k], b.channel_freq_hz[k], 1e-12 * a.channel_freq_hz[k]);
  EXPECT_NEAR(a.channel_width_hz, b.channel_width_hz, 1e-12 * std::fabs(a.channel_width_hz));
  EXPECT_EQ(a.stokes, b.stokes);
  EXPECT_NEAR(a.phase_centre_ra_rad, b.phase_centre_ra_rad, 1e-13);
  EXPECT_NEAR(a.phase_centre_dec_rad, b.phase_centre_dec_rad, 1e-13);
  EXPECT_NEAR(a.pointing_or_phase_centre().ra_rad, b.pointing_or_phase_centre().ra_rad, 1e-13);
  EXPECT_NEAR(a.pointing_or_phase_centre().dec_rad, b.pointing_or_phase_centre().dec_rad, 1e-13);
  EXPECT_EQ(a.object, b.object);
  EXPECT_EQ(a.telescope, b.telescope);
  for (size_t r = 0; r < a.nrows(); ++r) {
    ASSERT_NEAR(a.time_mjd[r], b.time_mjd[r], 1e-6 / 86400) << "row " << r;
    ASSERT_EQ(a.antenna1[r], b.antenna1[r]);
    ASSERT_EQ(a.antenna2[r], b.antenna2[r]);
    ASSERT_EQ(a.integration_s[r], b.integration_s[r]);
    for (int k = 0; k < 3; ++k)
      ASSERT_NEAR(a.uvw_m[r][k], b.uvw_m[r][k], 6e-8 * std::fabs(a.uvw_m[r][k]) + 1e-12);
  }
  EXPECT_EQ(a.vis, b.vis);
  EXPECT_EQ(a.weight, b.weight);
  EXPECT_EQ(a.flag, b.flag);
  ASSERT_EQ(a.array.size(), b.array.size());
  EXPECT_EQ(a.array.reference_itrf_m, b.array.reference_itrf_m);
  for (int i = 0; i < a.array.size(); ++i) {
    EXPECT_EQ(a.array.antennas[i].name, b.array.antennas[i].name);
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(a.array.antennas[i].itrf_m[k], b.array.antennas[i].itrf_m[k], 1e-9);
  }
}

TEST(UvfitsWriter, RoundTripsSeveralChannelsAndFourProducts) {
  ScratchDir dir;
  const VisibilitySet vis = make_test_visibilities(5, 3, 6);
  write_uvfits(dir.file("a.uvfits"), vis, false);
  std::vector<std::string> warnings;
  const VisibilitySet back = read_uvfits(dir.file("a.uvfits"), &warnings);
  EXPECT_TRUE(warnings.empty());
  expect_same(vis, back);
  EXPECT_EQ(back.instrument, "RAPTCORR");
  EXPECT_EQ(back.array.antennas[2].dish_diameter_m, 13.5);
}

TEST(UvfitsWriter, RoundTripsTheMwaFileExactly) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/1061316296.uvfits");
  ScratchDir dir;
  const VisibilitySet vis = read_uvfits(path);
  write_uvfits(dir.file("mwa.uvfits"), vis, false);
  const VisibilitySet back = read_uvfits(dir.file("mwa.uvfits"));
  expect_same(vis, back);
  // The file's own values are float32 already: they come back bit for bit.
  EXPECT_EQ(vis.time_mjd, back.time_mjd);
  EXPECT_EQ(vis.uvw_m, back.uvw_m);
}

TEST(UvfitsWriter, RoundTripsThePaperFile) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/zen.2456865.60537.xy.uvcRREAAM.uvfits");
  ScratchDir dir;
  const VisibilitySet vis = read_uvfits(path);
  write_uvfits(dir.file("paper.uvfits"), vis, false);
  std::vector<std::string> warnings;
  expect_same(vis, read_uvfits(dir.file("paper.uvfits"), &warnings));
  EXPECT_TRUE(warnings.empty());  // FRAME and INTTIM are now written
}

TEST(UvfitsWriter, KeepsAPointingApartFromThePhaseCentre) {
  ScratchDir dir;
  VisibilitySet vis = make_test_visibilities(3, 1, 2);
  vis.pointing = SkyDirection{1.3, -0.42};
  write_uvfits(dir.file("p.uvfits"), vis, false);
  const VisibilitySet back = read_uvfits(dir.file("p.uvfits"));
  expect_same(vis, back);
  ASSERT_TRUE(back.pointing.has_value());
  EXPECT_NEAR(back.pointing->ra_rad, 1.3, 1e-13);
  EXPECT_NEAR(back.pointing->dec_rad, -0.42, 1e-13);
  EXPECT_NEAR(back.phase_centre_ra_rad, 1.2345678901234, 1e-13);
  EXPECT_NEAR(back.phase_centre_dec_rad, -0.4567890123456, 1e-13);
}

TEST(UvfitsWriter, PointsAtThePhaseCentreWhenGivenNoPointing) {
  ScratchDir dir;
  const VisibilitySet vis = make_test_visibilities(2, 1, 1);
  write_uvfits(dir.file("same.uvfits"), vis, false);
  const SkyDirection pointing = read_uvfits(dir.file("same.uvfits")).pointing_or_phase_centre();
  EXPECT_NEAR(pointing.ra_rad, vis.phase_centre_ra_rad, 1e-13);
  EXPECT_NEAR(pointing.dec_rad, vis.phase_centre_dec_rad, 1e-13);
}

TEST(UvfitsWriter, KeepsTimesToWellUnderAMicrosecond) {
  ScratchDir dir;
  VisibilitySet vis = make_test_visibilities(2, 1, 1);
  const double base = 60123.987654321;
  for (size_t r = 0; r < vis.nrows(); ++r) vis.time_mjd[r] = base + r * 0.123456789e-5;
  write_uvfits(dir.file("t.uvfits"), vis, false);
  const VisibilitySet back = read_uvfits(dir.file("t.uvfits"));
  for (size_t r = 0; r < vis.nrows(); ++r)
    EXPECT_NEAR((back.time_mjd[r] - vis.time_mjd[r]) * 86400.0, 0.0, 1e-7);
}

TEST(UvfitsWriter, NumbersAntennasPast255WithTheExtendedCode) {
  ScratchDir dir;
  VisibilitySet vis = make_test_visibilities(300, 1, 1);
  vis.antenna1[7] = 299;  // the row keeps its values; only the pair changes
  vis.antenna2[7] = 4;
  write_uvfits(dir.file("big.uvfits"), vis, false);
  const VisibilitySet back = read_uvfits(dir.file("big.uvfits"));
  EXPECT_EQ(back.antenna1[7], 299);
  EXPECT_EQ(back.antenna2[7], 4);
  EXPECT_EQ(back.antenna1, vis.antenna1);
  EXPECT_EQ(back.antenna2, vis.antenna2);
}

TEST(UvfitsWriter, ReadsAnUnflaggedZeroWeightBackAsFlagged) {
  ScratchDir dir;
  VisibilitySet vis = make_test_visibilities(2, 1, 1);
  vis.weight[0] = 0.0f;
  vis.flag[0] = 0;
  write_uvfits(dir.file("w.uvfits"), vis, false);
  const VisibilitySet back = read_uvfits(dir.file("w.uvfits"));
  EXPECT_EQ(back.flag[0], 1);
  EXPECT_EQ(back.weight[0], 0.0f);
}

TEST(UvfitsWriter, RefusesUnevenlySpacedChannels) {
  ScratchDir dir;
  VisibilitySet vis = make_test_visibilities(2, 1, 4);
  vis.channel_freq_hz[3] += 1000.0;
  const std::string path = dir.file("uneven.uvfits");
  expect_message([&] { write_uvfits(path, vis, false); }, path, "channels are not evenly spaced");
  EXPECT_THROW(write_uvfits(path, vis, false), UsageError);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(UvfitsWriter, PutsProductsInTheStokesAxisOrderAndRefusesGaps) {
  ScratchDir dir;
  // A Measurement Set's circular order RR RL LR LL goes out as RR LL RL LR (-1 .. -4), each
  // product's values with it.
  VisibilitySet vis = make_test_visibilities(2, 1, 2);
  vis.stokes = {-1, -3, -4, -2};
  const std::string path = dir.file("circ.uvfits");
  write_uvfits(path, vis, false);
  const VisibilitySet back = read_uvfits(path);
  EXPECT_EQ(back.stokes, (std::vector<int>{-1, -2, -3, -4}));
  const size_t from[4] = {0, 3, 1, 2};  // the input's product of each product read
  for (size_t r = 0; r < vis.nrows(); ++r)
    for (size_t c = 0; c < vis.nchan(); ++c)
      for (size_t q = 0; q < 4; ++q) {
        EXPECT_EQ(back.vis[back.index(r, c, q)], vis.vis[vis.index(r, c, from[q])]);
        EXPECT_EQ(back.weight[back.index(r, c, q)], vis.weight[vis.index(r, c, from[q])]);
        EXPECT_EQ(back.flag[back.index(r, c, q)], vis.flag[vis.index(r, c, from[q])]);
      }
  // XX, XY, YX and YX again have no one STOKES axis.
  vis.stokes = {-5, -7, -8, -8};
  const std::string gap = dir.file("gap.uvfits");
  expect_message([&] { write_uvfits(gap, vis, false); }, gap, "not consecutive Stokes codes");
  EXPECT_THROW(write_uvfits(gap, vis, false), UsageError);
}

TEST(UvfitsWriter, RefusesArraysOfDisagreeingSize) {
  ScratchDir dir;
  VisibilitySet vis = make_test_visibilities(2, 1, 2);
  vis.weight.pop_back();
  const std::string path = dir.file("size.uvfits");
  expect_message([&] { write_uvfits(path, vis, false); }, path, "disagree in size");
}

// The AN table's feeds: linear X at position angle 0 and Y at 90 degrees (POLAA, POLAB), so the
// receptors are orthogonal as the Stokes conversion of rapt(7) takes them; circular both at 0.
TEST(UvfitsWriter, GivesTheFeedsTheirPositionAngles) {
  ScratchDir dir;
  for (const bool linear : {true, false}) {
    VisibilitySet vis = make_test_visibilities(3, 1, 2);
    if (!linear) vis.stokes = {-1, -2, -3, -4};
    const std::string path = dir.file(linear ? "lin.uvfits" : "circ.uvfits");
    write_uvfits(path, vis, false);
    fitsfile* f = nullptr;
    int status = 0, column = 0;
    ASSERT_EQ(fits_open_file(&f, path.c_str(), READONLY, &status), 0);
    fits_movnam_hdu(f, BINARY_TBL, const_cast<char*>("AIPS AN"), 0, &status);
    float pola[3] = {}, polb[3] = {};
    fits_get_colnum(f, CASEINSEN, const_cast<char*>("POLAA"), &column, &status);
    fits_read_col_flt(f, column, 1, 1, 3, 0.0f, pola, nullptr, &status);
    fits_get_colnum(f, CASEINSEN, const_cast<char*>("POLAB"), &column, &status);
    fits_read_col_flt(f, column, 1, 1, 3, 0.0f, polb, nullptr, &status);
    char type_a[8] = {}, type_b[8] = {};
    char* text = type_a;
    fits_get_colnum(f, CASEINSEN, const_cast<char*>("POLTYA"), &column, &status);
    fits_read_col_str(f, column, 1, 1, 1, nullptr, &text, nullptr, &status);
    text = type_b;
    fits_get_colnum(f, CASEINSEN, const_cast<char*>("POLTYB"), &column, &status);
    fits_read_col_str(f, column, 1, 1, 1, nullptr, &text, nullptr, &status);
    fits_close_file(f, &status);
    ASSERT_EQ(status, 0);
    EXPECT_STREQ(type_a, linear ? "X" : "R");
    EXPECT_STREQ(type_b, linear ? "Y" : "L");
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(pola[k], 0.0f);
      EXPECT_EQ(polb[k], linear ? 90.0f : 0.0f);
    }
  }
}

TEST(UvfitsWriter, RefusesAnExistingFileUnlessOverwriting) {
  ScratchDir dir;
  const std::string path = dir.file("x.uvfits");
  testing::write_whole_file(path, "precious");
  const VisibilitySet vis = make_test_visibilities(2, 1, 1);
  expect_message([&] { write_uvfits(path, vis, false); }, path, "already exists");
  EXPECT_EQ(testing::read_whole_file(path), "precious");
  write_uvfits(path, vis, true);
  EXPECT_EQ(read_uvfits(path).nrows(), vis.nrows());
}

TEST(UvfitsWriter, LeavesNoTemporaryFileBehind) {
  ScratchDir dir;
  write_uvfits(dir.file("a.uvfits"), make_test_visibilities(3, 2, 2), false);
  VisibilitySet bad = make_test_visibilities(2, 1, 2);
  bad.antenna2[0] = 17;  // not an antenna of the array
  EXPECT_THROW(write_uvfits(dir.file("b.uvfits"), bad, false), UsageError);
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
    EXPECT_EQ(e.path().filename(), "a.uvfits");
  }
  EXPECT_EQ(entries, 1u);
}

}  // namespace
}  // namespace rapt
