#include "accel/fourier_props.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "accel/fourier_derivs.hpp"
#include "accel/rz_interp.hpp"
#include "accel_test_signals.hpp"
#include "cli/errors.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(FourierProps, FollowsPrestoFormulasForAPerfectSinusoid) {
  // A sinusoid's power near its peak: P(r) = P0 sinc^2(pi dr), so P'' = -2 pi^2 P0 / 3 and the
  // purity is exactly 1; the phase falls by pi per bin, so the centroid is 0.5.
  FourierDerivs d;
  d.locpow = 2.0;
  d.pow = 200.0;  // normalised power 100
  d.d2pow = -2.0 * kPi * kPi / 3.0 * d.pow;
  d.phs = 1.25;
  d.dphs = -kPi;
  const FourierProps p = fourier_props(d, 123.4, -5.5, 7.0);
  EXPECT_DOUBLE_EQ(p.pow, 100.0);
  EXPECT_NEAR(p.pur, 1.0, 1e-12);
  EXPECT_NEAR(p.cen, 0.5, 1e-15);
  EXPECT_EQ(p.r, 123.4);
  EXPECT_EQ(p.z, -5.5);
  EXPECT_EQ(p.w, 7.0);
  EXPECT_NEAR(p.rerr, 3.0 / (kPi * std::sqrt(600.0)), 1e-14);
  EXPECT_NEAR(p.zerr, 3.0 * std::sqrt(10.0) / (kPi * 10.0), 1e-14);
  EXPECT_NEAR(p.werr, 6.0 * std::sqrt(105.0) / (kPi * 10.0), 1e-13);
  EXPECT_NEAR(p.purerr, 1.0 / std::sqrt(1000.0), 1e-14);
  EXPECT_DOUBLE_EQ(p.powerr, std::sqrt(200.0));
  EXPECT_DOUBLE_EQ(p.phserr, 1.0 / std::sqrt(200.0));
  EXPECT_DOUBLE_EQ(p.sig, std::sqrt(200.0 - std::log(kPi * 100.0)));
  EXPECT_DOUBLE_EQ(p.cenerr, 1.0 / std::sqrt(2400.0));
  EXPECT_EQ(p.rawpow, 200.0);
  EXPECT_EQ(p.phs, 1.25);
  EXPECT_EQ(p.locpow, 2.0);
}

TEST(FourierProps, RejectsZeroPower) {
  FourierDerivs d;
  d.locpow = 1.0;
  try {
    fourier_props(d, 10.0, 0.0, 0.0);
    FAIL() << "no exception";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("is zero"), std::string::npos) << e.what();
  }
  d.pow = 5.0;
  d.locpow = 0.0;
  EXPECT_THROW(fourier_props(d, 10.0, 0.0, 0.0), DataError);
}

TEST(FourierDerivs, OfAnInterpolatedSinusoidGiveUnitPurityAndHalfCentroid) {
  testing::ChirpSpec spec;
  spec.noise_sigma = 0.0;
  spec.z = 6.0;
  spec.phase0 = 2.0;
  const auto spectrum = testing::packed_float_spectrum(spec);
  const int64_t n = static_cast<int64_t>(spectrum.size());
  const FourierDerivs d = fourier_derivs(spectrum.data(), n, spec.r0, spec.z, 1.0);
  EXPECT_NEAR(d.pow / testing::sinusoid_power(spec.amplitude, spec.n), 1.0, 0.01);
  EXPECT_NEAR(d.phs, 2.0, 0.01);
  EXPECT_NEAR(d.dpow / d.pow, 0.0, 0.03);  // sampled chirp: peak ~0.002 bins off
  EXPECT_NEAR(d.dphs, -kPi, 0.01);
  EXPECT_NEAR(d.d2pow / d.pow, -2.0 * kPi * kPi / 3.0, 0.05);
  EXPECT_EQ(d.locpow, 1.0);
  const FourierProps p = fourier_props(d, spec.r0, spec.z, 0.0);
  EXPECT_NEAR(p.pur, 1.0, 0.005);
  EXPECT_NEAR(p.cen, 0.5, 0.002);
}

TEST(FourierDerivs, KeepsPhasesInZeroToTwoPi) {
  testing::ChirpSpec spec;
  spec.noise_sigma = 0.0;
  for (double phase0 : {-0.5, 0.5, 3.0, 6.0}) {
    spec.phase0 = phase0;
    const auto spectrum = testing::packed_float_spectrum(spec);
    const FourierDerivs d = fourier_derivs(spectrum.data(), static_cast<int64_t>(spectrum.size()),
                                           spec.r0 + 0.2, 0.0, 1.0);
    EXPECT_GT(d.phs, -2.0 * kPi);  // unwrapping may take 2 pi off, never more
    EXPECT_LE(d.phs, 2.0 * kPi);
    const double expected = phase0 - 0.2 * kPi;  // phase falls by pi per bin
    EXPECT_NEAR(std::remainder(d.phs - expected, 2.0 * kPi), 0.0, 0.01) << phase0;
  }
}

TEST(CoherentPower, AddsAlignedHarmonicAmplitudes) {
  // Harmonic n with phase n * phs1 (mod 2 pi) and normalised power 4: amplitudes 2 add up.
  std::vector<FourierDerivs> h(4);
  const double phs1 = 2.5;
  for (int n = 1; n <= 4; ++n) {
    h[n - 1].pow = 8.0;
    h[n - 1].locpow = 2.0;
    h[n - 1].phs = std::fmod(n * phs1, 2.0 * kPi);
  }
  EXPECT_NEAR(coherent_power(h), 64.0, 1e-9);
  // -photon: amplitudes sqrt(pow / photons)
  EXPECT_NEAR(coherent_power(h, 8.0), 16.0, 1e-9);
  // Misaligned: harmonic 2 opposite in phase cancels harmonic 1.
  h[1].phs = std::fmod(2 * phs1 + kPi, 2.0 * kPi);
  EXPECT_NEAR(coherent_power(h), 16.0, 1e-9);
}

TEST(CoherentPower, OfNoHarmonicsIsZero) { EXPECT_EQ(coherent_power({}), 0.0); }

}  // namespace
}  // namespace rapt
