// A-term cubes: the FITS layout read back value by value, the time slots, the centre check, and
// the sampling at the subgrid pixels (exact on coinciding pixels, exact for linear screens,
// clamped outside).
#include "imaging/aterm_cube.hpp"

#include <fitsio.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cli/errors.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

constexpr double kRadToDeg = 180.0 / M_PI;
constexpr double kDay = 86400.0;

struct Key {
  std::string name;
  double value;
};

// A cube with the given axis sizes (FITS order), values in file order, numeric and CTYPE keys.
void write_cube(const std::string& path, const std::vector<long>& naxes,
                const std::vector<double>& values, const std::vector<Key>& keys,
                int bitpix = FLOAT_IMG) {
  static const char* const ctypes[] = {"RA---SIN", "DEC--SIN", "MATRIX", "ANTENNA", "FREQ", "TIME"};
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_diskfile(&f, path.c_str(), &status);
  std::vector<long> axes = naxes;
  fits_create_img(f, bitpix, static_cast<int>(axes.size()), axes.data(), &status);
  for (size_t k = 0; k < naxes.size(); ++k)
    fits_write_key_str(f, ("CTYPE" + std::to_string(k + 1)).c_str(), ctypes[k], nullptr, &status);
  for (const Key& key : keys)
    fits_write_key_dbl(f, key.name.c_str(), key.value, -17, nullptr, &status);
  std::vector<double> data = values;
  fits_write_img(f, TDOUBLE, 1, static_cast<LONGLONG>(data.size()), data.data(), &status);
  fits_close_file(f, &status);
  ASSERT_EQ(status, 0) << "writing " << path;
}

// Keys of the sky axes: pixel size `cell` (direction cosines) on both, RA decreasing to the left.
std::vector<Key> sky_keys(double cell, double crpix1, double crpix2, double ra_deg = 10,
                          double dec_deg = 45) {
  return {{"CRPIX1", crpix1}, {"CDELT1", -cell * kRadToDeg}, {"CRVAL1", ra_deg},
          {"CRPIX2", crpix2}, {"CDELT2", cell * kRadToDeg},  {"CRVAL2", dec_deg}};
}

// Runs `f`, which must throw a DataError whose message starts with "path: " and holds `part`.
void expect_data_error(const std::function<void()>& f, const std::string& path,
                       const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no DataError; expected one about " << part;
  } catch (const DataError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(part), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

using C = std::complex<float>;

TEST(ATermCube, ExpandsScalarDiagonalAndFullMatrices) {
  testing::ScratchDir dir;
  const std::vector<std::pair<int, std::vector<C>>> cases = {
      {2, {{1, 2}, {0, 0}, {0, 0}, {1, 2}}},
      {4, {{1, 2}, {0, 0}, {0, 0}, {3, 4}}},
      {8, {{1, 2}, {3, 4}, {5, 6}, {7, 8}}},
  };
  for (const auto& [matrix, expected] : cases) {
    const std::string path = dir.file("m" + std::to_string(matrix) + ".fits");
    std::vector<double> values;
    for (int k = 0; k < matrix; ++k) values.push_back(k + 1);
    write_cube(path, {1, 1, matrix, 1}, values, {});
    const ATermCube cube = read_aterm_cube(path);
    EXPECT_EQ(cube.path, path);
    EXPECT_EQ(cube.matrix, matrix);
    EXPECT_EQ(cube.nr_antennas, 1);
    EXPECT_EQ(cube.nr_freqs, 1);
    EXPECT_EQ(cube.nr_times, 1);
    EXPECT_EQ(cube.time_step_days, 0);
    ASSERT_EQ(cube.jones.size(), 4u);
    for (int e = 0; e < 4; ++e) EXPECT_EQ(cube.jones[e], expected[e]) << matrix << " " << e;
  }
}

TEST(ATermCube, ReadsEveryAxisInFitsOrder) {
  testing::ScratchDir dir;
  const std::string path = dir.file("axes.fits");
  const int nx = 3, ny = 2, na = 2, nf = 2, nt = 3;
  const auto re = [](int x, int y, int a, int f, int t) {
    return x + 10 * y + 100 * a + 1000 * f + 10000 * t;
  };
  std::vector<double> values;
  for (int t = 0; t < nt; ++t)
    for (int f = 0; f < nf; ++f)
      for (int a = 0; a < na; ++a)
        for (int m = 0; m < 2; ++m)
          for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) values.push_back(re(x, y, a, f, t) + (m == 1 ? 0.5 : 0));
  // No CRPIX1/2: the axis centres. Double values, to read a BITPIX -64 file.
  write_cube(path, {nx, ny, 2, na, nf, nt}, values,
             {{"CDELT1", -0.01},
              {"CRVAL1", 30},
              {"CDELT2", 0.02},
              {"CRVAL2", -20},
              {"CRPIX5", 1},
              {"CRVAL5", 150e6},
              {"CDELT5", 2e6},
              {"CRPIX6", 2},
              {"CRVAL6", 60000 * kDay},
              {"CDELT6", 8.0}},
             DOUBLE_IMG);
  const ATermCube cube = read_aterm_cube(path);
  EXPECT_EQ(cube.nx, nx);
  EXPECT_EQ(cube.ny, ny);
  EXPECT_EQ(cube.matrix, 2);
  EXPECT_EQ(cube.nr_antennas, na);
  EXPECT_EQ(cube.nr_freqs, nf);
  EXPECT_EQ(cube.nr_times, nt);
  EXPECT_DOUBLE_EQ(cube.ra_crpix, 2.0);
  EXPECT_DOUBLE_EQ(cube.dec_crpix, 1.5);
  EXPECT_DOUBLE_EQ(cube.ra_cdelt_rad, -0.01 / kRadToDeg);
  EXPECT_DOUBLE_EQ(cube.dec_cdelt_rad, 0.02 / kRadToDeg);
  EXPECT_DOUBLE_EQ(cube.ra_crval_rad, 30 / kRadToDeg);
  EXPECT_DOUBLE_EQ(cube.dec_crval_rad, -20 / kRadToDeg);
  EXPECT_EQ(cube.freq_hz, (std::vector<double>{150e6, 152e6}));
  ASSERT_EQ(cube.time_mjd.size(), 3u);
  EXPECT_DOUBLE_EQ(cube.time_mjd[0], 60000 - 8 / kDay);
  EXPECT_DOUBLE_EQ(cube.time_mjd[1], 60000);
  EXPECT_DOUBLE_EQ(cube.time_mjd[2], 60000 + 8 / kDay);
  EXPECT_DOUBLE_EQ(cube.time_step_days, 8 / kDay);
  ASSERT_EQ(cube.jones.size(), size_t(nt) * nf * na * ny * nx * 4);
  for (int t = 0; t < nt; ++t)
    for (int f = 0; f < nf; ++f)
      for (int a = 0; a < na; ++a)
        for (int y = 0; y < ny; ++y)
          for (int x = 0; x < nx; ++x) {
            const float v = static_cast<float>(re(x, y, a, f, t));
            const C* j = cube.at(t, f, a, y, x);
            const size_t flat = ((((size_t(t) * nf + f) * na + a) * ny + y) * nx + x) * 4;
            EXPECT_EQ(j, cube.jones.data() + flat);
            EXPECT_EQ(j[0], C(v, v + 0.5f));
            EXPECT_EQ(j[1], C(0, 0));
            EXPECT_EQ(j[2], C(0, 0));
            EXPECT_EQ(j[3], C(v, v + 0.5f));
          }
}

IdgSettings subgrid_settings(int nb, double image_size) {
  IdgSettings settings;
  settings.grid_size = 4 * nb;
  settings.image_size = image_size;
  settings.subgrid_size = nb;
  return settings;
}

TEST(ATermCube, SamplesTheNearestFreqPlane) {
  testing::ScratchDir dir;
  const std::string path = dir.file("freq.fits");
  write_cube(path, {1, 1, 2, 1, 3}, {1, 0, 2, 0, 3, 0},
             {{"CRPIX5", 1}, {"CRVAL5", 100e6}, {"CDELT5", 10e6}});
  const ATermCube cube = read_aterm_cube(path);
  const std::vector<std::pair<double, float>> cases = {{50e6, 1},  {104e6, 1}, {106e6, 2},
                                                       {112e6, 2}, {117e6, 3}, {500e6, 3}};
  for (const auto& [freq, expected] : cases) {
    const IdgATerms aterms = sample_aterms(cube, subgrid_settings(8, 0.1), freq, 1);
    EXPECT_EQ(aterms.nr_slots, 1);
    EXPECT_EQ(aterms.nr_stations, 1);
    EXPECT_EQ(aterms.subgrid_size, 8);
    ASSERT_EQ(aterms.jones.size(), 8u * 8 * 4);
    for (size_t p = 0; p < 64; ++p) {
      EXPECT_EQ(aterms.jones[4 * p], C(expected, 0)) << freq;
      EXPECT_EQ(aterms.jones[4 * p + 1], C(0, 0));
      EXPECT_EQ(aterms.jones[4 * p + 3], C(expected, 0)) << freq;
    }
  }
}

TEST(ATermCube, TimeSlotsAreTheNearestCentres) {
  testing::ScratchDir dir;
  const std::string path = dir.file("time.fits");
  // Centres 30, 90, 150 s after MJD 60000: the slots span 0 - 180 s.
  write_cube(path, {1, 1, 2, 1, 1, 3}, {1, 0, 2, 0, 3, 0},
             {{"CRPIX6", 1}, {"CRVAL6", 60000 * kDay + 30}, {"CDELT6", 60}});
  const ATermCube cube = read_aterm_cube(path);
  const auto mjd = [](double seconds) { return 60000 + seconds / kDay; };
  EXPECT_EQ(
      aterm_slots(cube, {mjd(0.01), mjd(10), mjd(59), mjd(61), mjd(119), mjd(121), mjd(179.99)}),
      (std::vector<int>{0, 0, 0, 1, 1, 2, 2}));
  EXPECT_TRUE(aterm_slots(cube, {}).empty());
  expect_data_error(
      [&] {
        aterm_slots(cube, {mjd(10), mjd(-1)});
      },
      path,
      "visibilities at MJD 59999.999988 lie outside the A-terms' time range "
      "60000.000000 - 60000.002083");
  expect_data_error([&] { aterm_slots(cube, {mjd(181)}); }, path, "lie outside");

  // Sampling keeps every slot.
  const IdgATerms aterms = sample_aterms(cube, subgrid_settings(8, 0.1), 1e8, 1);
  ASSERT_EQ(aterms.nr_slots, 3);
  for (int t = 0; t < 3; ++t) EXPECT_EQ(aterms.at(t, 0)[0], C(float(t + 1), 0));

  // Descending TIME: the same slots by nearest centre.
  const std::string backwards = dir.file("backwards.fits");
  write_cube(backwards, {1, 1, 2, 1, 1, 3}, {3, 0, 2, 0, 1, 0},
             {{"CRPIX6", 1}, {"CRVAL6", 60000 * kDay + 150}, {"CDELT6", -60}});
  EXPECT_EQ(aterm_slots(read_aterm_cube(backwards), {mjd(10), mjd(100), mjd(170)}),
            (std::vector<int>{2, 1, 0}));

  // One slot serves every time.
  const std::string single = dir.file("single.fits");
  write_cube(single, {1, 1, 2, 1, 1, 1}, {1, 0}, {{"CRVAL6", 60000 * kDay}});
  EXPECT_EQ(aterm_slots(read_aterm_cube(single), {mjd(-1e6), mjd(0), mjd(1e6)}),
            (std::vector<int>{0, 0, 0}));
}

TEST(ATermCube, CoincidentPixelsAreSampledExactly) {
  testing::ScratchDir dir;
  const std::string path = dir.file("coincident.fits");
  const int nb = 8, na = 3, nt = 2;
  const double s = 0.12;
  std::vector<double> values;
  for (int t = 0; t < nt; ++t)
    for (int a = 0; a < na; ++a)
      for (int m = 0; m < 8; ++m)
        for (int y = 0; y < nb; ++y)
          for (int x = 0; x < nb; ++x) values.push_back(0.37 * x - 1.3 * y + m * 0.01 + a + 7 * t);
  std::vector<Key> keys = sky_keys(s / nb, nb / 2 + 1, nb / 2 + 1);
  keys.push_back({"CDELT6", 10});
  keys.push_back({"CRVAL6", 60000 * kDay});
  write_cube(path, {nb, nb, 8, na, 1, nt}, values, keys);
  const ATermCube cube = read_aterm_cube(path);
  // Two of the three antennas: the visibility file may have fewer than the cube.
  const IdgATerms aterms = sample_aterms(cube, subgrid_settings(nb, s), 1e8, 2);
  ASSERT_EQ(aterms.nr_slots, nt);
  ASSERT_EQ(aterms.nr_stations, 2);
  ASSERT_EQ(aterms.jones.size(), size_t(nt) * 2 * nb * nb * 4);
  for (int t = 0; t < nt; ++t)
    for (int a = 0; a < 2; ++a)
      for (int j = 0; j < nb; ++j)
        for (int i = 0; i < nb; ++i)
          for (int e = 0; e < 4; ++e)
            ASSERT_EQ(aterms.at(t, a)[(j * nb + i) * 4 + e], cube.at(t, 0, a, j, i)[e])
                << t << " " << a << " " << j << " " << i << " " << e;
}

// A screen linear in l and m, sampled on a coarser or smaller grid than the subgrid's.
void check_linear_screen(const std::string& path, int n, double cell, double crpix, int nb,
                         double s) {
  const auto screen = [](double l, double m) { return C(float(1 + 2 * l + 3 * m), float(l - m)); };
  std::vector<double> values;
  for (int part = 0; part < 2; ++part)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const C v = screen(-(x + 1 - crpix) * cell, (y + 1 - crpix) * cell);
        values.push_back(part == 0 ? v.real() : v.imag());
      }
  write_cube(path, {n, n, 2, 1}, values, sky_keys(cell, crpix, crpix));
  const IdgATerms aterms = sample_aterms(read_aterm_cube(path), subgrid_settings(nb, s), 1e8, 1);
  // The screen's extent: outside it the edge pixels' values.
  const double lo = (1 - crpix) * cell, hi = (n - crpix) * cell;
  int inside = 0, outside = 0;
  for (int j = 0; j < nb; ++j)
    for (int i = 0; i < nb; ++i) {
      const double l = -(i - nb / 2) * s / nb, m = (j - nb / 2) * s / nb;
      (l >= -hi && l <= -lo && m >= lo && m <= hi ? inside : outside)++;
      const C expected = screen(std::clamp(l, -hi, -lo), std::clamp(m, lo, hi));
      const C got = aterms.at(0, 0)[(j * nb + i) * 4];
      EXPECT_NEAR(got.real(), expected.real(), 1e-5) << path << " " << i << " " << j;
      EXPECT_NEAR(got.imag(), expected.imag(), 1e-5) << path << " " << i << " " << j;
      EXPECT_EQ(aterms.at(0, 0)[(j * nb + i) * 4 + 3], got);
    }
  ASSERT_GT(inside, 0) << path;
  if (hi < s / 2) {
    ASSERT_GT(outside, 0) << path;
  }
}

TEST(ATermCube, BilinearIsExactForLinearScreensAndClampsOutside) {
  testing::ScratchDir dir;
  // Coarse pixels over the whole subgrid, the reference pixel off the middle.
  check_linear_screen(dir.file("coarse.fits"), 6, 0.03, 3.5, 16, 0.1);
  // A screen smaller than the subgrid's field: the outer subgrid pixels take its edges.
  check_linear_screen(dir.file("small.fits"), 3, 0.01, 2, 16, 0.1);
}

TEST(ATermCube, BadFilesAreDataErrorsNamingTheFile) {
  testing::ScratchDir dir;
  const std::string matrix3 = dir.file("matrix3.fits");
  write_cube(matrix3, {1, 1, 3, 1}, {1, 2, 3}, {});
  expect_data_error([&] { read_aterm_cube(matrix3); }, matrix3, "MATRIX axis has 3 values");

  const std::string missing = dir.file("missing.fits");
  expect_data_error([&] { read_aterm_cube(missing); }, missing, "");

  const std::string nan = dir.file("nan.fits");
  write_cube(nan, {2, 1, 2, 2}, {1, 1, 1, 1, 1, 1, std::numeric_limits<double>::quiet_NaN(), 1},
             {{"CDELT1", -0.01}, {"CDELT2", 0.01}});
  expect_data_error([&] { read_aterm_cube(nan); }, nan,
                    "A-term value is NaN at RA pixel 0, DEC pixel 0, MATRIX 1, ANTENNA 1");

  const std::string no_cdelt = dir.file("no_cdelt.fits");
  write_cube(no_cdelt, {2, 1, 2, 1}, {1, 1, 0, 0}, {});
  expect_data_error([&] { read_aterm_cube(no_cdelt); }, no_cdelt, "CDELT1");

  const std::string three_axes = dir.file("three_axes.fits");
  write_cube(three_axes, {1, 1, 2}, {1, 0}, {});
  expect_data_error([&] { read_aterm_cube(three_axes); }, three_axes, "3 axes");

  // A key that is there but not a number is refused, not taken as absent.
  const std::string garbled = dir.file("garbled_crval.fits");
  write_cube(garbled, {1, 1, 2, 1}, {1, 0}, {});
  fitsfile* f = nullptr;
  int status = 0;
  fits_open_file(&f, garbled.c_str(), READWRITE, &status);
  fits_update_key_str(f, "CRVAL1", "inf", nullptr, &status);
  fits_close_file(f, &status);
  ASSERT_EQ(status, 0);
  expect_data_error([&] { read_aterm_cube(garbled); }, garbled, "CRVAL1 = inf is not a finite number");

  const std::string two = dir.file("two_antennas.fits");
  write_cube(two, {1, 1, 2, 2}, {1, 0, 1, 0}, {});
  const ATermCube cube = read_aterm_cube(two);
  EXPECT_NO_THROW(sample_aterms(cube, subgrid_settings(8, 0.1), 1e8, 2));
  expect_data_error([&] { sample_aterms(cube, subgrid_settings(8, 0.1), 1e8, 3); }, two,
                    "has A-terms for 2 antennas; the visibilities have 3");
}

TEST(ATermCube, CentreMustBeThePhaseCentre) {
  testing::ScratchDir dir;
  const double deg = 1 / kRadToDeg;
  const std::string path = dir.file("centre.fits");
  // Pixels of 0.01 deg around RA 10, Dec 45.
  write_cube(path, {4, 4, 2, 1}, std::vector<double>(32, 1), sky_keys(0.01 * deg, 3, 3));
  const ATermCube cube = read_aterm_cube(path);
  EXPECT_NO_THROW(check_aterm_centre(cube, 10 * deg, 45 * deg));
  EXPECT_NO_THROW(check_aterm_centre(cube, 10 * deg, 45.009 * deg));
  EXPECT_NO_THROW(check_aterm_centre(cube, 10.012 * deg, 45 * deg));  // 0.0085 deg on the sky
  expect_data_error([&] { check_aterm_centre(cube, 10 * deg, 45.02 * deg); }, path,
                    "A-term centre (RA 10.000000, Dec 45.000000 deg) is 0.02 deg from the phase "
                    "centre (RA 10.000000, Dec 45.020000 deg)");
  expect_data_error([&] { check_aterm_centre(cube, -350 * deg, 46 * deg); }, path,
                    "(RA 10.000000, Dec 46.000000 deg)");

  // A single screen (one pixel) may be 1 arcsecond off.
  const std::string screen = dir.file("screen.fits");
  write_cube(screen, {1, 1, 2, 1}, {1, 0}, {{"CRVAL1", 10}, {"CRVAL2", 45}});
  const ATermCube one = read_aterm_cube(screen);
  EXPECT_NO_THROW(check_aterm_centre(one, 10 * deg, (45 + 0.5 / 3600) * deg));
  expect_data_error([&] { check_aterm_centre(one, 10 * deg, (45 + 2.0 / 3600) * deg); }, screen,
                    "1 arcsecond");
}

}  // namespace
}  // namespace rapt
