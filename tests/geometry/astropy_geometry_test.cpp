// Our geometric delays against astropy's ITRS -> GCRS transformation (independent frame and
// time-scale code; both sides take UT1 = UTC and no polar motion), to 1 ps.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "geometry/array_layout.hpp"
#include "geometry/interferometer_geometry.hpp"
#include "geometry_test_support.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

// A python3 that imports astropy: $RAPT_PYTHON, python3 on the PATH, then /usr/bin/python3.
std::string python_with_astropy() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("RAPT_PYTHON")) candidates.emplace_back(env);
  candidates.emplace_back("python3");
  candidates.emplace_back("/usr/bin/python3");
  for (const std::string& python : candidates) {
    const std::string command = python + " -c 'import astropy' >/dev/null 2>&1";
    if (std::system(command.c_str()) == 0) return python;
  }
  return "";
}

// Standard output of `command`, or "" when it fails.
std::string command_output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string out;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe.get())) > 0;) out.append(buffer, n);
  return out;
}

std::vector<double> astropy_delays_s(const std::string& python, const ArrayLayout& layout,
                                     double ra_deg, double dec_deg, const UtcInstant& time,
                                     const testing::ScratchDir& scratch) {
  const std::string positions = scratch.file("positions.txt");
  {
    std::ofstream out(positions);
    out << std::setprecision(17);
    const auto write = [&](const ItrfPosition& p) { out << p[0] << ' ' << p[1] << ' ' << p[2] << '\n'; };
    write(layout.reference_itrf_m);
    for (const Antenna& antenna : layout.antennas) write(antenna.itrf_m);
  }
  std::ostringstream command;
  command << std::setprecision(17) << python << ' '
          << testing::repository_file("tests/geometry/astropy_geometry_reference.py") << ' '
          << ra_deg << ' ' << dec_deg << ' ' << time.mjd_day << ' ' << time.seconds << ' '
          << positions << " 2>&1";
  std::istringstream in(command_output(command.str()));
  std::vector<double> delays;
  for (double d; in >> d;) delays.push_back(d);
  return delays;
}

struct AstropyCase {
  double ra_deg, dec_deg;
  UtcInstant time;
};

TEST(AstropyGeometry, MeerkatDelaysAgreeToOnePicosecond) {
  const std::string python = python_with_astropy();
  if (python.empty()) GTEST_SKIP() << "python3 with astropy not found (python3 -c 'import astropy')";
  const std::string script = testing::repository_file("tests/geometry/astropy_geometry_reference.py");
  const std::string layout_path = testing::repository_file("examples/layouts/meerkat.txt");
  ASSERT_FALSE(script.empty());
  ASSERT_FALSE(layout_path.empty());
  const ArrayLayout layout = read_layout_file(layout_path);
  testing::ScratchDir scratch;
  const AstropyCase cases[] = {{83.633, 22.0145, {58000, 12345.5}},     // Crab, 2017
                               {187.28, 2.05, {60310, 80000.0}},        // 3C 273, 2024
                               {294.85, -63.71, {61000, 43200.0}},      // PKS 1934-638, 2025
                               {10.0, -89.0, {51544, 43135.816}}};      // near the south pole
  for (const AstropyCase& c : cases) {
    const std::vector<double> theirs =
        astropy_delays_s(python, layout, c.ra_deg, c.dec_deg, c.time, scratch);
    const std::vector<double> ours =
        geometric_delays_s(layout, {c.ra_deg * testing::kDegToRad, c.dec_deg * testing::kDegToRad},
                           c.time);
    ASSERT_EQ(theirs.size(), ours.size()) << "astropy script output unusable";
    double largest_s = 0;
    for (size_t a = 0; a < ours.size(); ++a) {
      EXPECT_NEAR(ours[a], theirs[a], 1e-12) << layout.antennas[a].name << " MJD " << c.time.mjd();
      largest_s = std::max(largest_s, std::fabs(ours[a]));
    }
    EXPECT_GT(largest_s, 1e-6);  // the comparison is not of zeros
  }
}

}  // namespace
}  // namespace rapt
