// The array voltage simulator against independent references: the geometry module's
// visibility of a point source (before and after fringe stopping), whole-sample envelope
// delays, noise levels and independence, the correlation coefficient S / (S + SEFD), the
// dispersion law of bursts and pulsars, real-sampled bands, and identical values whatever the
// block sizes and threads.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "array_sim_test_support.hpp"
#include "cli/errors.hpp"
#include "sim/signal_spec.hpp"

namespace rapt {
namespace {

using testing::correlate;
using testing::layout_with_offsets;
using testing::point_source;
using testing::simulate_all;
using testing::small_plan;

constexpr double kDispersionSeconds = 1.0 / 2.41e-4;  // s MHz^2 cm^3 / pc (PRESTO)

UtcInstant at(const ArrayVoltagePlan& plan, double t_s) {
  UtcInstant when = plan.start;
  when.seconds += t_s;
  return when;
}

std::complex<double> unit_phasor(double turns) { return std::polar(1.0, 2 * M_PI * turns); }

double sinc(double x) { return x == 0 ? 1.0 : std::sin(M_PI * x) / (M_PI * x); }

TEST(ArrayVoltageSimulator, TwoAntennasSeeTheSourceVisibilityBeforeFringeStopping) {
  ArrayVoltagePlan plan = small_plan(layout_with_offsets({{0, 0, 0}, {30, -20, 10}}), 16384);
  const PointSourceSpec source = point_source(60.5, -29.8, 10.0);
  plan.sources = {source};
  const std::vector<float> v = simulate_all(plan);
  const UtcInstant mid = at(plan, plan.duration_s() / 2);
  const std::vector<Vector3> uvw = antenna_uvw_m(plan.layout, plan.phase_centre, mid);
  const Vector3 b{uvw[0][0] - uvw[1][0], uvw[0][1] - uvw[1][1], uvw[0][2] - uvw[1][2]};
  const Vector3 lmn = direction_lmn(source.direction, plan.phase_centre);
  const std::vector<double> tau = geometric_delays_s(plan.layout, source.direction, mid);
  for (int c = 0; c < plan.nchan; ++c) {
    const double nu_hz = plan.channel_freq_mhz(c) * 1e6;
    const std::complex<double> measured = correlate(v, plan, c, 0, 1);
    // Raw correlation = fringe-stopped visibility times exp(+2 pi i w nu / c).
    const std::complex<double> fringe_stopped = point_source_visibility(10.0, b, nu_hz, lmn);
    const std::complex<double> raw = fringe_stopped * unit_phasor(b[2] * nu_hz / kSpeedOfLight_m_s);
    EXPECT_NEAR(std::arg(measured / raw), 0.0, 0.02) << "channel " << c;
    // The same from the delays: exp(-2 pi i nu (tau1 - tau2)).
    EXPECT_NEAR(std::arg(measured * std::conj(unit_phasor(-nu_hz * (tau[0] - tau[1])))), 0.0, 0.02);
    // After the phase-centre rotation the correlation is the catalogue visibility.
    const std::complex<double> stopped = measured * unit_phasor(-b[2] * nu_hz / kSpeedOfLight_m_s);
    EXPECT_NEAR(std::arg(stopped / fringe_stopped), 0.0, 0.02);
    // Amplitude: S, less the decorrelation of a delay within the channel, sinc(B dtau).
    const double expected = 10.0 * sinc(1e6 * (tau[0] - tau[1]));
    EXPECT_NEAR(std::abs(measured) / expected, 1.0, 0.025) << "channel " << c;
  }
}

TEST(ArrayVoltageSimulator, LongBaselinesDelayTheEnvelopeByWholeSamples) {
  ArrayVoltagePlan plan = small_plan(layout_with_offsets({{0, 0, 0}, {2000, 1500, -800}}), 8192);
  const PointSourceSpec source = point_source(75.0, -10.0, 4.0);
  plan.sources = {source};
  const std::vector<float> v = simulate_all(plan);
  const std::vector<double> tau =
      geometric_delays_s(plan.layout, source.direction, at(plan, plan.duration_s() / 2));
  const double lag_samples = (tau[1] - tau[0]) / plan.tsamp_s();
  ASSERT_GT(std::fabs(lag_samples), 2.0) << "the test wants a delay of several samples";
  const int c = 5;
  int best = 0;
  double best_power = -1;
  for (int lag = -15; lag <= 15; ++lag) {
    const double power = std::abs(correlate(v, plan, c, 0, 1, lag));
    if (power > best_power) best_power = power, best = lag;
  }
  EXPECT_LE(std::fabs(best - lag_samples), 0.6) << "expected lag " << lag_samples;
  EXPECT_GT(best_power, 0.6 * 4.0);
  const double nu_hz = plan.channel_freq_mhz(c) * 1e6;
  const std::complex<double> peak = correlate(v, plan, c, 0, 1, best);
  EXPECT_NEAR(std::arg(peak * std::conj(unit_phasor(-nu_hz * (tau[0] - tau[1])))), 0.0, 0.03);
}

TEST(ArrayVoltageSimulator, ReceiverNoiseHasTheStatedRmsAndIsIndependent) {
  ArrayVoltagePlan plan = small_plan(layout_with_offsets({{0, 0, 0}, {10, 0, 0}, {0, 10, 0}}), 16384);
  plan.noise = true;
  plan.gain = gain_for_noise_rms(plan, 3.0);
  const std::vector<float> v = simulate_all(plan, 2);
  const double n = 2.0 * plan.nsamples;  // both polarisations
  for (int c : {0, 7})
    for (int a = 0; a < 3; ++a) {
      double sum_squares = 0;
      for (int64_t k = 0; k < plan.nsamples; ++k)
        for (int p = 0; p < 2; ++p) sum_squares += std::norm(testing::sample_at(v, plan, c, a, k, p));
      EXPECT_NEAR(std::sqrt(sum_squares / (2 * n)), 3.0, 0.03 * 3.0) << "channel " << c << " antenna " << a;
    }
  const double power = 2 * 9.0;  // <|n|^2>
  const double bound = 5.0 / std::sqrt(n);
  EXPECT_LT(std::abs(correlate(v, plan, 0, 0, 1)) / power, bound);
  EXPECT_LT(std::abs(correlate(v, plan, 3, 1, 2)) / power, bound);
  std::complex<double> cross_pol = 0, cross_channel = 0;
  for (int64_t k = 0; k < plan.nsamples; ++k) {
    cross_pol += testing::sample_at(v, plan, 2, 1, k, 0) * std::conj(testing::sample_at(v, plan, 2, 1, k, 1));
    cross_channel += testing::sample_at(v, plan, 2, 1, k, 0) * std::conj(testing::sample_at(v, plan, 3, 1, k, 0));
  }
  EXPECT_LT(std::abs(cross_pol) / plan.nsamples / power, 5.0 / std::sqrt(plan.nsamples));
  EXPECT_LT(std::abs(cross_channel) / plan.nsamples / power, 5.0 / std::sqrt(plan.nsamples));
}

TEST(ArrayVoltageSimulator, SourceFluxSetsTheCorrelationCoefficient) {
  ArrayVoltagePlan plan = small_plan(layout_with_offsets({{0, 0, 0}, {3, 4, 0}}), 32768);
  plan.noise = true;
  plan.sefd_jy = 100.0;
  plan.gain = 0.5;
  plan.sources = {point_source(60.0, -30.0, 25.0)};
  const std::vector<float> v = simulate_all(plan, 2);
  for (int c : {1, 6}) {
    const double p0 = correlate(v, plan, c, 0, 0).real(), p1 = correlate(v, plan, c, 1, 1).real();
    EXPECT_NEAR(p0 / (0.25 * 125.0), 1.0, 0.03);
    EXPECT_NEAR(p1 / (0.25 * 125.0), 1.0, 0.03);
    const double rho = std::abs(correlate(v, plan, c, 0, 1)) / std::sqrt(p0 * p1);
    EXPECT_NEAR(rho, 25.0 / 125.0, 0.015) << "channel " << c;
  }
}

// The whole observation reassembled from blocks of the given sizes.
std::vector<float> simulate_in_blocks(const ArrayVoltagePlan& plan, const std::vector<int64_t>& sizes,
                                      int threads) {
  ArrayVoltageSimulator sim(plan, threads);
  const VoltageHeader h = plan.header("PSRDADA");
  const size_t per_sample = static_cast<size_t>(h.npol) * h.values_per_sample();
  std::vector<float> all(h.block_values(plan.nsamples));
  int64_t first = 0;
  for (size_t i = 0; first < plan.nsamples; ++i) {
    const int64_t n = std::min(sizes[i % sizes.size()], plan.nsamples - first);
    std::vector<float> block(h.block_values(n));
    sim.generate_block(first, n, block.data());
    for (int ca = 0; ca < h.nchan * h.nant; ++ca)
      std::memcpy(&all[(ca * plan.nsamples + first) * per_sample], &block[ca * n * per_sample],
                  n * per_sample * sizeof(float));
    first += n;
  }
  return all;
}

TEST(ArrayVoltageSimulator, BlocksAndThreadsDoNotChangeAValue) {
  ArrayVoltagePlan plan =
      small_plan(layout_with_offsets({{0, 0, 0}, {2000, 1500, -800}, {-300, 200, 100}}), 3000);
  plan.noise = true;
  plan.sources = {point_source(60.2, -30.1, 30.0), point_source(59.0, -31.0, 5.0)};
  plan.pulsars = {{parse_pulsar_spec("P=0.0005,DM=5,amp=3"), plan.phase_centre}};
  plan.bursts = {{parse_burst_spec("t=0.001,DM=5,width=0.0001,amp=5"), {61.0 * M_PI / 180, -30.5 * M_PI / 180}}};
  const std::vector<float> one = simulate_all(plan, 1);
  EXPECT_EQ(simulate_in_blocks(plan, {77, 1000, 300, 1623}, 3), one);
  EXPECT_EQ(simulate_in_blocks(plan, {256}, 4), one);
  plan.real_samples = true;
  plan.nchan = 1;
  plan.npol = 1;
  const std::vector<float> real = simulate_all(plan, 1);
  EXPECT_EQ(simulate_in_blocks(plan, {33, 500}, 3), real);
  plan.seed = 8;
  EXPECT_NE(simulate_all(plan, 1), real);
}

// Centroid in time (s) of channel c's detected power, both polarisations.
double power_centroid_s(const std::vector<float>& v, const ArrayVoltagePlan& plan, int c) {
  double weighted = 0, total = 0;
  for (int64_t k = 0; k < plan.nsamples; ++k)
    for (int p = 0; p < plan.npol; ++p) {
      const double power = std::norm(testing::sample_at(v, plan, c, 0, k, p));
      weighted += power * (k + 0.5) * plan.tsamp_s();
      total += power;
    }
  return weighted / total;
}

ArrayVoltagePlan dispersion_plan() {
  ArrayVoltagePlan plan = small_plan(layout_with_offsets({{0, 0, 0}}), 32768);
  plan.nchan = 16;
  plan.centre_freq_mhz = 400.0;
  plan.bandwidth_mhz = 16.0;  // 1 us samples
  return plan;
}

double dispersion_delay_s(double dm, double freq_mhz, double top_mhz) {
  return kDispersionSeconds * dm * (1 / (freq_mhz * freq_mhz) - 1 / (top_mhz * top_mhz));
}

TEST(ArrayVoltageSimulator, BurstArrivesInEachChannelAtItsDispersionDelay) {
  ArrayVoltagePlan plan = dispersion_plan();
  plan.bursts = {{parse_burst_spec("t=0.002,DM=10,width=0.00005,amp=100"), plan.phase_centre}};
  const std::vector<float> v = simulate_all(plan, 2);
  const double top_mhz = plan.channel_freq_mhz(plan.nchan - 1);
  for (int c = 0; c < plan.nchan; ++c) {
    const double expected_s = 0.002 + dispersion_delay_s(10.0, plan.channel_freq_mhz(c), top_mhz);
    EXPECT_NEAR(power_centroid_s(v, plan, c), expected_s, 5e-6) << "channel " << c;
  }
}

TEST(ArrayVoltageSimulator, PulsarPulsesArriveAtTheirDispersionDelays) {
  ArrayVoltagePlan plan = dispersion_plan();
  plan.bandwidth_mhz = -16.0;  // channel 0 at the top this time
  plan.pulsars = {{parse_pulsar_spec("P=0.004,DM=10,amp=50,duty=0.05"), plan.phase_centre}};
  const std::vector<float> v = simulate_all(plan, 2);
  const double top_mhz = plan.channel_freq_mhz(0);
  for (int c = 0; c < plan.nchan; ++c) {
    std::complex<double> folded = 0;
    for (int64_t k = 0; k < plan.nsamples; ++k)
      for (int p = 0; p < 2; ++p)
        folded += std::norm(testing::sample_at(v, plan, c, 0, k, p)) *
                  unit_phasor((k + 0.5) * plan.tsamp_s() / 0.004);
    const double expected = dispersion_delay_s(10.0, plan.channel_freq_mhz(c), top_mhz) / 0.004;
    const double error = std::remainder(std::arg(folded) / (2 * M_PI) - expected, 1.0);
    EXPECT_NEAR(error, 0.0, 0.01) << "channel " << c;
  }
}

// Cross-spectrum of two real-sampled antennas in 64-point DFT bins.
std::vector<std::complex<double>> real_cross_spectrum(const std::vector<float>& v, int64_t n) {
  constexpr int kPoints = 64;
  std::vector<std::complex<double>> cross(kPoints / 2, 0.0);
  for (int64_t start = 0; start + kPoints <= n; start += kPoints)
    for (int j = 0; j < kPoints / 2; ++j) {
      std::complex<double> x0 = 0, x1 = 0;
      for (int k = 0; k < kPoints; ++k) {
        const std::complex<double> w = std::polar(1.0, -2 * M_PI * j * k / kPoints);
        x0 += static_cast<double>(v[start + k]) * w;
        x1 += static_cast<double>(v[n + start + k]) * w;
      }
      cross[j] += x0 * std::conj(x1);
    }
  return cross;
}

void check_real_band(double bandwidth_mhz) {
  ArrayVoltagePlan plan = small_plan(layout_with_offsets({{0, 0, 0}, {12, -15, 6}}), 65536);
  plan.real_samples = true;
  plan.nchan = 1;
  plan.npol = 1;
  plan.bandwidth_mhz = bandwidth_mhz;
  const PointSourceSpec source = point_source(61.0, -29.0, 10.0);
  plan.sources = {source};
  const std::vector<float> v = simulate_all(plan);
  double variance = 0;
  for (int64_t k = 0; k < plan.nsamples; ++k) variance += double(v[k]) * v[k];
  EXPECT_NEAR(variance / plan.nsamples / 10.0, 1.0, 0.03);
  const std::vector<double> tau =
      geometric_delays_s(plan.layout, source.direction, at(plan, plan.duration_s() / 2));
  const std::vector<std::complex<double>> cross = real_cross_spectrum(v, plan.nsamples);
  const double bin_mhz = 2 * std::fabs(bandwidth_mhz) / 64;
  std::complex<double> agreement = 0;
  for (int j = 4; j <= 28; ++j) {
    // Upper sideband: IF 0 is the band's lower edge; lower sideband: its upper edge, and the
    // spectrum is conjugated.
    const double sky_mhz = bandwidth_mhz > 0 ? plan.centre_freq_mhz - 4.0 + j * bin_mhz
                                             : plan.centre_freq_mhz + 4.0 - j * bin_mhz;
    std::complex<double> expected = unit_phasor(-sky_mhz * 1e6 * (tau[0] - tau[1]));
    if (bandwidth_mhz < 0) expected = std::conj(expected);
    agreement += cross[j] / std::abs(cross[j]) * std::conj(expected);
  }
  EXPECT_GT(agreement.real() / 25, 0.99) << "bw " << bandwidth_mhz;
}

TEST(ArrayVoltageSimulator, RealSamplesCarryTheSourcePowerAndItsDelayInBothSidebands) {
  check_real_band(8.0);
  check_real_band(-8.0);
}

TEST(ArrayVoltageSimulator, RefusesPlansItCannotMake) {
  const ArrayVoltagePlan good = small_plan(layout_with_offsets({{0, 0, 0}}), 100);
  ArrayVoltagePlan bad = good;
  bad.nbits = 16;
  EXPECT_THROW({
    try { ArrayVoltageSimulator(bad, 1); } catch (const UsageError& e) {
      EXPECT_STREQ(e.what(), "--nbits 16 is not supported for voltages; supported: 8 (integers) and 32 (floats)");
      throw;
    }
  }, UsageError);
  bad = good;
  bad.layout.antennas.clear();
  EXPECT_THROW(ArrayVoltageSimulator(bad, 1), UsageError);
  bad = good;
  bad.real_samples = true;
  EXPECT_THROW(ArrayVoltageSimulator(bad, 1), UsageError);  // 8 channels
  bad = good;
  bad.pulsars = {{parse_pulsar_spec("P=0.000001,DM=1,amp=1"), bad.phase_centre}};
  EXPECT_THROW({
    try { ArrayVoltageSimulator(bad, 1); } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("shorter than two samples"), std::string::npos) << e.what();
      throw;
    }
  }, UsageError);
}

TEST(ArrayVoltageSimulator, HeaderDescribesTheData) {
  ArrayVoltagePlan plan = small_plan(layout_with_offsets({{0, 0, 0}, {5, 5, 5}}), 1000);
  plan.start = {60000, 86400.0 + 12.5};
  const VoltageHeader h = plan.header("PSRDADA");
  EXPECT_EQ(h.nant, 2);
  EXPECT_EQ(h.nchan, 8);
  EXPECT_DOUBLE_EQ(h.tsamp_s, 1e-6);
  EXPECT_EQ(h.start_mjd_day, 60001);
  EXPECT_DOUBLE_EQ(h.start_mjd_seconds, 12.5);
  EXPECT_TRUE(h.float_samples);
  for (int c = 0; c < 8; ++c) EXPECT_DOUBLE_EQ(h.channel_freq_mhz(c), plan.channel_freq_mhz(c));
  plan.real_samples = true;
  plan.nchan = 1;
  EXPECT_DOUBLE_EQ(plan.header("PSRDADA").tsamp_s, 1.0 / 16e6);
  EXPECT_FALSE(plan.header("PSRDADA").complex_samples);
}

}  // namespace
}  // namespace rapt
