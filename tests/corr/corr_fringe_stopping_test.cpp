// Fringe stopping, pinned end to end through the CPU engine: voltages of a point source made
// with the delays of rapt(7) (exp(-2 pi i nu tau_a)), turned towards the phase centre and
// correlated, give V12 = S exp(+2 pi i (u l + v m + w (n - 1)) nu / c) with uvw = antenna 1 -
// antenna 2: the AIPS/UVFITS sense, and what point_source_visibility computes. Rotating the
// visibilities instead of the voltages (the int8 path) gives the same thing.
#include "corr/fringe_stopping.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "corr/correlator_engine.hpp"
#include "geometry/array_layout.hpp"

namespace rapt {
namespace {

using cd = std::complex<double>;
constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr int kPol = 2;
constexpr int64_t kSamples = 64;

// Four stations up to 2 km apart, near MeerKAT.
ArrayLayout test_layout() {
  return parse_layout_text(
      "# frame: enu -30.7130 21.4430 1038\n"
      "a0 0 0 0\na1 800 300 2\na2 -1200 900 -1\na3 300 -1500 4\n",
      "test.txt");
}

const std::vector<double> kFreqs{1.30e9, 1.40e9, 1.45e9};
const SkyDirection kCentre{1.0, -0.5};
const UtcInstant kTime{60000, 3600.0};

int nant() { return test_layout().size(); }

// Voltages of a unit point source at `source`: a common random phase per sample, delayed at
// each station by its geometric delay (narrow band: a phase at the channel centre).
std::vector<float> source_voltages(const SkyDirection& source) {
  const ArrayLayout layout = test_layout();
  const std::vector<double> tau = geometric_delays_s(layout, source, kTime);
  const int nchan = int(kFreqs.size()), na = layout.size();
  std::vector<float> v(size_t(nchan) * na * kSamples * kPol * 2);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> phase(0, kTwoPi);
  for (int c = 0; c < nchan; ++c)
    for (int64_t t = 0; t < kSamples; ++t)
      for (int p = 0; p < kPol; ++p) {
        const cd s = std::polar(1.0, phase(rng));
        for (int a = 0; a < na; ++a) {
          const cd x = s * std::polar(1.0, -kTwoPi * kFreqs[size_t(c)] * tau[size_t(a)]);
          const size_t i = ((((size_t(c) * na + a) * kSamples + t) * kPol) + p) * 2;
          v[i] = float(x.real());
          v[i + 1] = float(x.imag());
        }
      }
  return v;
}

std::vector<cd> correlate(const std::vector<float>& v) {
  CorrelatorShape shape;
  shape.nchan = int(kFreqs.size()), shape.nant = nant(), shape.npol = kPol;
  auto engine = make_cpu_correlator(shape, 1);
  engine->accumulate(v.data(), kSamples);
  std::vector<cd> sums;
  engine->take(sums);
  for (cd& x : sums) x /= double(kSamples);
  return sums;
}

cd xx(const std::vector<cd>& vis, int c, int a1, int a2) {
  const int64_t nbl = int64_t(nant()) * (nant() + 1) / 2;
  return vis[size_t((c * nbl + baseline_index(a1, a2)) * kPol * kPol)];
}

TEST(CorrFringeStopping, APointSourceGivesTheUvfitsVisibility) {
  const SkyDirection source{kCentre.ra_rad + 0.01, kCentre.dec_rad + 0.02};
  std::vector<float> v = source_voltages(source);
  const FringeStopping fringe(test_layout(), kCentre, kFreqs, nullptr);
  ASSERT_TRUE(fringe.needed());
  rotate_voltages(v.data(), int(kFreqs.size()), nant(), kSamples, kPol, fringe.phases(kTime), 0, kSamples);
  const std::vector<cd> vis = correlate(v);
  const std::vector<Vector3> uvw = antenna_uvw_m(test_layout(), kCentre, kTime);
  const Vector3 lmn = direction_lmn(source, kCentre);
  for (int c = 0; c < int(kFreqs.size()); ++c)
    for (int a2 = 0; a2 < nant(); ++a2)
      for (int a1 = 0; a1 <= a2; ++a1) {
        Vector3 b;
        for (int k = 0; k < 3; ++k) b[k] = uvw[size_t(a1)][k] - uvw[size_t(a2)][k];
        const cd expected = point_source_visibility(1.0, b, kFreqs[size_t(c)], lmn);
        EXPECT_NEAR(std::abs(xx(vis, c, a1, a2) - expected), 0.0, 2e-5)
            << "channel " << c << " baseline " << a1 << "-" << a2 << ": " << xx(vis, c, a1, a2)
            << " vs " << expected;
      }
}

TEST(CorrFringeStopping, ASourceAtThePhaseCentreIsReal) {
  std::vector<float> v = source_voltages(kCentre);
  const FringeStopping fringe(test_layout(), kCentre, kFreqs, nullptr);
  const std::vector<cd> raw = correlate(v);
  EXPECT_GT(std::abs(std::arg(xx(raw, 1, 0, 2))), 0.01);  // not stopped: it turns
  rotate_voltages(v.data(), int(kFreqs.size()), nant(), kSamples, kPol, fringe.phases(kTime), 0, kSamples);
  const std::vector<cd> vis = correlate(v);
  for (int c = 0; c < int(kFreqs.size()); ++c)
    for (int a2 = 0; a2 < nant(); ++a2)
      for (int a1 = 0; a1 <= a2; ++a1) EXPECT_NEAR(std::abs(xx(vis, c, a1, a2) - 1.0), 0.0, 1e-5);
}

TEST(CorrFringeStopping, RotatingTheVisibilitiesEqualsRotatingTheVoltages) {
  const SkyDirection source{kCentre.ra_rad - 0.02, kCentre.dec_rad + 0.01};
  const std::vector<float> v = source_voltages(source);
  const FringeStopping fringe(test_layout(), kCentre, kFreqs, nullptr);
  const std::vector<cd> phases = fringe.phases(kTime);
  std::vector<float> turned = v;
  rotate_voltages(turned.data(), int(kFreqs.size()), nant(), kSamples, kPol, phases, 0, kSamples);
  const std::vector<cd> by_voltages = correlate(turned);
  std::vector<cd> by_visibilities = correlate(v);
  rotate_visibilities(by_visibilities.data(), int(kFreqs.size()), nant(), kPol * kPol, phases);
  ASSERT_EQ(by_voltages.size(), by_visibilities.size());
  for (size_t k = 0; k < by_voltages.size(); ++k)
    EXPECT_NEAR(std::abs(by_voltages[k] - by_visibilities[k]), 0.0, 1e-5) << k;
}

TEST(CorrFringeStopping, RotationTouchesOnlyTheSamplesAsked) {
  const std::vector<float> v = source_voltages(kCentre);
  const FringeStopping fringe(test_layout(), kCentre, kFreqs, nullptr);
  const std::vector<cd> phases = fringe.phases(kTime);
  std::vector<float> pieces = v, whole = v;
  rotate_voltages(pieces.data(), int(kFreqs.size()), nant(), kSamples, kPol, phases, 0, 10);
  rotate_voltages(pieces.data(), int(kFreqs.size()), nant(), kSamples, kPol, phases, 10, kSamples);
  rotate_voltages(whole.data(), int(kFreqs.size()), nant(), kSamples, kPol, phases, 0, kSamples);
  EXPECT_EQ(pieces, whole);
  std::vector<float> part = v;
  rotate_voltages(part.data(), int(kFreqs.size()), nant(), kSamples, kPol, phases, 5, 9);
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t t = int64_t(i / (kPol * 2)) % kSamples;
    if (t >= 5 && t < 9) EXPECT_EQ(part[i], whole[i]) << i;
    else EXPECT_EQ(part[i], v[i]) << i;
  }
}

TEST(CorrFringeStopping, PhasedVoltagesTurnOnlyByTheDifferenceFromTheirPointing) {
  const ArrayLayout layout = test_layout();
  const FringeStopping same(layout, kCentre, kFreqs, &kCentre);
  EXPECT_FALSE(same.needed());
  EXPECT_EQ(same.max_fringe_rate_turns_per_s(kTime), 0.0);
  EXPECT_EQ(same.max_baseline_delay_s(kTime), 0.0);
  const SkyDirection centre{kCentre.ra_rad, kCentre.dec_rad + 0.001};
  const FringeStopping moved(layout, centre, kFreqs, &kCentre);
  ASSERT_TRUE(moved.needed());
  const std::vector<double> to_centre = geometric_delays_s(layout, centre, kTime);
  const std::vector<double> to_pointing = geometric_delays_s(layout, kCentre, kTime);
  const std::vector<cd> f = moved.phases(kTime);
  for (size_t c = 0; c < kFreqs.size(); ++c)
    for (int a = 0; a < layout.size(); ++a) {
      const double turns = kFreqs[c] * (to_centre[size_t(a)] - to_pointing[size_t(a)]);
      EXPECT_NEAR(std::abs(f[c * size_t(layout.size()) + size_t(a)] - std::polar(1.0, kTwoPi * turns)), 0.0, 1e-6);
    }
}

TEST(CorrFringeStopping, FringeRateAndDelayAreTheBaselinesLargest) {
  const ArrayLayout layout = test_layout();
  const FringeStopping fringe(layout, kCentre, kFreqs, nullptr);
  const std::vector<double> now = geometric_delays_s(layout, kCentre, kTime);
  const std::vector<double> later = geometric_delays_s(layout, kCentre, {kTime.mjd_day, kTime.seconds + 1.0});
  double delay = 0, rate = 0;
  for (int a1 = 0; a1 < layout.size(); ++a1)
    for (int a2 = 0; a2 < layout.size(); ++a2) {
      delay = std::max(delay, std::fabs(now[size_t(a1)] - now[size_t(a2)]));
      rate = std::max(rate, std::fabs((later[size_t(a1)] - later[size_t(a2)]) - (now[size_t(a1)] - now[size_t(a2)])));
    }
  EXPECT_NEAR(fringe.max_baseline_delay_s(kTime), delay, 1e-12);
  EXPECT_NEAR(fringe.max_fringe_rate_turns_per_s(kTime), rate * 1.45e9, 1e-6 * rate * 1.45e9);
  EXPECT_GT(fringe.max_fringe_rate_turns_per_s(kTime), 0.1);  // km baselines at 1.4 GHz
  EXPECT_GE(fringe.max_fringe_rate_turns_per_s(kTime), fringe.max_station_rate_turns_per_s(kTime));
}

TEST(CorrFringeStopping, SmearingIsTheSincOfTheTurnsInAnIntegration) {
  EXPECT_EQ(fringe_smearing_amplitude(0.0, 10.0), 1.0);
  EXPECT_NEAR(fringe_smearing_amplitude(1.0, 1.0), 0.0, 1e-12);
  EXPECT_NEAR(fringe_smearing_amplitude(0.5, 1.0), 2 / 3.14159265358979, 1e-9);
  EXPECT_NEAR(fringe_smearing_amplitude(0.01, 7.8), std::sin(3.14159265358979 * 0.078) / (3.14159265358979 * 0.078), 1e-12);
}

}  // namespace
}  // namespace rapt
