// A small synthetic VisibilitySet and an exact comparison, for the Measurement Set tests.
#pragma once
#include <gtest/gtest.h>

#include <cmath>

#include "io/visibility_set.hpp"

namespace rapt::testing {

// 3 antennas, 2 integrations x 3 baselines written out of time order, 5 channels, 4 linear
// products, some flags and uneven weights.
inline VisibilitySet small_visibility_set() {
  VisibilitySet v;
  v.telescope = "TESTARRAY";
  v.object = "J0000+0000";
  v.phase_centre_ra_rad = 1.25;
  v.phase_centre_dec_rad = -0.5;
  v.array.telescope = v.telescope;
  v.array.antennas = {{"A0", {5109000.0, 2006000.0, -3239000.0}, 13.5},
                      {"A1", {5109100.0, 2006050.0, -3239020.0}, 13.5},
                      {"A2", {5108950.0, 2006120.0, -3238900.0}, 12.0}};
  for (int k = 0; k < 3; ++k)
    v.array.reference_itrf_m[k] = (v.array.antennas[0].itrf_m[k] + v.array.antennas[1].itrf_m[k] +
                                   v.array.antennas[2].itrf_m[k]) /
                                  3;
  for (int c = 0; c < 5; ++c) v.channel_freq_hz.push_back(1.4e9 + 250e3 * c);
  v.channel_width_hz = 250e3;
  v.stokes = {-5, -6, -7, -8};
  const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int t : {1, 0}) {
    for (const auto& p : pairs) {
      v.time_mjd.push_back(60000.5 + t * 2.0 / 86400);
      v.integration_s.push_back(2.0f);
      v.antenna1.push_back(p[0]);
      v.antenna2.push_back(p[1]);
      v.uvw_m.push_back({100.0 * p[1] + t, -20.5 * p[0], 0.125 * (t + 1)});
    }
  }
  const size_t n = v.nrows() * v.nchan() * v.nstokes();
  for (size_t i = 0; i < n; ++i) {
    v.vis.emplace_back(0.5f * std::sin(0.1f * i), -0.25f * std::cos(0.3f * i) + 0.001f * i);
    v.weight.push_back(1.0f + 0.5f * (i % 7));
    v.flag.push_back(i % 11 == 3 ? 1 : 0);
  }
  return v;
}

// Field by field; times to a microsecond (MJD days <-> seconds is not bit exact).
inline void expect_same_visibilities(const VisibilitySet& a, const VisibilitySet& b) {
  EXPECT_EQ(a.telescope, b.telescope);
  EXPECT_EQ(a.object, b.object);
  EXPECT_DOUBLE_EQ(a.phase_centre_ra_rad, b.phase_centre_ra_rad);
  EXPECT_DOUBLE_EQ(a.phase_centre_dec_rad, b.phase_centre_dec_rad);
  EXPECT_DOUBLE_EQ(a.pointing_or_phase_centre().ra_rad, b.pointing_or_phase_centre().ra_rad);
  EXPECT_DOUBLE_EQ(a.pointing_or_phase_centre().dec_rad, b.pointing_or_phase_centre().dec_rad);
  ASSERT_EQ(a.array.size(), b.array.size());
  for (int i = 0; i < a.array.size(); ++i) {
    EXPECT_EQ(a.array.antennas[i].name, b.array.antennas[i].name);
    EXPECT_EQ(a.array.antennas[i].itrf_m, b.array.antennas[i].itrf_m);
    EXPECT_EQ(a.array.antennas[i].dish_diameter_m, b.array.antennas[i].dish_diameter_m);
  }
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(a.array.reference_itrf_m[k], b.array.reference_itrf_m[k], 1e-6);
  EXPECT_EQ(a.channel_freq_hz, b.channel_freq_hz);
  EXPECT_EQ(a.channel_width_hz, b.channel_width_hz);
  EXPECT_EQ(a.stokes, b.stokes);
  ASSERT_EQ(a.nrows(), b.nrows());
  for (size_t r = 0; r < a.nrows(); ++r)
    EXPECT_NEAR(a.time_mjd[r], b.time_mjd[r], 1e-6 / 86400) << "row " << r;
  EXPECT_EQ(a.integration_s, b.integration_s);
  EXPECT_EQ(a.antenna1, b.antenna1);
  EXPECT_EQ(a.antenna2, b.antenna2);
  EXPECT_EQ(a.uvw_m, b.uvw_m);
  EXPECT_EQ(a.vis, b.vis);
  EXPECT_EQ(a.weight, b.weight);
  EXPECT_EQ(a.flag, b.flag);
}

}  // namespace rapt::testing
