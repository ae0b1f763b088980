// What we write, as astropy.io.fits reads it (tests/io/uvfits_astropy_check.py): group
// parameters by name with PZERO applied, visibilities, and the AN and FQ tables.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>

#include "io/uvfits.hpp"
#include "test_data.hpp"
#include "uvfits_test_support.hpp"

namespace rapt {
namespace {

constexpr double kC = 299792458.0;

// "key rest..." lines; "row N ..." and "data N ..." keyed as "row N", "data N".
std::map<std::string, std::vector<std::string>> parse_lines(const std::string& text) {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key, word;
    words >> key;
    if (key == "row" || key == "data") {
      words >> word;
      key += " " + word;
    }
    while (words >> word) out[key].push_back(word);
  }
  return out;
}

double num(const std::vector<std::string>& v, size_t i) { return std::stod(v.at(i)); }

TEST(UvfitsAstropy, AstropyReadsWhatWeWrite) {
  const std::string python = testing::python_with_astropy();
  if (python.empty()) GTEST_SKIP() << "python3 with astropy not found (Debian python3-astropy)";
  testing::ScratchDir dir;
  const VisibilitySet vis = testing::make_test_visibilities(4, 2, 3);
  write_uvfits(dir.file("a.uvfits"), vis, false);
  const std::string script = testing::checker_script(__FILE__, "uvfits_astropy_check.py");
  if (script.empty()) GTEST_SKIP() << "uvfits_astropy_check.py not found";
  const std::string out = testing::command_output(python + " " + script + " " +
                                                  dir.file("a.uvfits") + " 3 2>&1");
  auto seen = parse_lines(out);
  ASSERT_EQ(seen["gcount"], std::vector<std::string>{std::to_string(vis.nrows())}) << out;
  EXPECT_EQ(seen["ptypes"], (std::vector<std::string>{"UU", "VV", "WW", "DATE", "DATE",
                                                      "BASELINE", "ANTENNA1", "ANTENNA2",
                                                      "SUBARRAY", "INTTIM"}));
  EXPECT_EQ(seen["naxes"], (std::vector<std::string>{"0", "3", "4", "3", "1", "1", "1"}));
  EXPECT_NEAR(num(seen["obsra"], 0), vis.phase_centre_ra_rad * 180 / M_PI, 1e-12);
  EXPECT_NEAR(num(seen["obsdec"], 0), vis.phase_centre_dec_rad * 180 / M_PI, 1e-12);
  EXPECT_EQ(num(seen["crval4"], 0), 150e6);
  EXPECT_EQ(num(seen["cdelt4"], 0), 40e3);
  EXPECT_EQ(num(seen["crval3"], 0), -5.0);
  EXPECT_EQ(num(seen["cdelt3"], 0), -1.0);
  EXPECT_EQ(seen["object"], std::vector<std::string>{"3C123"});
  EXPECT_EQ(seen["date-obs"], std::vector<std::string>{"2023-02-25"});  // MJD 60000
  for (size_t r = 0; r < 3; ++r) {
    const auto& row = seen["row " + std::to_string(r)];
    ASSERT_EQ(row.size(), 8u) << out;
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(num(row, k) * kC, vis.uvw_m[r][k], 6e-8 * std::fabs(vis.uvw_m[r][k]) + 1e-12);
    // A JD in a double resolves ~40 us; our split DATE holds far more than that.
    EXPECT_NEAR(num(row, 3), vis.time_mjd[r] + 2400000.5, 2e-9);
    EXPECT_EQ(num(row, 4), 256.0 * (vis.antenna1[r] + 1) + vis.antenna2[r] + 1);
    EXPECT_EQ(num(row, 5), vis.antenna1[r] + 1);
    EXPECT_EQ(num(row, 6), vis.antenna2[r] + 1);
    EXPECT_EQ(num(row, 7), vis.integration_s[r]);
    const auto& data = seen["data " + std::to_string(r)];
    ASSERT_EQ(data.size(), 3 * vis.nchan() * vis.nstokes());
    for (size_t c = 0; c < vis.nchan() * vis.nstokes(); ++c) {
      const size_t i = r * vis.nchan() * vis.nstokes() + c;
      EXPECT_EQ(num(data, 3 * c), vis.vis[i].real());
      EXPECT_EQ(num(data, 3 * c + 1), vis.vis[i].imag());
      EXPECT_EQ(num(data, 3 * c + 2), vis.flag[i] ? -vis.weight[i] : vis.weight[i]);
    }
  }
  EXPECT_EQ(seen["frame"], std::vector<std::string>{"ITRF"});
  // The centre at the origin and STABXYZ the antennas' ITRF positions (as CASA writes them);
  // the array's reference position in OBSGEO-X/Y/Z.
  for (int k = 0; k < 3; ++k) EXPECT_EQ(num(seen["array"], k), 0.0);
  EXPECT_EQ(num(seen["obsgeo"], 0), vis.array.reference_itrf_m[0]);
  EXPECT_EQ(num(seen["obsgeo"], 2), vis.array.reference_itrf_m[2]);
  EXPECT_EQ(seen["anname"], (std::vector<std::string>{"ANT0", "ANT1", "ANT2", "ANT3"}));
  EXPECT_EQ(seen["nosta"], (std::vector<std::string>{"1", "2", "3", "4"}));
  for (int k = 0; k < 3; ++k) EXPECT_EQ(num(seen["stabxyz0"], k), vis.array.antennas[0].itrf_m[k]);
  EXPECT_EQ(num(seen["fq"], 0), 0.0);
  EXPECT_EQ(num(seen["fq"], 1), 40e3);
}

// AIPS keeps the phase centre in the RA and DEC axes' CRVAL and the antennas' pointing in
// OBSRA/OBSDEC; re-phased visibilities have the two apart.
TEST(UvfitsAstropy, AstropyFindsThePointingInObsraAndThePhaseCentreInCrval) {
  const std::string python = testing::python_with_astropy();
  if (python.empty()) GTEST_SKIP() << "python3 with astropy not found (Debian python3-astropy)";
  testing::ScratchDir dir;
  VisibilitySet vis = testing::make_test_visibilities(3, 1, 2);
  vis.pointing = SkyDirection{-0.25, 0.5};  // RA -0.25 rad is written as 345.68... deg
  write_uvfits(dir.file("p.uvfits"), vis, false);
  const std::string script = testing::checker_script(__FILE__, "uvfits_astropy_check.py");
  if (script.empty()) GTEST_SKIP() << "uvfits_astropy_check.py not found";
  const std::string out = testing::command_output(python + " " + script + " " +
                                                  dir.file("p.uvfits") + " 1 2>&1");
  auto seen = parse_lines(out);
  ASSERT_EQ(seen["ctype6"], std::vector<std::string>{"RA"}) << out;
  ASSERT_EQ(seen["ctype7"], std::vector<std::string>{"DEC"}) << out;
  EXPECT_NEAR(num(seen["obsra"], 0), 360 - 0.25 * 180 / M_PI, 1e-12);
  EXPECT_NEAR(num(seen["obsdec"], 0), 0.5 * 180 / M_PI, 1e-12);
  EXPECT_NEAR(num(seen["crval6"], 0), vis.phase_centre_ra_rad * 180 / M_PI, 1e-12);
  EXPECT_NEAR(num(seen["crval7"], 0), vis.phase_centre_dec_rad * 180 / M_PI, 1e-12);
}

}  // namespace
}  // namespace rapt
