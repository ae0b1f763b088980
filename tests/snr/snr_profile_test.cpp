// S/N of a folded profile: a boxcar pulse of width w and height a over unit noise gives about
// a sqrt(w), wherever it sits in phase (wrapping round included).
#include <gtest/gtest.h>

#include <cmath>

#include "cli/errors.hpp"
#include "snr/profile_snr.hpp"
#include "snr_test_support.hpp"

namespace rapt {
namespace {

TEST(ProfileSnr, FindsABoxcarPulseWrappingRoundThePhase) {
  const std::vector<float> noise = testing::gaussian_noise(256, 11);
  std::vector<double> profile(noise.begin(), noise.end());
  for (double& v : profile) v += 100.0;
  for (int k = 0; k < 8; ++k) profile[size_t((252 + k) % 256)] += 10.0;  // S/N 10 sqrt(8)
  const ProfileSnr snr = profile_snr(profile, "p.bestprof");
  EXPECT_NEAR(snr.snr, 10.0 * std::sqrt(8.0), 0.1 * 10.0 * std::sqrt(8.0));
  EXPECT_EQ(snr.width_bins, 8);
  EXPECT_EQ(snr.start_bin, 252);
}

TEST(ProfileSnr, RefusesAFlatProfile) {
  EXPECT_THROW(profile_snr(std::vector<double>(64, 3.0), "flat.bestprof"), DataError);
}

}  // namespace
}  // namespace rapt
