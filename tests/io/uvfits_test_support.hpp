// Helpers for the UVFITS and FITS image tests: a synthetic visibility set, running a command and
// finding a Python 3 that has astropy.
#pragma once
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "io/visibility_set.hpp"

namespace rapt::testing {

// stdout of `command`, empty if it could not run.
inline std::string command_output(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

// The first of `python3` and /usr/bin/python3 that imports astropy, or "" (the test skips).
inline std::string python_with_astropy() {
  for (const char* python : {"python3", "/usr/bin/python3"}) {
    const std::string check = std::string(python) + " -c \"import astropy\" >/dev/null 2>&1";
    if (std::system(check.c_str()) == 0) return python;
  }
  return "";
}

// A Python checker beside the test source `file` (__FILE__, relative to the repository root
// when built by make), looked for from the root or from inside the build tree; "" if absent.
inline std::string checker_script(const std::string& file, const std::string& name) {
  const size_t slash = file.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : file.substr(0, slash);
  for (const char* up : {"", "../", "../../", "../../../"}) {
    const std::string path = (dir[0] == '/' ? "" : up) + dir + "/" + name;
    if (FILE* f = std::fopen(path.c_str(), "r")) {
      std::fclose(f);
      return path;
    }
  }
  return "";
}

// A small array observed at `ntimes` integrations: every baseline with autocorrelations,
// `nchan` channels from 150 MHz, four linear products XX YY XY YX; values distinct per cell.
inline VisibilitySet make_test_visibilities(int nant, int ntimes, int nchan) {
  VisibilitySet vis;
  vis.telescope = "TESTARRAY";
  vis.instrument = "RAPTCORR";
  vis.object = "3C123";
  vis.phase_centre_ra_rad = 1.2345678901234;
  vis.phase_centre_dec_rad = -0.4567890123456;
  vis.array.telescope = "TESTARRAY";
  vis.array.reference_itrf_m = {-2559454.08, 5095372.14, -2849057.18};
  for (int a = 0; a < nant; ++a) {
    Antenna antenna;
    antenna.name = "ANT" + std::to_string(a);
    antenna.itrf_m = {vis.array.reference_itrf_m[0] + 12.5 * a,
                      vis.array.reference_itrf_m[1] - 7.25 * a * a,
                      vis.array.reference_itrf_m[2] + 3.0 * std::sin(a)};
    antenna.dish_diameter_m = 13.5;
    vis.array.antennas.push_back(antenna);
  }
  for (int k = 0; k < nchan; ++k) vis.channel_freq_hz.push_back(150e6 + 40e3 * k);
  vis.channel_width_hz = 40e3;
  vis.stokes = {-5, -6, -7, -8};
  for (int t = 0; t < ntimes; ++t)
    for (int a1 = 0; a1 < nant; ++a1)
      for (int a2 = a1; a2 < nant; ++a2) {
        const size_t row = vis.nrows();
        vis.time_mjd.push_back(60000.4321234567 + t * 2.0 / 86400.0);
        vis.integration_s.push_back(2.0f);
        vis.antenna1.push_back(a1);
        vis.antenna2.push_back(a2);
        const auto& p1 = vis.array.antennas[a1].itrf_m;
        const auto& p2 = vis.array.antennas[a2].itrf_m;
        vis.uvw_m.push_back({p1[0] - p2[0] + 0.1 * t, p1[1] - p2[1], p1[2] - p2[2] - 0.01 * t});
        for (int k = 0; k < nchan; ++k)
          for (int p = 0; p < 4; ++p) {
            const float x = static_cast<float>(row * 100 + k * 10 + p);
            vis.vis.emplace_back(x + 0.25f, -0.5f * x);
            vis.weight.push_back(1.0f + 0.5f * p);
            vis.flag.push_back((row + k + p) % 7 == 0);
          }
      }
  return vis;
}

}  // namespace rapt::testing
