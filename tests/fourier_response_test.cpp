#include "accel/fourier_response.hpp"

#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
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
