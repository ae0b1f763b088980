// Single pulses: arrival per channel against the dispersion law, scattering, fluence, and the
// boxcar S/N after dedispersion.
#include "sim/burst_signal.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

std::vector<float> simulate(const rapt::SimulationPlan& plan) {
  rapt::Simulator sim(plan, 2);
  std::vector<float> data(plan.obs.nsamples * plan.obs.nchans);
  sim.generate_block(0, plan.obs.nsamples, data.data());
  return data;
}

// Best boxcar S/N over windows of 1..max_width samples, in a series of noise sigma `sigma`.
double best_boxcar_snr(const std::vector<double>& series, double sigma, int max_width,
                       int* best_width = nullptr) {
  std::vector<double> prefix(series.size() + 1, 0.0);
  for (size_t k = 0; k < series.size(); ++k) prefix[k + 1] = prefix[k] + series[k];
  double best = -1e300;
  for (int w = 1; w <= max_width; ++w)
    for (size_t k = 0; k + w <= series.size(); ++k) {
      const double snr = (prefix[k + w] - prefix[k]) / (sigma * std::sqrt(double(w)));
      if (snr > best) {
        best = snr;
        if (best_width) *best_width = w;
      }
    }
  return best;
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

}  // namespace

TEST(BurstSignal, ArrivesInEachChannelAtTheDispersionDelay) {
  for (const double scatter : {0.0, 0.003}) {
    rapt::SimulationPlan plan = small_test_plan(3000);
    plan.noise.enabled = false;
    const double t = 0.8123, dm = 150, width = 0.004, amp = 1.5;
    plan.bursts.push_back(rapt::parse_burst_spec(
        "t=0.8123,DM=150,width=0.004,amp=1.5,scatter=" + std::to_string(scatter)));
    const std::vector<float> data = simulate(plan);
    for (int c = 0; c < plan.obs.nchans; ++c) {
      const double f = plan.obs.fch1_mhz + c * plan.obs.foff_mhz;
      const double tau = scatter * std::pow(f / plan.obs.fch1_mhz, -4.0);
      const double arrival = t + reference_delay_s(dm, f, plan.obs.fch1_mhz);
      double area = 0, moment = 0;
      int64_t peak = 0;
      for (int64_t k = 0; k < plan.obs.nsamples; ++k) {
        const double v = data[k * plan.obs.nchans + c];
        area += v, moment += v * (k + 0.5) * plan.obs.tsamp_s;
        if (v > data[peak * plan.obs.nchans + c]) peak = k;
      }
      // Centroid = Gaussian centre + mean scattering delay; area = fluence (sigma x samples).
      EXPECT_NEAR(moment / area, arrival + tau, 0.02 * plan.obs.tsamp_s) << "channel " << c;
      EXPECT_NEAR(area * plan.obs.tsamp_s, amp * width / rapt::kFwhmPerSigma * std::sqrt(2 * M_PI),
                  1e-5) << "channel " << c;
      if (scatter == 0) {
        EXPECT_LE(std::fabs((peak + 0.5) * plan.obs.tsamp_s - arrival), plan.obs.tsamp_s) << c;
      }
    }
  }
}

TEST(BurstSignal, FluenceFollowsTheRadiometerEquation) {
  rapt::SimulationPlan plan = small_test_plan(2000);
  plan.noise.enabled = false;
  plan.radiometer.sefd_jy = 20;
  plan.radiometer.npol = 2;
  plan.bursts.push_back(rapt::parse_burst_spec("t=0.5,DM=100,width=0.002,fluence=5,index=-2,fref=380"));
  const std::vector<float> data = simulate(plan);
  // Noise per sample and channel: SEFD / sqrt(npol * bandwidth * tsamp) Jy.
  const double sigma_jy = 20 / std::sqrt(2 * 1e6 * 1e-3);
  for (int c : {0, 20, 63}) {
    double area = 0;
    for (int64_t k = 0; k < plan.obs.nsamples; ++k) area += data[k * plan.obs.nchans + c];
    const double fluence_jyms = area * plan.obs.tsamp_s * sigma_jy * 1e3;
    EXPECT_NEAR(fluence_jyms, 5 * std::pow((400.0 - c) / 380.0, -2), 1e-4) << "channel " << c;
  }
}

TEST(BurstSignal, BoxcarSnrAfterDedispersionMatchesTheRequest) {
  for (const char* extra : {"", ",scatter=0.004", ",index=-3"}) {
    rapt::SimulationPlan plan = small_test_plan(4000);
    plan.bursts.push_back(
        rapt::parse_burst_spec(std::string("t=1.3,DM=100,width=0.005,snr=30") + extra));
    const std::vector<double> series = dedisperse(simulate(plan), plan.obs, 100);
    // The pulse sits near sample 1300 of the dedispersed series; search around it.
    const std::vector<double> around(series.begin() + 1000, series.begin() + 1700);
    const double snr = best_boxcar_snr(around, std::sqrt(double(plan.obs.nchans)), 200);
    EXPECT_NEAR(snr, 30, 0.15 * 30) << extra;
  }
}

TEST(BurstSignal, ItsOptimalBoxcarIsTheBestWindowOfTheNoiseFreeSum) {
  rapt::SimulationPlan plan = small_test_plan(3000);
  plan.noise.enabled = false;
  plan.bursts.push_back(rapt::parse_burst_spec("t=1.0004,DM=0,width=0.002,amp=1,scatter=0.006"));
  const rapt::BurstSignal burst(plan.bursts[0], plan.obs, plan.radiometer);
  const std::vector<double> series = dedisperse(simulate(plan), plan.obs, 0);
  int width = 0;
  const double snr = best_boxcar_snr(series, std::sqrt(double(plan.obs.nchans)), 400, &width);
  EXPECT_NEAR(burst.expected_snr(), snr, 1e-5 * snr);
  EXPECT_EQ(burst.best_boxcar_samples(), width);
  double sum_squares = 0;
  for (double v : series) sum_squares += v * v;
  EXPECT_NEAR(burst.matched_snr(), std::sqrt(sum_squares / plan.obs.nchans), 1e-5 * snr);
}

TEST(ScatteredGaussian, CdfMatchesNumericalConvolution) {
  for (const auto& [sigma, tau] : std::vector<std::pair<double, double>>{
           {1.0, 0.0}, {1.0, 1e-4}, {1.0, 0.05}, {1.0, 1.0}, {1.0, 20.0}, {0.3, 3.0}}) {
    // F(t) = integral of Phi((t - s) / sigma) exp(-s / tau) / tau ds, by the midpoint rule.
    for (double t : {-5.0, -1.0, 0.0, 0.7, 2.5, 10.0, 60.0}) {
      double expected = normal_cdf(t / sigma);
      if (tau > 0) {
        expected = 0;
        const double step = std::min(tau, sigma) / 200;
        for (double s = step / 2; s < 60 * tau; s += step)
          expected += normal_cdf((t - s) / sigma) * std::exp(-s / tau) / tau * step;
      }
      EXPECT_NEAR(rapt::scattered_gaussian_cdf(t, sigma, tau), expected, 2e-6)
          << "sigma " << sigma << " tau " << tau << " t " << t;
    }
  }
  EXPECT_NEAR(rapt::scaled_erfc(12.0), std::exp(144.0) * std::erfc(12.0), 1e-9);
  // The asymptotic series takes over at z = 10 without a step.
  EXPECT_NEAR(rapt::scaled_erfc(10.0 + 1e-12) / rapt::scaled_erfc(10.0 - 1e-12), 1.0, 1e-8);
  EXPECT_NEAR(rapt::scaled_erfc(10.0 - 1e-12), std::exp(100.0) * std::erfc(10.0), 1e-12);
}
