#include "accel/fourier_response.hpp"

#include <fftw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "accel/fresnel.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Reference values from mpmath (fresnelc, fresnels).
TEST(FresnelIntegrals, MatchReferenceValuesAcrossBothMethods) {
  struct Case { double x, c, s; };
  const Case cases[] = {
      {0.5, 0.49234422587144638, 0.064732432859999273},
      {1.0, 0.77989340037682287, 0.43825914739035476},
      {1.79, 0.33021596686705407, 0.46033546467807063},
      {1.81, 0.33757550735251474, 0.4417502291992324},
      {2.5, 0.45741300964177706, 0.61918175581959289},
      {10.0, 0.49989869420551575, 0.46816997858488224},
      {123.4, 0.4983557254116332, 0.49801249804703074},
  };
  for (const Case& k : cases) {
    const FresnelValues v = fresnel_integrals(k.x);
    EXPECT_NEAR(v.c, k.c, 1e-14) << "x = " << k.x;
    EXPECT_NEAR(v.s, k.s, 1e-14) << "x = " << k.x;
    const FresnelValues m = fresnel_integrals(-k.x);
    EXPECT_EQ(m.c, -v.c);
    EXPECT_EQ(m.s, -v.s);
  }
}

TEST(FresnelIntegrals, AreZeroAtZero) {
  const FresnelValues v = fresnel_integrals(0.0);
  EXPECT_EQ(v.c, 0.0);
  EXPECT_EQ(v.s, 0.0);
}

TEST(ZResponseHalfwidth, FollowsPrestoFormula) {
  EXPECT_EQ(z_response_halfwidth(0.0, ResponseAccuracy::Low), 16);
  EXPECT_EQ(z_response_halfwidth(0.0, ResponseAccuracy::High), 48);
  EXPECT_EQ(z_response_halfwidth(75.0, ResponseAccuracy::Low), 41 + 16);
  EXPECT_EQ(z_response_halfwidth(-75.0, ResponseAccuracy::High), 41 + 48);
  EXPECT_EQ(z_response_halfwidth(54.0, ResponseAccuracy::Low), 29 + 16);
}

TEST(FdotResponseCoefficient, ZeroDriftKernelIsOneAtZeroAndZeroAtOtherIntegers) {
  EXPECT_NEAR(std::abs(fdot_response_coefficient(0.0, 0.0) - 1.0), 0.0, 1e-15);
  for (int k = -20; k <= 20; ++k) {
    if (k == 0) continue;
    EXPECT_NEAR(std::abs(fdot_response_coefficient(k, 0.0)), 0.0, 1e-15) << k;
  }
}

TEST(FdotResponseCoefficient, ZeroDriftKernelIsConjugatedPhaseRampSinc) {
  const double d = 0.3;
  const std::complex<double> expected =
      std::polar(std::sin(kPi * d) / (kPi * d), -kPi * d);
  EXPECT_NEAR(std::abs(fdot_response_coefficient(d, 0.0) - expected), 0.0, 1e-15);
}

TEST(FdotResponseCoefficient, TendsToTheInterpolationKernelAsDriftVanishes) {
  for (double d : {-3.7, -0.5, 0.0, 0.25, 1.0, 12.3}) {
    const std::complex<double> small = fdot_response_coefficient(d, 2e-4);
    const std::complex<double> zero = fdot_response_coefficient(d, 0.0);
    EXPECT_NEAR(std::abs(small - zero), 0.0, 1e-3) << d;
    const std::complex<double> neg = fdot_response_coefficient(d, -2e-4);
    EXPECT_NEAR(std::abs(neg - zero), 0.0, 1e-3) << d;
  }
}

// Sum of |coefficient|^2 over all bins is 1 (Parseval: the template has unit energy).
TEST(FdotResponseCoefficient, HasUnitEnergyOverBins) {
  for (double z : {-30.0, 5.0, 30.0}) {
    double energy = 0.0;
    for (int k = -4000; k <= 4000; ++k) energy += std::norm(fdot_response_coefficient(0.37 + k, z));
    EXPECT_NEAR(energy, 1.0, 2e-3) << z;
  }
}

// The response written directly as the rotation times the difference of two Fresnel integrals,
// three sincos per coefficient: the form the library used before it shared the phases.
std::complex<double> direct_response(double delta_r, double z) {
  if (std::fabs(z) < 1e-4) {
    const double x = kPi * delta_r;
    if (std::fabs(x) < 1e-8) return {1.0 - x * x / 6.0, -x};
    return std::polar(std::sin(x) / x, -x);
  }
  const bool positive = z > 0.0;
  const double d = positive ? delta_r : -delta_r;
  const double az = std::fabs(z);
  const double q = d - 0.5 * az;
  const double scale = std::sqrt(2.0 / az);
  const FresnelValues fy = fresnel_integrals(q * scale);
  const FresnelValues fz = fresnel_integrals((q + az) * scale);
  const std::complex<double> g = std::polar(1.0, -kPi * q * q / az) *
                                 std::complex<double>(fz.c - fy.c, fz.s - fy.s) /
                                 std::sqrt(2.0 * az);
  return positive ? std::conj(g) : g;
}

// Same numbers as the direct form: within 1e-12 relative, plus the direct form's own rounding
// of its rotation phase pi q^2 / |z| (~1e-16 of that phase, which reaches 1e7 rad at the smallest
// drifts). Coefficients near a zero are measured against the 1 / (pi (|d| + 1)) envelope.
TEST(FdotResponseCoefficient, AgreesWithTheDirectRotationTimesFresnelDifference) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  int series_and_tail = 0;
  int both_tails = 0;
  for (double z_low : {1e-4, 1e-2, 1.0, 10.0, 100.0, 1000.0}) {
    for (int i = 0; i < 20000; ++i) {
      const double z = z_low * std::pow(10.0, uniform(rng)) * (uniform(rng) < 0.5 ? -1.0 : 1.0);
      const double reach = 0.55 * std::fabs(z) + 48.0;  // a high-accuracy kernel's half-width
      const double d = (2.0 * uniform(rng) - 1.0) * reach;
      const std::complex<double> want = direct_response(d, z);
      const std::complex<double> got = fdot_response_coefficient(d, z);
      const double q = std::fabs(d) + 0.5 * std::fabs(z);
      const double phase = kPi * q * q / std::fabs(z);
      const double size = std::max(std::abs(want), 1.0 / (kPi * (std::fabs(d) + 1.0)));
      ASSERT_LE(std::abs(got - want), (1e-12 + 1e-15 * phase) * size) << "d " << d << " z " << z;
      const double a = std::fabs(d - 0.5 * z) * std::sqrt(2.0 / std::fabs(z));
      const double b = std::fabs(d + 0.5 * z) * std::sqrt(2.0 / std::fabs(z));
      series_and_tail += (a < 1.8) != (b < 1.8);
      both_tails += a >= 1.8 && b >= 1.8;
    }
  }
  EXPECT_GT(series_and_tail, 1000);  // both Fresnel branches were exercised
  EXPECT_GT(both_tails, 10000);
}

// Reference values from mpmath (the defining integral at 40 digits). The first has a rotation
// phase of 3e7 rad, where the direct form is off by 1e-4 relative.
TEST(FdotResponseCoefficient, MatchesTheDefiningIntegral) {
  struct Case { double d, z, re, im, tolerance; };
  const Case cases[] = {
      {41.999995, 0.000210516, -1.1904733376840681e-7, -1.8995449337006257e-8, 1e-9},
      {46.999981, -0.0110156, -4.0430097110763392e-7, 7.9363333271536384e-7, 1e-10},
      {-48.002897, -1.04016, 5.971590483449381e-5, 7.2390743703457601e-5, 1e-12},
      {52.985148, -11.1822, -0.00031167766490226551, 0.00062669774731215223, 1e-13},
      {-559.385765, 980.546, 0.0014540408462038398, 0.0019296756542687589, 1e-13},
  };
  for (const Case& k : cases) {
    const std::complex<double> want(k.re, k.im);
    const std::complex<double> got = fdot_response_coefficient(k.d, k.z);
    EXPECT_LE(std::abs(got - want), k.tolerance * std::abs(want)) << "d " << k.d << " z " << k.z;
  }
}

// Unnormalised forward FFT of a chirp with average Fourier frequency r0 and drift z.
std::vector<std::complex<double>> chirp_spectrum(int n, double amplitude, double r0, double z,
                                                 double phase0) {
  std::vector<double> series(n);
  for (int j = 0; j < n; ++j) {
    const double u = static_cast<double>(j) / n;
    series[j] = amplitude * std::cos(phase0 + 2.0 * kPi * (r0 - 0.5 * z) * u + kPi * z * u * u);
  }
  std::vector<std::complex<double>> spectrum(n / 2 + 1);
  fftw_plan plan = fftw_plan_dft_r2c_1d(n, series.data(),
                                        reinterpret_cast<fftw_complex*>(spectrum.data()),
                                        FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return spectrum;
}

std::complex<double> interpolate(const std::vector<std::complex<double>>& spectrum, double r,
                                 double z) {
  const int halfwidth = z_response_halfwidth(z, ResponseAccuracy::High);
  const long centre = static_cast<long>(std::floor(r));
  std::complex<double> sum = 0.0;
  for (long k = centre - halfwidth; k <= centre + halfwidth; ++k) {
    if (k < 1 || k >= static_cast<long>(spectrum.size()) - 1) continue;
    sum += spectrum[k] * fdot_response_coefficient(r - k, z);
  }
  return sum;
}

constexpr int kN = 1 << 16;
constexpr double kAmplitude = 0.01;

class ChirpRecovery : public ::testing::TestWithParam<double> {};

TEST_P(ChirpRecovery, RecoversFullPowerAndStartPhaseAtTrueFrequencyAndDrift) {
  const double z = GetParam();
  const double r0 = 1000.3;
  const double phase0 = 0.7;
  const auto spectrum = chirp_spectrum(kN, kAmplitude, r0, z, phase0);
  const std::complex<double> a = interpolate(spectrum, r0, z);
  const double expected_power = kAmplitude * kAmplitude * kN * double(kN) / 4.0;
  EXPECT_GE(std::norm(a) / expected_power, 0.99);
  EXPECT_LE(std::norm(a) / expected_power, 1.01);
  EXPECT_NEAR(std::remainder(std::arg(a) - phase0, 2.0 * kPi), 0.0, 0.02);
}

TEST_P(ChirpRecovery, PeakOfFineGridIsAtTrueFrequencyAndDrift) {
  const double z = GetParam();
  const double r0 = 2000.6;
  const auto spectrum = chirp_spectrum(kN, kAmplitude, r0, z, 0.0);
  double best_power = -1.0, best_r = 0.0, best_z = 0.0;
  for (int iz = -12; iz <= 12; ++iz) {
    for (int ir = -10; ir <= 10; ++ir) {
      const double r = r0 + 0.05 * ir;
      const double zz = z + 0.25 * iz;
      const double p = std::norm(interpolate(spectrum, r, zz));
      if (p > best_power) {
        best_power = p;
        best_r = r;
        best_z = zz;
      }
    }
  }
  EXPECT_NEAR(best_r, r0, 1e-9);
  EXPECT_NEAR(best_z, z, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Drifts, ChirpRecovery, ::testing::Values(75.0, -75.0, 0.0, 3.7));

// A drift of the opposite sign must lose most of the power: the sign convention matters.
TEST(FdotResponseCoefficient, WrongDriftSignLosesThePower) {
  const auto spectrum = chirp_spectrum(kN, kAmplitude, 1500.2, 40.0, 0.0);
  const double right = std::norm(interpolate(spectrum, 1500.2, 40.0));
  const double wrong = std::norm(interpolate(spectrum, 1500.2, -40.0));
  EXPECT_LT(wrong, 0.1 * right);
}

}  // namespace
}  // namespace rapt
