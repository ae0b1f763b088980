// The CUDA rz maximiser against the CPU one (skipped without a GPU). Both run the same simplex
// passes; they differ only in the order of the objective's sums (rounding ~1e-16), so their
// maxima agree within the passes' own resolution: 1e-4 bins in r, 1e-3 in z.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "accel/candidate_optimise.hpp"
#include "accel/rz_maximiser.hpp"
#include "accel_test_signals.hpp"
#include "gpu_device.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

#define RAPT_REQUIRE_GPU() \
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU: the CUDA rz maximiser is not tested here"

constexpr double kRTolerance = 1e-4;
constexpr double kZTolerance = 1e-3;

void expect_same_maxima(const std::complex<float>* spectrum, int64_t numbins,
                        const std::vector<RzStart>& starts) {
  const auto cpu = make_cpu_rz_maximiser(4);
  const auto gpu = make_rz_maximiser("gpu", 4);
  const std::vector<RzPoint> want = cpu->maximise(spectrum, numbins, starts);
  const std::vector<RzPoint> got = gpu->maximise(spectrum, numbins, starts);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("start " + std::to_string(i) + ": r " + std::to_string(starts[i].r) + " z " +
                 std::to_string(starts[i].z) + ", " +
                 std::to_string(starts[i].power_norms.size()) + " harmonics");
    EXPECT_NEAR(got[i].r, want[i].r, kRTolerance);
    EXPECT_NEAR(got[i].z, want[i].z, kZTolerance);
    EXPECT_NEAR(got[i].value / want[i].value, 1.0, 1e-8);
    EXPECT_GT(got[i].evaluations, 20);
    EXPECT_EQ(got[i].halfwidth, want[i].halfwidth);
  }
}

struct Chirp {
  testing::ChirpSpec spec;
  std::vector<std::complex<float>> spectrum;
};

Chirp chirp(int harmonics, double r0, double z, int n = 1 << 18) {
  Chirp c;
  c.spec.n = n;
  c.spec.harmonics = harmonics;
  c.spec.r0 = r0;
  c.spec.z = z;
  c.spec.amplitude = 0.1;
  c.spec.seed = unsigned(harmonics * 1000 + (z < 0 ? 1 : 2));
  c.spectrum = testing::packed_float_spectrum(c.spec);
  return c;
}

// Starts on the search grid near the truth: highest harmonic's r to 0.5 bins, z to 2, divided
// by the number of harmonics, as accelsearch hands candidates to the optimiser.
RzStart grid_start(const Chirp& c, bool polish) {
  const int h = c.spec.harmonics;
  const double r = std::round(c.spec.r0 * h * 2.0) / 2.0 / h;
  const double z = 2.0 * std::round(c.spec.z * h / 2.0 + 0.3) / h;
  const int64_t n = static_cast<int64_t>(c.spectrum.size());
  return polish ? harmonic_rz_start(c.spectrum.data(), n, h, r, z) : single_rz_start(r, z);
}

TEST(GpuRzMaximiser, AgreesWithTheCpuOnChirpsOfOneEightAndSixteenHarmonics) {
  RAPT_REQUIRE_GPU();
  for (const int harmonics : {1, 8, 16}) {
    for (const double z : {-5.3, 4.1}) {
      SCOPED_TRACE(std::to_string(harmonics) + " harmonics, z " + std::to_string(z));
      const Chirp c = chirp(harmonics, 1234.56, z);
      const int64_t n = static_cast<int64_t>(c.spectrum.size());
      std::vector<RzStart> starts = {grid_start(c, true), grid_start(c, false)};
      // Each harmonic on its own, as without polishing.
      for (int h = 2; h <= harmonics; h += 3) {
        starts.push_back(single_rz_start(std::round(c.spec.r0 * h * 2.0) / 2.0,
                                         2.0 * std::round(c.spec.z * h / 2.0)));
      }
      expect_same_maxima(c.spectrum.data(), n, starts);
    }
  }
}

// The widest kernels: |z| ~1100 for one harmonic, and 32 harmonics of a fundamental with
// z 35 (harmonic 32 at z 1120, ~660 bins each side).
TEST(GpuRzMaximiser, AgreesWithTheCpuForTheWidestKernels) {
  RAPT_REQUIRE_GPU();
  const Chirp wide = chirp(1, 20000.3, -1100.7, 1 << 20);
  expect_same_maxima(wide.spectrum.data(), static_cast<int64_t>(wide.spectrum.size()),
                     {grid_start(wide, false), grid_start(wide, true)});
  const Chirp many = chirp(32, 2500.2, 35.1, 1 << 20);
  expect_same_maxima(many.spectrum.data(), static_cast<int64_t>(many.spectrum.size()),
                     {grid_start(many, true)});
}

// Maxima near the spectrum's ends: kernels cut at bin 0 and numbins - 1.
TEST(GpuRzMaximiser, AgreesWithTheCpuAtTheSpectrumEdges) {
  RAPT_REQUIRE_GPU();
  Chirp low = chirp(1, 10.4, 3.0);
  const int64_t n = static_cast<int64_t>(low.spectrum.size());
  testing::ChirpSpec high = low.spec;
  high.r0 = double(n) - 5.2;
  high.z = -4.0;
  high.noise_sigma = 0.0;
  const auto high_spectrum = testing::packed_float_spectrum(high);
  for (int64_t k = 0; k < n; ++k) low.spectrum[size_t(k)] += high_spectrum[size_t(k)];
  expect_same_maxima(low.spectrum.data(), n,
                     {single_rz_start(10.5, 4.0), single_rz_start(double(n) - 5.5, -4.0),
                      harmonic_rz_start(low.spectrum.data(), n, 1, double(n) - 5.0, -4.0)});
}

std::vector<std::complex<float>> read_fft(const std::string& path) {
  const std::string bytes = testing::read_whole_file(path);
  std::vector<std::complex<float>> spectrum(bytes.size() / sizeof(std::complex<float>));
  std::memcpy(spectrum.data(), bytes.data(), spectrum.size() * sizeof(std::complex<float>));
  return spectrum;
}

// PRESTO's candidates on test_DM56.00.fft (accelsearch -zmax 50 -numharm 8), polished and not.
TEST(GpuRzMaximiser, AgreesWithTheCpuOnThePrestoGoldenCandidates) {
  RAPT_REQUIRE_GPU();
  RAPT_REQUIRE_SHARED_FILE(fft, "presto-golden/test_DM56.00.fft");
  RAPT_REQUIRE_SHARED_FILE(text, "presto-golden/test_DM56.00_ACCEL_50");
  RAPT_REQUIRE_SHARED_FILE(cand, "presto-golden/test_DM56.00_ACCEL_50.cand");
  const auto spectrum = read_fft(fft);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  AccelCandidates accel = read_accel_text(text);
  apply_cand_records(accel, read_cand_file(cand), cand);
  ASSERT_GT(accel.candidates.size(), 4u);
  std::vector<RzStart> starts;
  std::vector<GridCandidate> grids;
  for (const AccelCandidate& c : accel.candidates) {
    starts.push_back(harmonic_rz_start(spectrum.data(), n, c.numharm, c.r, c.z));
    for (int h = 1; h <= c.numharm; ++h) starts.push_back(single_rz_start(c.r * h, c.z * h));
    grids.push_back({c.r, c.z, c.numharm, c.summed_power, c.sigma});
  }
  expect_same_maxima(spectrum.data(), n, starts);

  // The whole batch optimisation: the same records within the maxima's agreement.
  const auto cpu = make_cpu_rz_maximiser(4);
  const auto gpu = make_rz_maximiser("gpu", 4);
  for (const bool polish : {true, false}) {
    OptimiseOptions options;
    options.harmonic_polish = polish;
    const auto want = optimise_candidates(spectrum.data(), n, grids, options, *cpu, 4);
    const auto got = optimise_candidates(spectrum.data(), n, grids, options, *gpu, 4);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(got[i].harmonics.size(), want[i].harmonics.size());
      for (size_t h = 0; h < want[i].harmonics.size(); ++h) {
        SCOPED_TRACE("candidate " + std::to_string(i + 1) + " harmonic " + std::to_string(h + 1) +
                     (polish ? " polished" : " separate"));
        const FourierProps& a = got[i].harmonics[h].props;
        const FourierProps& b = want[i].harmonics[h].props;
        EXPECT_NEAR(a.r, b.r, kRTolerance * double(h + 1));
        EXPECT_NEAR(a.z, b.z, kZTolerance * double(h + 1));
        EXPECT_NEAR(a.pow / b.pow, 1.0, 1e-4);
      }
    }
  }
}

}  // namespace
}  // namespace rapt
