#include "accel/rz_maximiser.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "accel/candidate_optimise.hpp"
#include "accel_test_signals.hpp"
#include "cli/errors.hpp"

namespace rapt {
namespace {

std::vector<std::complex<float>> four_harmonic_chirp() {
  testing::ChirpSpec spec;
  spec.z = -6.1;
  spec.r0 = 901.37;
  spec.harmonics = 4;
  spec.amplitude = 0.3;
  return testing::packed_float_spectrum(spec);
}

TEST(CpuRzMaximiser, GivesTheSinglePassResultForEveryStartInOrder) {
  const auto spectrum = four_harmonic_chirp();
  const int64_t n = static_cast<int64_t>(spectrum.size());
  const std::vector<RzStart> starts = {harmonic_rz_start(spectrum.data(), n, 4, 901.5, -6.0),
                                       single_rz_start(1802.5, -12.0),
                                       harmonic_rz_start(spectrum.data(), n, 2, 901.0, -4.0),
                                       single_rz_start(3605.5, -24.0)};
  const auto maximiser = make_cpu_rz_maximiser(3);
  const std::vector<RzPoint> got = maximiser->maximise(spectrum.data(), n, starts);
  ASSERT_EQ(got.size(), starts.size());
  for (size_t i = 0; i < starts.size(); ++i) {
    const RzPoint want =
        maximise_rz_point(spectrum.data(), n, starts[i].power_norms, starts[i].r, starts[i].z);
    EXPECT_EQ(got[i].r, want.r) << i;
    EXPECT_EQ(got[i].z, want.z) << i;
    EXPECT_EQ(got[i].value, want.value) << i;
    EXPECT_EQ(got[i].evaluations, want.evaluations) << i;
    EXPECT_EQ(got[i].halfwidth, want.halfwidth) << i;
    EXPECT_GT(got[i].evaluations, 20) << i;
  }
  // The single-harmonic starts find the chirp's second and fourth harmonics.
  EXPECT_NEAR(got[1].r, 2 * 901.37, 0.01);
  EXPECT_NEAR(got[3].z, 4 * -6.1, 0.2);
}

TEST(CpuRzMaximiser, MatchesMaximiseRzAndMaximiseRzHarmonics) {
  const auto spectrum = four_harmonic_chirp();
  const int64_t n = static_cast<int64_t>(spectrum.size());
  const auto maximiser = make_cpu_rz_maximiser(2);
  const std::vector<RzPoint> got = maximiser->maximise(
      spectrum.data(), n,
      {harmonic_rz_start(spectrum.data(), n, 4, 901.5, -6.0), single_rz_start(901.5, -6.0)});
  const HarmonicRzMaximum polished = maximise_rz_harmonics(spectrum.data(), n, 4, 901.5, -6.0);
  const RzMaximum single = maximise_rz(spectrum.data(), n, 901.5, -6.0);
  EXPECT_EQ(got[0].r, polished.r);
  EXPECT_EQ(got[0].z, polished.z);
  EXPECT_EQ(got[1].r, single.r);
  EXPECT_EQ(got[1].z, single.z);
  EXPECT_EQ(got[1].value, single.power);
}

TEST(CpuRzMaximiser, RejectsAStartWithoutHarmonics) {
  const auto spectrum = four_harmonic_chirp();
  const auto maximiser = make_cpu_rz_maximiser(1);
  RzStart bad;
  bad.r = 100.0;
  try {
    maximiser->maximise(spectrum.data(), static_cast<int64_t>(spectrum.size()),
                        {single_rz_start(900.0, 0.0), bad});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "rz maximiser: start 1 has no harmonics");
  }
  EXPECT_TRUE(maximiser->maximise(spectrum.data(), 10, {}).empty());
}

TEST(RzMaximiserChoice, FollowsTheDeviceOption) {
  EXPECT_EQ(make_rz_maximiser("cpu", 3)->name(), "cpu (3 threads)");
  EXPECT_THROW(make_rz_maximiser("tpu", 3), UsageError);
}

// The batch with the CPU maximiser is optimise_candidate, candidate by candidate.
TEST(BatchCandidateOptimisation, EqualsOneByOneOptimisationWithAndWithoutPolishing) {
  const auto spectrum = four_harmonic_chirp();
  const int64_t n = static_cast<int64_t>(spectrum.size());
  const std::vector<GridCandidate> grids = {
      {901.5, -6.0, 4, 50.0, 7.0}, {1802.5, -12.0, 2, 30.0, 5.0}, {3605.0, -24.0, 1, 20.0, 4.0}};
  const auto maximiser = make_cpu_rz_maximiser(2);
  for (const bool polish : {true, false}) {
    OptimiseOptions options;
    options.harmonic_polish = polish;
    options.lobin = 3;
    options.single_trial_sigma = [](double power, int numharm) { return power + numharm; };
    const std::vector<AccelCandidate> batch =
        optimise_candidates(spectrum.data(), n, grids, options, *maximiser, 2);
    ASSERT_EQ(batch.size(), grids.size());
    for (size_t i = 0; i < grids.size(); ++i) {
      const AccelCandidate one = optimise_candidate(spectrum.data(), n, grids[i], options);
      SCOPED_TRACE("candidate " + std::to_string(i) + (polish ? " polished" : " separate"));
      EXPECT_EQ(batch[i].coherent_power, one.coherent_power);
      EXPECT_EQ(batch[i].r, one.r);
      ASSERT_EQ(batch[i].harmonics.size(), one.harmonics.size());
      for (size_t h = 0; h < one.harmonics.size(); ++h) {
        EXPECT_EQ(batch[i].harmonics[h].props.r, one.harmonics[h].props.r);
        EXPECT_EQ(batch[i].harmonics[h].props.z, one.harmonics[h].props.z);
        EXPECT_EQ(batch[i].harmonics[h].props.pow, one.harmonics[h].props.pow);
        EXPECT_EQ(batch[i].harmonics[h].sigma, one.harmonics[h].sigma);
      }
    }
  }
  EXPECT_TRUE(optimise_candidates(spectrum.data(), n, {}, {}, *maximiser, 2).empty());
}

}  // namespace
}  // namespace rapt
