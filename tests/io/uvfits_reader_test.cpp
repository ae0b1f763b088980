// UVFITS reader: known answers for the MWA (cotter, NAXIS 7) and PAPER (Miriad, NAXIS 6) files of
// formats-interferometry.md sections 8.5 and 8.6.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "geometry/interferometer_geometry.hpp"
#include "io/uvfits.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

constexpr double kC = 299792458.0;
constexpr double kMjdToJd = 2400000.5;

struct Sums {
  double re = 0, im = 0, weight = 0, max_abs_uu_m = 0;
};

Sums sums_of(const VisibilitySet& vis) {
  Sums s;
  for (size_t i = 0; i < vis.vis.size(); ++i) {
    s.re += vis.vis[i].real();
    s.im += vis.vis[i].imag();
    s.weight += vis.weight[i];
  }
  for (const auto& uvw : vis.uvw_m) s.max_abs_uu_m = std::max(s.max_abs_uu_m, std::fabs(uvw[0]));
  return s;
}

TEST(UvfitsReader, ReadsMwaCotterFileShapeAndHeader) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/1061316296.uvfits");
  std::vector<std::string> warnings;
  const VisibilitySet vis = read_uvfits(path, &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(vis.nrows(), 16256u);  // GCOUNT
  ASSERT_EQ(vis.nchan(), 1u);
  EXPECT_DOUBLE_EQ(vis.channel_freq_hz[0], 167075000.0);
  EXPECT_DOUBLE_EQ(vis.channel_width_hz, 80000.0);
  EXPECT_EQ(vis.stokes, (std::vector<int>{-5, -6, -7, -8}));  // XX YY XY YX
  EXPECT_NEAR(vis.phase_centre_ra_rad * 180 / M_PI, 359.8494, 1e-9);
  EXPECT_NEAR(vis.phase_centre_dec_rad * 180 / M_PI, -26.78364, 1e-9);
  EXPECT_EQ(vis.telescope, "MWA");
  EXPECT_EQ(vis.object, "high_season1_2456528");
}

TEST(UvfitsReader, ReadsMwaCotterFileFirstGroups) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/1061316296.uvfits");
  const VisibilitySet vis = read_uvfits(path);
  // DATE = 3.2407343e-3 + PZERO 2456528.25: PZERO is applied by the reader, not CFITSIO.
  EXPECT_NEAR(vis.time_mjd[0] + kMjdToJd, 2456528.2532407343, 1e-9);
  EXPECT_NEAR(vis.integration_s[0], 2.0007133, 1e-6);
  EXPECT_EQ(vis.antenna1[0], 0);  // BASELINE 257 = tiles 1-1
  EXPECT_EQ(vis.antenna2[0], 0);
  EXPECT_EQ(vis.uvw_m[0], (std::array<double, 3>{0, 0, 0}));
  EXPECT_FLOAT_EQ(vis.vis[vis.index(0, 0, 0)].real(), 44255.035f);  // XX
  EXPECT_FLOAT_EQ(vis.vis[vis.index(0, 0, 1)].real(), 40176.652f);  // YY
  EXPECT_EQ(vis.antenna1[1], 0);  // 1-2
  EXPECT_EQ(vis.antenna2[1], 1);
  EXPECT_NEAR(vis.uvw_m[1][0], -1.815247e-7 * kC, 1e-6 * 1.815247e-7 * kC);
  EXPECT_EQ(vis.vis[vis.index(1, 0, 0)], std::complex<float>(93.886826f, 21.950983f));
  EXPECT_EQ(vis.vis[vis.index(1, 0, 1)], std::complex<float>(31.531788f, -94.53374f));
}

TEST(UvfitsReader, ReadsMwaCotterFileTimesBaselinesAndSums) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/1061316296.uvfits");
  const VisibilitySet vis = read_uvfits(path);
  std::set<double> times(vis.time_mjd.begin(), vis.time_mjd.end());
  ASSERT_EQ(times.size(), 2u);
  EXPECT_NEAR(*times.rbegin() + kMjdToJd, 2456528.2532638907, 1e-9);
  size_t autos = 0;
  for (size_t r = 0; r < vis.nrows(); ++r) autos += vis.antenna1[r] == vis.antenna2[r];
  EXPECT_EQ(autos, 2u * 127u);
  EXPECT_EQ(*std::max_element(vis.antenna2.begin(), vis.antenna2.end()), 127);
  // Every weight is +-0: all flagged, weight 0.
  EXPECT_EQ(std::count(vis.flag.begin(), vis.flag.end(), 1), static_cast<long>(vis.flag.size()));
  const Sums s = sums_of(vis);
  EXPECT_EQ(s.weight, 0.0);
  EXPECT_NEAR(s.re, 2.42464e7, 0.00001 * 2.42464e7);
  EXPECT_NEAR(s.im, -19410.5, 0.1);
  EXPECT_NEAR(s.max_abs_uu_m, 7.9829e-6 * kC, 0.05);
  EXPECT_NEAR(s.max_abs_uu_m, 2393.2, 0.05);
}

TEST(UvfitsReader, ReadsMwaAntennaTable) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/1061316296.uvfits");
  const ArrayLayout layout = read_uvfits_antennas(path);
  ASSERT_EQ(layout.size(), 128);
  EXPECT_EQ(layout.antennas[0].name, "Tile011");
  EXPECT_EQ(layout.telescope, "MWA");
  EXPECT_NEAR(layout.reference_itrf_m[0], -2559453.29, 0.005);
  EXPECT_NEAR(layout.reference_itrf_m[1], 5095371.74, 0.005);
  EXPECT_NEAR(layout.reference_itrf_m[2], -2849056.77, 0.005);
  // STABXYZ (456.250, -149.785, 68.046) m is an offset in the frame turned to the centre's
  // meridian (AIPS memo 117, as cotter writes it): the antennas' own UVW, computed from the
  // positions read, give the file's UU, VV, WW.
  const VisibilitySet vis = read_uvfits(path);
  std::vector<Vector3> uvw;
  for (size_t r = 0; r < vis.nrows(); ++r) {
    if (vis.antenna1[r] == vis.antenna2[r]) continue;
    const double mjd = vis.time_mjd[r];
    const UtcInstant when{int(std::floor(mjd)), (mjd - std::floor(mjd)) * 86400.0};
    uvw = antenna_uvw_m(layout, {vis.phase_centre_ra_rad, vis.phase_centre_dec_rad}, when);
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(uvw[size_t(vis.antenna1[r])][k] - uvw[size_t(vis.antenna2[r])][k],
                  vis.uvw_m[r][k], 0.05)
          << "row " << r << " axis " << k;
    if (r > 40) break;
  }
}

TEST(UvfitsReader, ReadsPaperMiriadFileWithoutIfAxis) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/zen.2456865.60537.xy.uvcRREAAM.uvfits");
  std::vector<std::string> warnings;
  const VisibilitySet vis = read_uvfits(path, &warnings);
  EXPECT_EQ(vis.nrows(), 285u);
  ASSERT_EQ(vis.nchan(), 11u);
  for (size_t k = 0; k < 11; ++k)
    EXPECT_NEAR(vis.channel_freq_hz[k], 1.0e8 + k * 492610.837438, 1e-4);
  EXPECT_EQ(vis.stokes, std::vector<int>{-7});  // XY
  EXPECT_NEAR(vis.phase_centre_ra_rad * 180 / M_PI, 5.316708, 1e-6);
  EXPECT_NEAR(vis.phase_centre_dec_rad * 180 / M_PI, -30.72153, 1e-5);
  EXPECT_EQ(vis.object, "zenith");
  // No FRAME and no INTTIM: both reported, neither fatal.
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find(path + ": AIPS AN table has no FRAME; assuming ITRF"),
            std::string::npos);
  EXPECT_NE(warnings[1].find("no INTTIM"), std::string::npos);
}

TEST(UvfitsReader, ReadsPaperMiriadFileValues) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/zen.2456865.60537.xy.uvcRREAAM.uvfits");
  const VisibilitySet vis = read_uvfits(path);
  const auto [tmin, tmax] = std::minmax_element(vis.time_mjd.begin(), vis.time_mjd.end());
  EXPECT_NEAR(*tmin + kMjdToJd, 2456865.6053655297, 1e-9);
  EXPECT_NEAR(*tmax + kMjdToJd, 2456865.6119586825, 1e-9);
  EXPECT_EQ(std::set<double>(vis.time_mjd.begin(), vis.time_mjd.end()).size(), 19u);
  EXPECT_EQ(vis.antenna1[0], 0);  // BASELINE 258
  EXPECT_EQ(vis.antenna2[0], 1);
  EXPECT_NEAR(vis.uvw_m[0][0], 119.9937, 5e-5);
  EXPECT_NEAR(vis.uvw_m[0][1], -5.2240946e-8 * kC, 1e-6 * 5.2240946e-8 * kC);
  EXPECT_NEAR(vis.uvw_m[0][2], 1.914939e-9 * kC, 1e-6 * 1.914939e-9 * kC);
  EXPECT_EQ(vis.vis[vis.index(0, 0, 0)], std::complex<float>(-1.9725144e-3f, -1.2074633e-3f));
  EXPECT_EQ(vis.vis[vis.index(0, 1, 0)], std::complex<float>(0, 0));
  EXPECT_EQ(vis.vis[vis.index(0, 2, 0)], std::complex<float>(0, 0));
  for (float w : vis.weight) ASSERT_FLOAT_EQ(w, 31.647127f);
  EXPECT_EQ(std::count(vis.flag.begin(), vis.flag.end(), 1), 0);
  const Sums s = sums_of(vis);
  EXPECT_NEAR(s.re, 1.41952, 1e-5);
  EXPECT_NEAR(s.im, -1.52424, 1e-5);
  EXPECT_NEAR(s.weight, 99213.7, 0.1);
  EXPECT_NEAR(s.max_abs_uu_m, 150.19, 0.01);
}

TEST(UvfitsReader, ReadsPaperAntennaTable) {
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/zen.2456865.60537.xy.uvcRREAAM.uvfits");
  const VisibilitySet vis = read_uvfits(path);
  ASSERT_EQ(vis.array.size(), 64);
  EXPECT_EQ(vis.array.antennas[0].name, "ANT1");
  EXPECT_EQ(vis.array.antennas[63].name, "ANT64");
  EXPECT_NEAR(vis.array.reference_itrf_m[0], 5108486.51, 0.005);
  EXPECT_NEAR(vis.array.reference_itrf_m[1], 2004905.86, 0.005);
  EXPECT_NEAR(vis.array.reference_itrf_m[2], -3239392.82, 0.005);
}

TEST(UvfitsBaseline, EncodesAndDecodesBothConventions) {
  EXPECT_EQ(encode_uvfits_baseline(1, 2), 258.0);
  EXPECT_EQ(decode_uvfits_baseline(258.0), (std::pair<long long, long long>{1, 2}));
  EXPECT_EQ(decode_uvfits_baseline(257.01), (std::pair<long long, long long>{1, 1}));
  EXPECT_EQ(encode_uvfits_baseline(300, 5), 2048.0 * 300 + 5 + 65536);
  EXPECT_EQ(decode_uvfits_baseline(2048.0 * 300 + 5 + 65536),
            (std::pair<long long, long long>{300, 5}));
  EXPECT_EQ(decode_uvfits_baseline(2147483648.0 * 3000 + 7 + 4259840),
            (std::pair<long long, long long>{3000, 7}));
}

}  // namespace
}  // namespace rapt
