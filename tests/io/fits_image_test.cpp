// FITS image writer and reader: round trip, WSClean's header, the pixel-to-sky mapping as
// astropy.wcs reads it (tests/io/fits_image_astropy_check.py), and bad inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <sstream>

#include "cli/errors.hpp"
#include "imaging/dirty_image_output.hpp"
#include "io/fits_image.hpp"
#include "io/uvfits_cfitsio.hpp"
#include "test_data.hpp"
#include "uvfits_test_support.hpp"

namespace rapt {
namespace {

constexpr double kDeg = M_PI / 180.0;

FitsImage make_image(int nx, int ny) {
  FitsImage image;
  image.nx = nx;
  image.ny = ny;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) image.pixels.push_back(static_cast<float>(1000 * y + x) * 0.5f);
  image.cell_rad = 20.0 / 3600.0 * kDeg;
  image.phase_centre_ra_rad = 152.0000667 * kDeg;
  image.phase_centre_dec_rad = -27.5045978 * kDeg;
  image.freq_hz = 36.3e9;
  image.bandwidth_hz = 8e6;
  image.stokes = -5;
  image.beam_major_deg = 0.01;
  image.beam_minor_deg = 0.005;
  image.beam_pa_deg = 33.0;
  image.date_obs = "2010-04-26T03:21:56.0";
  image.object = "J1008+0730";
  image.telescope = "EVLA";
  image.origin = "rapt idg-grid";
  return image;
}

TEST(FitsImage, RoundTripsPixelsAndHeader) {
  testing::ScratchDir dir;
  const FitsImage image = make_image(64, 48);
  write_fits_image(dir.file("a.fits"), image, false);
  std::vector<std::string> warnings;
  const FitsImage back = read_fits_image(dir.file("a.fits"), &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(back.nx, 64);
  EXPECT_EQ(back.ny, 48);
  EXPECT_EQ(back.pixels, image.pixels);
  EXPECT_NEAR(back.cell_rad, image.cell_rad, 1e-15 * image.cell_rad);
  EXPECT_NEAR(back.phase_centre_ra_rad, image.phase_centre_ra_rad, 1e-14);
  EXPECT_NEAR(back.phase_centre_dec_rad, image.phase_centre_dec_rad, 1e-14);
  EXPECT_EQ(back.freq_hz, image.freq_hz);
  EXPECT_EQ(back.bandwidth_hz, image.bandwidth_hz);
  EXPECT_EQ(back.stokes, -5);
  EXPECT_EQ(back.bunit, "JY/BEAM");
  EXPECT_EQ(back.beam_major_deg, image.beam_major_deg);
  EXPECT_EQ(back.beam_minor_deg, image.beam_minor_deg);
  EXPECT_EQ(back.beam_pa_deg, image.beam_pa_deg);
  EXPECT_EQ(back.date_obs, image.date_obs);
  EXPECT_EQ(back.object, image.object);
  EXPECT_EQ(back.telescope, image.telescope);
  EXPECT_EQ(back.origin, image.origin);
}

TEST(FitsImage, WritesWscleanHeaderKeys) {
  testing::ScratchDir dir;
  FitsImage image = make_image(512, 512);
  image.beam_major_deg.reset();  // a dirty image: no beam keys
  write_fits_image(dir.file("h.fits"), image, false);
  const std::string text = testing::read_whole_file(dir.file("h.fits")).substr(0, 5760);
  for (const char* card : {"NAXIS   =                    4", "CTYPE1  = 'RA---SIN'",
                           "CTYPE2  = 'DEC--SIN'", "CTYPE3  = 'FREQ    '",
                           "CTYPE4  = 'STOKES  '", "CRPIX1  =                 257.",
                           "CRPIX2  =                 257.", "CDELT1  = -0.00555555555555556",
                           "CDELT2  =  0.00555555555555556", "EQUINOX =                2000.",
                           "RADESYS = 'FK5     '", "SPECSYS = 'TOPOCENT'",
                           "BTYPE   = 'Intensity'", "BUNIT   = 'JY/BEAM '", "CUNIT1  = 'deg     '"})
    EXPECT_NE(text.find(card), std::string::npos) << card;
  EXPECT_EQ(text.find("BMAJ"), std::string::npos);
}

// SIN projection about (ra0, dec0): l = -(x - nx/2) cell, m = (y - ny/2) cell (C indices).
std::pair<double, double> expected_sky_deg(const FitsImage& im, double x, double y) {
  const double l = -(x - im.nx / 2) * im.cell_rad, m = (y - im.ny / 2) * im.cell_rad;
  const double n = std::sqrt(1 - l * l - m * m);
  const double d0 = im.phase_centre_dec_rad;
  const double dec = std::asin(m * std::cos(d0) + n * std::sin(d0));
  const double ra = im.phase_centre_ra_rad + std::atan2(l, n * std::cos(d0) - m * std::sin(d0));
  return {ra / kDeg, dec / kDeg};
}

TEST(FitsImage, AstropyWcsPutsThePhaseCentreAtPixelHalfNAndRaIncreasingLeft) {
  const std::string python = testing::python_with_astropy();
  if (python.empty()) GTEST_SKIP() << "python3 with astropy not found (Debian python3-astropy)";
  testing::ScratchDir dir;
  const FitsImage image = make_image(64, 48);
  write_fits_image(dir.file("w.fits"), image, false);
  const std::string script = testing::checker_script(__FILE__, "fits_image_astropy_check.py");
  if (script.empty()) GTEST_SKIP() << "fits_image_astropy_check.py not found";
  const double pixels[4][2] = {{32, 24}, {22, 24}, {32, 40}, {3, 45}};
  std::string command = python + " " + script + " " + dir.file("w.fits");
  for (const auto& p : pixels) command += " " + std::to_string(p[0]) + " " + std::to_string(p[1]);
  std::istringstream out(testing::command_output(command + " 2>&1"));
  std::string word;
  double x, y, ra, dec;
  for (const auto& p : pixels) {
    ASSERT_TRUE(out >> word >> x >> y >> ra >> dec) << "astropy output ended early";
    ASSERT_EQ(word, "pix");
    const auto [want_ra, want_dec] = expected_sky_deg(image, p[0], p[1]);
    EXPECT_NEAR(ra, want_ra, 1e-9) << p[0] << "," << p[1];
    EXPECT_NEAR(dec, want_dec, 1e-9) << p[0] << "," << p[1];
  }
  // Pixel (nx/2, ny/2) is the phase centre; ten pixels left of it lies east (larger RA).
  const auto centre = expected_sky_deg(image, 32, 24);
  EXPECT_NEAR(centre.first, 152.0000667, 1e-9);
  EXPECT_GT(expected_sky_deg(image, 22, 24).first, centre.first);
  std::string shape_word, first_word;
  int d0, d1, d2, d3;
  double first;
  ASSERT_TRUE(out >> shape_word >> d0 >> d1 >> d2 >> d3 >> first_word >> first);
  EXPECT_EQ(d2, 48);  // numpy order (stokes, freq, y, x)
  EXPECT_EQ(d3, 64);
  EXPECT_EQ(first, image.pixels[1]);
}

TEST(FitsImage, RefusesAPixelCountThatDisagreesWithTheSize) {
  testing::ScratchDir dir;
  FitsImage image = make_image(8, 8);
  image.pixels.pop_back();
  const std::string path = dir.file("bad.fits");
  try {
    write_fits_image(path, image, false);
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": image is 8 x 8 but holds 63 pixels");
  }
}

TEST(FitsImage, RefusesAnExistingFileUnlessOverwriting) {
  testing::ScratchDir dir;
  const std::string path = dir.file("x.fits");
  testing::write_whole_file(path, "keep");
  EXPECT_THROW(write_fits_image(path, make_image(4, 4), false), DataError);
  EXPECT_EQ(testing::read_whole_file(path), "keep");
  write_fits_image(path, make_image(4, 4), true);
  EXPECT_EQ(read_fits_image(path).nx, 4);
}

std::vector<std::string> entries_of(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  return names;
}

TEST(FitsImage, APendingImageAppearsOnlyWhenCommitted) {
  testing::ScratchDir dir;
  const std::string path = dir.file("a.fits");
  {
    std::unique_ptr<FitsOutputFile> pending = write_fits_image_pending(path, make_image(8, 8), false);
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_EQ(entries_of(dir.path()).size(), 1u);  // its temporary
  }
  EXPECT_TRUE(entries_of(dir.path()).empty());  // dropped uncommitted: removed
  write_fits_image_pending(path, make_image(8, 8), false)->commit();
  EXPECT_EQ(entries_of(dir.path()), std::vector<std::string>{"a.fits"});
  EXPECT_EQ(read_fits_image(path).nx, 8);
}

TEST(FitsImage, ASetOfImagesThatFailsPartWayLeavesNone) {
  testing::ScratchDir dir;
  FitsImage bad = make_image(8, 8);
  bad.cell_rad = 0;  // refused when its turn comes
  const std::vector<PendingImage> images = {{dir.file("a.fits"), make_image(8, 8)},
                                            {dir.file("b.fits"), make_image(8, 8)},
                                            {dir.file("c.fits"), bad}};
  EXPECT_ANY_THROW(write_images(images, false));
  EXPECT_TRUE(entries_of(dir.path()).empty());
  write_images({images[0], images[1]}, false);
  EXPECT_EQ(entries_of(dir.path()).size(), 2u);
}

TEST(FitsImage, ReportsATruncatedImageByName) {
  testing::ScratchDir dir;
  write_fits_image(dir.file("w.fits"), make_image(128, 128), false);
  const std::string bytes = testing::read_whole_file(dir.file("w.fits"));
  const std::string path = dir.file("cut.fits");
  testing::write_whole_file(path, bytes.substr(0, bytes.size() / 2));
  try {
    read_fits_image(path);
    ADD_FAILURE() << "no DataError";
  } catch (const DataError& e) {
    const std::string text = e.what();
    EXPECT_EQ(text.rfind(path + ": cannot read the image pixels (truncated?): ", 0), 0u) << text;
  }
}

TEST(FitsImage, ParsesAnImageInMemory) {
  testing::ScratchDir dir;
  write_fits_image(dir.file("m.fits"), make_image(16, 8), false);
  const std::string bytes = testing::read_whole_file(dir.file("m.fits"));
  const FitsImage image = parse_fits_image(bytes.data(), bytes.size(), "memory");
  EXPECT_EQ(image.pixels, make_image(16, 8).pixels);
}

// The value field of `key` in the primary header replaced with `value` (padded to 70 columns).
void set_primary_card_value(std::string& bytes, const std::string& key, const std::string& value) {
  std::string name = key;
  name.resize(8, ' ');
  size_t card = 0;
  while (card + 80 <= bytes.size() && bytes.compare(card, 10, name + "= ") != 0) card += 80;
  ASSERT_LT(card + 80, bytes.size()) << key;
  std::string field = value;
  field.resize(70, ' ');
  bytes.replace(card + 10, 70, field);
}

TEST(FitsImage, TakesALongNonNumericRealKeyAsNotGiven) {
  testing::ScratchDir dir;
  write_fits_image(dir.file("w.fits"), make_image(16, 8), false);
  std::string bytes = testing::read_whole_file(dir.file("w.fits"));
  // Not a number, and longer than CFITSIO's conversion message has room for.
  const std::string text = "          (Flexible Image Transport System) format is defined in 'Astr";
  set_primary_card_value(bytes, "CRVAL4", text);
  set_primary_card_value(bytes, "BMAJ", text);
  const std::string path = dir.file("text.fits");
  testing::write_whole_file(path, bytes);
  const FitsImage image = read_fits_image(path);
  EXPECT_EQ(image.stokes, 1);
  EXPECT_FALSE(image.beam_major_deg.has_value());
  EXPECT_EQ(image.beam_minor_deg, make_image(16, 8).beam_minor_deg);
}

TEST(FitsImage, RejectsALongNonNumericNaxis1WithOneLine) {
  testing::ScratchDir dir;
  write_fits_image(dir.file("w.fits"), make_image(16, 8), false);
  std::string bytes = testing::read_whole_file(dir.file("w.fits"));
  set_primary_card_value(bytes, "NAXIS1",
                         "          (Flexible Image Transport System) format is defined in 'Astr");
  const std::string path = dir.file("naxis1.fits");
  testing::write_whole_file(path, bytes);
  try {
    read_fits_image(path);
    ADD_FAILURE() << "no DataError";
  } catch (const DataError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(path + ": cannot open as FITS: ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace rapt
