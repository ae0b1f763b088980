// Known-answer tests of the acceleration search (CPU engine): injected sinusoids, drifting
// signals and pulse trains are found where they were put, noise gives nothing significant.
#include "accel/accel_search.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "accel/plane_builder.hpp"
#include "accel/spectrum_input.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDt = 64e-6;

struct Signal {
  double f_mid_hz = 0.0;    // frequency at the middle of the observation
  double fdot = 0.0;        // Hz/s
  double amplitude = 0.0;   // of the cosine, noise sigma = 1
  double duty = 0.0;        // > 0: a pulse train of von Mises-like pulses instead of a cosine
};

std::vector<std::complex<float>> simulated_spectrum(int64_t n, const Signal& signal,
                                                    uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  const double T = n * kDt;
  std::vector<float> samples(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    const double t = j * kDt;
    const double phase =
        signal.f_mid_hz * t + 0.5 * signal.fdot * ((t - T / 2) * (t - T / 2) - T * T / 4);
    double value = 0.0;
    if (signal.duty > 0.0) {
      const double cycle = phase - std::floor(phase);
      const double d = std::min(cycle, 1.0 - cycle);
      value = signal.amplitude * std::exp(-0.5 * (d / (signal.duty / 2.355)) * (d / (signal.duty / 2.355)));
    } else {
      value = signal.amplitude * std::cos(2 * kPi * phase + 0.3);
    }
    samples[size_t(j)] = float(value + noise(rng));
  }
  return packed_real_fft(samples);
}

AccelSearchResult search(const std::vector<std::complex<float>>& spectrum, int64_t n, int zmax,
                         int numharm, double sigma = 2.0) {
  AccelSearchOptions o;
  o.zmax = zmax;
  o.numharm = numharm;
  o.sigma = sigma;
  auto engine = make_cpu_accel_engine(2);
  return run_accel_search(spectrum, o, n * kDt, "", false, *engine, 2);
}

// Amplitude of a cosine whose spectral power is p_sig = A^2 N / 4.
double amplitude_for_power(double p_sig, int64_t n) { return std::sqrt(4.0 * p_sig / n); }

TEST(AccelSearch, FindsAnIsolatedSinusoidWithinHalfABinAndOptimisesItToAFewHundredths) {
  const int64_t n = 1 << 20;
  const double T = n * kDt;
  Signal s;
  s.f_mid_hz = 95.45;
  s.amplitude = amplitude_for_power(60.0, n);
  const auto result = search(simulated_spectrum(n, s, 1), n, 0, 1);
  ASSERT_FALSE(result.accel.candidates.empty());
  const AccelCandidate& best = result.accel.candidates[0];
  const double r_true = s.f_mid_hz * T;
  EXPECT_LE(std::fabs(best.r - r_true), 0.5);
  EXPECT_LE(std::fabs(best.harmonics[0].props.r - r_true), 0.05);
  EXPECT_GE(best.summed_power, 0.81 * 60.0 * 0.7);  // grid loss and noise
}

// P_sig = 60 leaves an optimisation error of about 0.4 in z and 0.05 in r (PRESTO's zerr and
// rerr for purity 1), so each drift is injected into four noise realisations: every one must be
// within 3 reported errors, and their mean within 0.5 in z and 0.1 in r.
TEST(AccelSearch, RecoversPositiveAndNegativeDriftsThatZmaxZeroMisses) {
  const int64_t n = 1 << 18;
  const double T = n * kDt;
  for (const double z_true : {75.0, -75.0}) {
    double sum_dr = 0.0, sum_dz = 0.0;
    for (uint64_t seed = 2; seed < 6; ++seed) {
      Signal s;
      s.f_mid_hz = 95.45;
      s.fdot = z_true / (T * T);
      s.amplitude = amplitude_for_power(60.0, n);
      const auto spectrum = simulated_spectrum(n, s, seed);
      const double r_true = s.f_mid_hz * T;
      const auto found = search(spectrum, n, 100, 1);
      ASSERT_FALSE(found.accel.candidates.empty()) << "z = " << z_true;
      const AccelCandidate& best = found.accel.candidates[0];
      const FourierProps& props = best.harmonics[0].props;
      EXPECT_LE(std::fabs(best.r - r_true), 0.5) << "z = " << z_true;
      EXPECT_LE(std::fabs(best.z - z_true), 2.0) << "z = " << z_true;
      EXPECT_GT(best.z * z_true, 0.0) << "sign of z";
      EXPECT_LE(std::fabs(props.r - r_true), 3 * props.rerr) << "z = " << z_true;
      EXPECT_LE(std::fabs(props.z - z_true), 3 * props.zerr) << "z = " << z_true;
      EXPECT_GE(best.summed_power, 0.77 * 60.0 * 0.6);
      sum_dr += props.r - r_true;
      sum_dz += props.z - z_true;
      if (seed == 2) {
        const auto flat = search(spectrum, n, 0, 1);
        for (const AccelCandidate& c : flat.accel.candidates) {
          EXPECT_GT(std::fabs(c.r - r_true), 40.0) << "zmax 0 found the drifting signal";
        }
      }
    }
    EXPECT_LE(std::fabs(sum_dr / 4), 0.1) << "z = " << z_true;
    EXPECT_LE(std::fabs(sum_dz / 4), 0.5) << "z = " << z_true;
  }
}

TEST(AccelSearch, FindsAPulseTrainAtItsFundamentalWithManyHarmonicsAndNoDuplicates) {
  const int64_t n = 1 << 18;
  const double T = n * kDt;
  Signal s;
  s.f_mid_hz = 95.45;
  s.fdot = 2.0 / (T * T);  // z = 2: the 16th harmonic drifts by 32 bins, inside zmax 40
  s.duty = 0.05;
  s.amplitude = 0.35;
  const auto found = search(simulated_spectrum(n, s, 3), n, 40, 16);
  ASSERT_FALSE(found.accel.candidates.empty());
  const AccelCandidate& best = found.accel.candidates[0];
  const double r_true = s.f_mid_hz * T;
  EXPECT_LE(std::fabs(best.r - r_true), 0.5);
  EXPECT_GE(best.numharm, 8);
  for (size_t i = 1; i < found.accel.candidates.size(); ++i) {
    const double ratio = found.accel.candidates[i].r / best.r;
    for (int h = 2; h <= 16; ++h) {
      EXPECT_GT(std::fabs(ratio - h) * best.r, 1.5) << "harmonic " << h << " left in the list";
    }
  }
}

TEST(AccelSearch, NormalisedNoisePowerHasUnitMeanAndNoiseGivesNoStrongCandidates) {
  const int64_t n = 1 << 17;
  double sum = 0.0, count = 0.0;
  for (int realisation = 0; realisation < 20; ++realisation) {
    const auto spectrum = simulated_spectrum(n, Signal{}, 100 + realisation);
    AccelSearchOptions o;
    o.zmax = 0;
    o.numharm = 1;
    const AccelPlan plan = make_accel_plan(o, int64_t(spectrum.size()), n * kDt);
    const FfdotPlane plane = build_ffdot_plane_cpu(spectrum, plan, 2);
    for (int64_t c = int64_t(plan.rlo) * 2; c < int64_t(plan.rhi) * 2; c += 2) {
      sum += plane.row(0)[c];
      count += 1.0;
    }
    const auto found = search(spectrum, n, 20, 8);
    for (const AccelCandidate& c : found.accel.candidates) {
      EXPECT_LT(c.sigma, 6.0) << "realisation " << realisation << " r " << c.r;
    }
  }
  EXPECT_NEAR(sum / count, 1.0, 0.01);
}

// harmsum's search: whole bins and interbins, no correlation.
AccelSearchOptions harmsum_options(int numharm) {
  AccelSearchOptions o;
  o.zmax = 0;
  o.numharm = numharm;
  o.plane_mode = PlaneMode::Interbin;
  return o;
}

// harmsum's plane: the interbinned powers between the bins are scaled to unit mean in noise as
// the whole bins' are, so that sigmas computed for unit-mean powers hold for both (with the
// pi/4 of the two-bin interpolation their mean would be (pi/4)^2 x 2 = 1.23, and noise would
// give several times as many candidates as a search of whole bins).
TEST(AccelSearch, InterbinnedNoisePowersHaveUnitMeanAsWholeBinsDo) {
  const int64_t n = 1 << 17;
  double sum[2] = {0.0, 0.0}, count[2] = {0.0, 0.0};
  for (int realisation = 0; realisation < 20; ++realisation) {
    const auto spectrum = simulated_spectrum(n, Signal{}, 300 + realisation);
    const AccelPlan plan = make_accel_plan(harmsum_options(1), int64_t(spectrum.size()), n * kDt);
    const FfdotPlane plane = build_ffdot_plane_cpu(spectrum, plan, 2);
    for (int64_t c = int64_t(plan.rlo) * 2; c < int64_t(plan.rhi) * 2; ++c) {
      sum[c % 2] += plane.row(0)[c];
      count[c % 2] += 1.0;
    }
    auto engine = make_cpu_accel_engine(2);
    const auto found =
        run_accel_search(spectrum, harmsum_options(8), n * kDt, "", false, *engine, 2);
    for (const AccelCandidate& c : found.accel.candidates)
      EXPECT_LT(c.sigma, 6.0) << "realisation " << realisation << " r " << c.r;
  }
  EXPECT_NEAR(sum[0] / count[0], 1.0, 0.01);  // whole bins
  EXPECT_NEAR(sum[1] / count[1], 1.0, 0.01);  // interbins
}

// A sinusoid half-way between two bins: its interbinned power is the two-bin interpolation's
// (the whole power, less 7.4 % of amplitude at worst) scaled by 8 / pi^2, as the noise is.
TEST(AccelSearch, InterbinnedPowerOfAHalfBinSinusoidIsEightOverPiSquaredOfItsPower) {
  const int64_t n = 1 << 16;
  const double p_sig = 4000.0, r = 5000.5;
  Signal signal;
  signal.f_mid_hz = r / (n * kDt);
  signal.amplitude = amplitude_for_power(p_sig, n);
  const auto spectrum = simulated_spectrum(n, signal, 7);
  const AccelPlan plan = make_accel_plan(harmsum_options(1), int64_t(spectrum.size()), n * kDt);
  const FfdotPlane plane = build_ffdot_plane_cpu(spectrum, plan, 2);
  // Noise moves it by sqrt(2 p) rms (pi/4 would put it at p_sig, 9 of those above).
  const double expected = 8.0 / (kPi * kPi) * p_sig;
  EXPECT_NEAR(plane.row(0)[int64_t(2 * r)], expected, 4.0 * std::sqrt(2.0 * expected));
}

}  // namespace
}  // namespace rapt
