// Pulsars: the S/N and pulse phase recovered by folding, and the signal against an independent
// double-precision evaluation of the timing model (dispersion, acceleration, orbit, spectrum).
#include "sim/pulsar_signal.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/pulse_shapes.hpp"
#include "sim/signal_spec.hpp"
#include "sim/simulator.hpp"
#include "simulation_reference.hpp"

using rapt::testing::dedisperse;
using rapt::testing::reference_delay_s;
using rapt::testing::small_test_plan;

namespace {

// A unit-peak Gaussian of FWHM `duty` at phase distance d (nearest turn).
double gaussian_at_phase(double phase, double duty) {
  const double d = phase - std::round(phase);
  return std::exp(-4 * std::log(2.0) * d * d / (duty * duty));
}

std::vector<float> simulate(const rapt::SimulationPlan& plan) {
  rapt::Simulator sim(plan, 2);
  std::vector<float> data(plan.obs.nsamples * plan.obs.nchans);
  sim.generate_block(0, plan.obs.nsamples, data.data());
  return data;
}

}  // namespace

TEST(PulsarSignal, FoldedSnrAndPulsePhaseMatchTheRequest) {
  rapt::SimulationPlan plan = small_test_plan(131072);
  const double period = 0.0873, duty = 0.05, snr = 40;
  plan.pulsars.push_back(rapt::parse_pulsar_spec("P=0.0873,DM=56,snr=40,phase=0.3,duty=0.05"));
  const std::vector<double> series = dedisperse(simulate(plan), plan.obs, 56.0);
  const size_t n = series.size();
  double mean = 0;
  for (double v : series) mean += v;
  mean /= n;

  // Fold at the true period into 256 bins of phase t / P (t at the sample centre).
  constexpr int kBins = 256;
  std::vector<double> sum(kBins, 0.0), count(kBins, 0.0);
  for (size_t k = 0; k < n; ++k) {
    const double phase = (k + 0.5) * plan.obs.tsamp_s / period;
    const int bin = static_cast<int>((phase - std::floor(phase)) * kBins) % kBins;
    sum[bin] += series[k] - mean;
    count[bin] += 1;
  }
  // Matched filter on the folded profile with the pulse where phase 0.3 + t / P is whole.
  std::vector<double> templ(kBins);
  double template_mean = 0, total = 0;
  for (int b = 0; b < kBins; ++b) {
    templ[b] = gaussian_at_phase(0.3 + (b + 0.5) / kBins, duty);
    template_mean += templ[b] * count[b], total += count[b];
  }
  template_mean /= total;
  double signal = 0, norm = 0;
  for (int b = 0; b < kBins; ++b) {
    signal += sum[b] * (templ[b] - template_mean);
    norm += count[b] * std::pow(templ[b] - template_mean, 2);
  }
  const double noise_sigma = std::sqrt(double(plan.obs.nchans));
  const double measured = signal / (noise_sigma * std::sqrt(norm));
  // The requested S/N is for the whole observation; the dedispersed series is a bit shorter.
  const double expected = snr * std::sqrt(double(n) / plan.obs.nsamples);
  EXPECT_NEAR(measured, expected, 0.15 * expected);

  // Pulse phase: slide the template over the folded profile; the best offset is where
  // 0.3 + phase is whole, i.e. fold phase 0.7.
  double best_offset = 0, best = -1e300;
  for (int i = 0; i < 2000; ++i) {
    const double offset = i / 2000.0;
    double correlation = 0;
    for (int b = 0; b < kBins; ++b)
      correlation += sum[b] * gaussian_at_phase((b + 0.5) / kBins - offset, duty);
    if (correlation > best) best = correlation, best_offset = offset;
  }
  EXPECT_NEAR(best_offset, 0.7, 0.004);
}

TEST(PulsarSignal, MatchesAnIndependentTimingModelWithAccelerationAndOrbit) {
  rapt::SimulationPlan plan = small_test_plan(30000);
  plan.noise.enabled = false;
  const double period = 0.05, dm = 40, amp = 2, accel = 50, porb = 60, asini = 0.02, t0 = 7;
  const double phase0 = 0.1, duty = 0.08, index = -2;
  plan.pulsars.push_back(rapt::parse_pulsar_spec(
      "P=0.05,DM=40,amp=2,accel=50,porb=60,asini=0.02,t0=7,phase=0.1,duty=0.08,index=-2"));
  const std::vector<float> data = simulate(plan);
  const double tsamp = plan.obs.tsamp_s;
  const double fdot = -(period * accel / 299792458.0) / (period * period);
  for (int c : {0, 17, 40, 63}) {
    const double f = plan.obs.fch1_mhz + c * plan.obs.foff_mhz;
    const double delay = reference_delay_s(dm, f, plan.obs.fch1_mhz);
    const double peak = amp * std::pow(f / plan.obs.fch1_mhz, index);
    double worst = 0;
    for (int64_t k = 0; k < plan.obs.nsamples; k += 3) {
      // Average over the sample by the midpoint rule; emission time by fixed-point iteration.
      double expected = 0;
      for (int i = 0; i < 32; ++i) {
        const double t = (k + (i + 0.5) / 32) * tsamp - delay;
        double te = t;
        for (int it = 0; it < 8; ++it) te = t - asini * std::sin(2 * M_PI * (te - t0) / porb);
        const double phase = phase0 + te / period + 0.5 * fdot * te * te;
        expected += peak * gaussian_at_phase(phase, duty) / 32;
      }
      worst = std::max(worst, std::fabs(data[k * plan.obs.nchans + c] - expected));
    }
    EXPECT_LT(worst, 5e-4 * peak) << "channel " << c;
  }
}

TEST(PulsarSignal, AmplitudeAndSnrFollowTheDefinition) {
  rapt::SimulationPlan plan = small_test_plan(100000);
  const rapt::PulsarSignal by_amp(rapt::parse_pulsar_spec("P=1,DM=10,amp=0.5,duty=0.1"), plan.obs);
  // snr = amp * nchans * sqrt(N * variance(profile)) / sqrt(nchans); a Gaussian of FWHM duty
  // has mean(profile^2) = 0.752733 duty and mean 1.064467 duty (a 1 ms sample barely widens a
  // 100 ms pulse).
  const double variance = 0.752733 * 0.1 - std::pow(1.064467 * 0.1, 2);
  const double expected = 0.5 * 64 * std::sqrt(100000 * variance) / 8;
  EXPECT_NEAR(by_amp.expected_snr(), expected, 1e-3 * expected);

  const rapt::PulsarSignal by_snr(rapt::parse_pulsar_spec("P=1,DM=10,snr=25,index=-1.6,fref=350"),
                                  plan.obs);
  EXPECT_DOUBLE_EQ(by_snr.expected_snr(), 25);
  const auto& peaks = by_snr.peak_amplitudes();
  for (int c : {0, 30, 63}) {
    const double f = 400.0 - c;
    EXPECT_NEAR(peaks[c] / peaks[50], std::pow(f / 350.0, -1.6), 1e-12);
  }
}

TEST(PhaseProfile, HasUnitPeakKnownPowerAndFiniteSupport) {
  const rapt::PhaseProfile narrow(0.02, 0.0);
  EXPECT_NEAR(narrow(0.0), 1.0, 1e-6);
  EXPECT_NEAR(narrow(0.01), 0.5, 1e-4);  // half maximum at FWHM / 2
  EXPECT_NEAR(narrow(0.99), 0.5, 1e-4);
  EXPECT_NEAR(narrow.mean(), 1.064467 * 0.02, 1e-6);
  EXPECT_NEAR(narrow.variance(), 0.752733 * 0.02 - std::pow(1.064467 * 0.02, 2), 1e-6);
  EXPECT_LT(narrow.support_half_width(), 0.07);
  EXPECT_EQ(narrow(0.5), 0.0f);
  EXPECT_EQ(narrow(narrow.support_half_width() + 1e-4), 0.0f);
  // Averaging over a sample of a full FWHM lowers and widens the peak but keeps the area.
  const rapt::PhaseProfile smoothed(0.02, 0.02);
  const double root_ln2 = std::sqrt(std::log(2.0));
  EXPECT_NEAR(smoothed(0.0), std::sqrt(M_PI) / (2 * root_ln2) * std::erf(root_ln2), 1e-4);
  double area = 0;
  for (int i = 0; i < 100000; ++i) area += smoothed(i / 100000.0) / 100000.0;
  EXPECT_NEAR(area, 0.02 * 1.0644, 1e-5);  // FWHM * sqrt(pi / (4 ln 2))
  // A wide pulse wraps around the turn.
  const rapt::PhaseProfile wide(0.5, 0.0);
  EXPECT_NEAR(wide(0.5), 2 * std::exp(-4 * std::log(2.0) * 1.0), 1e-3);
}
