// The simulator's option texts (key=value signal lists, sexagesimal positions) and the checks on
// a simulation plan. Error messages are interface.
#include "sim/signal_spec.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cli/errors.hpp"
#include "sim/simulation_plan.hpp"
#include "simulation_reference.hpp"

namespace {

// The message of the UsageError that `f` throws, or "" if none.
template <typename F>
std::string usage_error(F f) {
  try {
    f();
  } catch (const rapt::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SignalSpec, ParsesEveryPulsarKeyCaseInsensitively) {
  const rapt::PulsarSpec p = rapt::parse_pulsar_spec(
      "P=0.0873, dm=56,SNR=20,pdot=1e-15,duty=0.03,index=-1.6,fref=1400,phase=0.25,"
      "porb=3600,asini=1.5,t0=100");
  EXPECT_DOUBLE_EQ(p.period_s, 0.0873);
  EXPECT_DOUBLE_EQ(p.dm, 56);
  EXPECT_DOUBLE_EQ(*p.snr, 20);
  EXPECT_FALSE(p.amp);
  EXPECT_DOUBLE_EQ(*p.pdot, 1e-15);
  EXPECT_DOUBLE_EQ(p.duty, 0.03);
  EXPECT_DOUBLE_EQ(p.spectral_index, -1.6);
  EXPECT_DOUBLE_EQ(p.ref_freq_mhz, 1400);
  EXPECT_DOUBLE_EQ(p.phase, 0.25);
  EXPECT_DOUBLE_EQ(p.porb_s, 3600);
  EXPECT_DOUBLE_EQ(p.asini_lts, 1.5);
  EXPECT_DOUBLE_EQ(p.t0_s, 100);
  const rapt::PulsarSpec q = rapt::parse_pulsar_spec("P=0.5,DM=10,amp=0.3,accel=20");
  EXPECT_DOUBLE_EQ(*q.amp, 0.3);
  EXPECT_DOUBLE_EQ(q.total_pdot(), 0.5 * 20 / 299792458.0);
  EXPECT_DOUBLE_EQ(q.duty, 0.05);  // default
}

TEST(SignalSpec, ParsesBurstsAndRfi) {
  const rapt::BurstSpec b =
      rapt::parse_burst_spec("t=1.5,DM=500,width=0.002,fluence=3,scatter=0.001,index=2,fref=1000");
  EXPECT_DOUBLE_EQ(b.t_s, 1.5);
  EXPECT_DOUBLE_EQ(b.dm, 500);
  EXPECT_DOUBLE_EQ(b.width_s, 0.002);
  EXPECT_DOUBLE_EQ(*b.fluence_jyms, 3);
  EXPECT_DOUBLE_EQ(b.scatter_s, 0.001);
  EXPECT_DOUBLE_EQ(b.spectral_index, 2);
  EXPECT_DOUBLE_EQ(b.ref_freq_mhz, 1000);
  const rapt::RfiLineSpec line = rapt::parse_rfi_line_spec("freq=1400.5,amp=4,period=0.02");
  EXPECT_DOUBLE_EQ(line.freq_mhz, 1400.5);
  EXPECT_DOUBLE_EQ(line.amp, 4);
  EXPECT_DOUBLE_EQ(line.period_s, 0.02);
  const rapt::RfiImpulseSpec impulse = rapt::parse_rfi_impulse_spec("t=2,amp=10");
  EXPECT_DOUBLE_EQ(impulse.t_s, 2);
  EXPECT_DOUBLE_EQ(impulse.width_s, 0);
}

TEST(SignalSpec, NamesTheOptionAndTheProblem) {
  EXPECT_EQ(usage_error([] { rapt::parse_pulsar_spec("P=0.1,DM=5,snr=3,foo=3"); }),
            "--pulsar \"P=0.1,DM=5,snr=3,foo=3\": unknown key \"foo\"; known keys: P, DM, snr, "
            "amp, pdot, accel, duty, index, fref, phase, porb, asini, t0");
  EXPECT_EQ(usage_error([] { rapt::parse_pulsar_spec("P=0.1,DM=abc,snr=3"); }),
            "--pulsar \"P=0.1,DM=abc,snr=3\": DM=abc is not a number");
  EXPECT_EQ(usage_error([] { rapt::parse_pulsar_spec("P=0.1,DM=5,snr=3,P=0.2"); }),
            "--pulsar \"P=0.1,DM=5,snr=3,P=0.2\": P given twice");
  EXPECT_EQ(usage_error([] { rapt::parse_pulsar_spec("DM=5,snr=3"); }),
            "--pulsar \"DM=5,snr=3\": missing P=");
  EXPECT_EQ(usage_error([] { rapt::parse_pulsar_spec("P=0.1,DM=5"); }),
            "--pulsar \"P=0.1,DM=5\": missing snr= (or amp=)");
  EXPECT_EQ(usage_error([] { rapt::parse_pulsar_spec("P=0.1,DM=5,snr"); }),
            "--pulsar \"P=0.1,DM=5,snr\": \"snr\" is not key=value");
  EXPECT_EQ(usage_error([] { rapt::parse_pulsar_spec("P=0.1,DM=5,snr=5,t0=3"); }),
            "--pulsar \"P=0.1,DM=5,snr=5,t0=3\": t0= needs a binary orbit (porb= and asini=)");
  EXPECT_EQ(usage_error([] { rapt::parse_burst_spec("t=1,DM=5,width=0.001"); }),
            "--burst \"t=1,DM=5,width=0.001\": missing snr= (or amp= or fluence=)");
  EXPECT_EQ(usage_error([] { rapt::parse_rfi_line_spec("amp=3"); }),
            "--rfi-line \"amp=3\": missing freq=");
  EXPECT_EQ(usage_error([] { rapt::parse_rfi_impulse_spec("t=1,amp=inf"); }),
            "--rfi-impulse \"t=1,amp=inf\": amp=inf is not a number");
}

TEST(Sexagesimal, PacksPositionsAsSigprocDoes) {
  EXPECT_DOUBLE_EQ(rapt::parse_right_ascension("12:34:56.789", "--ra"), 123456.789);
  EXPECT_DOUBLE_EQ(rapt::parse_right_ascension("05:34", "--ra"), 53400);
  EXPECT_DOUBLE_EQ(rapt::parse_declination("-12:34:56.78", "--dec"), -123456.78);
  EXPECT_DOUBLE_EQ(rapt::parse_declination("-00:30:15.5", "--dec"), -3015.5);
  EXPECT_DOUBLE_EQ(rapt::parse_declination("+22:00:52", "--dec"), 220052);
  EXPECT_EQ(usage_error([] { rapt::parse_right_ascension("25:00:00", "--ra"); }),
            "--ra 25:00:00: out of range (hours 0-23, minutes and seconds 0-59)");
  EXPECT_EQ(usage_error([] { rapt::parse_right_ascension("-01:00:00", "--ra"); }),
            "--ra -01:00:00: expected hh:mm:ss.s");
  EXPECT_EQ(usage_error([] { rapt::parse_declination("12:3x", "--dec"); }),
            "--dec 12:3x: expected [+-]dd:mm:ss.s");
  EXPECT_EQ(usage_error([] { rapt::parse_declination("91:00:00", "--dec"); }),
            "--dec 91:00:00: out of range (|dec| <= 90 degrees, minutes and seconds 0-59)");
  EXPECT_EQ(usage_error([] { rapt::parse_declination("1.5:00:00", "--dec"); }),
            "--dec 1.5:00:00: expected [+-]dd:mm:ss.s");
}

TEST(SimulationPlan, RejectsImpossibleObservations) {
  const auto check = [](auto change) {
    rapt::SimulationPlan plan = rapt::testing::small_test_plan(100);
    change(plan);
    return usage_error([&] { plan.validate(); });
  };
  EXPECT_EQ(check([](auto&) {}), "");
  EXPECT_EQ(check([](auto& p) { p.obs.nbits = 3; }),
            "--nbits 3 is not supported; supported: 1, 2, 4, 8, 16, 32");
  EXPECT_EQ(check([](auto& p) { p.obs.nbits = 4, p.obs.nchans = 3; }),
            "--nchans 3 with --nbits 4: a spectrum must fill whole bytes (nchans * nbits a multiple of 8)");
  EXPECT_EQ(check([](auto& p) { p.obs.foff_mhz = -10; }),
            "--fch1 400 with 64 channels of 10 MHz reaches below 0 MHz");
  EXPECT_EQ(check([](auto& p) { p.obs.nsamples = 0; }),
            "the observation has no samples (--tobs shorter than --tsamp, or --nsamples < 1)");
  EXPECT_EQ(check([](auto& p) { p.noise.rms = 0; }),
            "--noise-rms must be positive (got 0); use --no-noise for data without noise");
  EXPECT_EQ(check([](auto& p) { p.pulsars.push_back(rapt::parse_pulsar_spec("P=0.001,DM=1,snr=5")); }),
            "--pulsar \"P=0.001,DM=1,snr=5\": P=0.001 is shorter than two samples (tsamp 0.001 s)");
  EXPECT_EQ(check([](auto& p) { p.pulsars.push_back(rapt::parse_pulsar_spec("P=1,DM=1,snr=5,amp=1")); }),
            "--pulsar \"P=1,DM=1,snr=5,amp=1\": give exactly one of snr= and amp=");
  EXPECT_EQ(check([](auto& p) { p.pulsars.push_back(rapt::parse_pulsar_spec("P=1,DM=1,snr=5,pdot=0,accel=3")); }),
            "--pulsar \"P=1,DM=1,snr=5,pdot=0,accel=3\": give pdot= or accel=, not both");
  EXPECT_EQ(check([](auto& p) { p.pulsars.push_back(rapt::parse_pulsar_spec("P=1,DM=1,snr=5,porb=100")); }),
            "--pulsar \"P=1,DM=1,snr=5,porb=100\": a binary orbit needs both porb= and asini= (positive)");
  EXPECT_EQ(check([](auto& p) { p.pulsars.push_back(rapt::parse_pulsar_spec("P=1,DM=1,snr=5,duty=0.7")); }),
            "--pulsar \"P=1,DM=1,snr=5,duty=0.7\": duty must be in (0, 0.5]");
  EXPECT_EQ(check([](auto& p) { p.bursts.push_back(rapt::parse_burst_spec("t=1,DM=-1,width=0.01,snr=5")); }),
            "--burst \"t=1,DM=-1,width=0.01,snr=5\": DM must be >= 0");
  EXPECT_EQ(check([](auto& p) { p.bursts.push_back(rapt::parse_burst_spec("t=1,DM=1,width=0.01,snr=5,amp=2")); }),
            "--burst \"t=1,DM=1,width=0.01,snr=5,amp=2\": give exactly one of snr=, amp= and fluence=");
  EXPECT_EQ(check([](auto& p) { p.rfi_lines.push_back(rapt::parse_rfi_line_spec("freq=1400,amp=3")); }),
            "--rfi-line \"freq=1400,amp=3\": freq=1400 MHz is outside the band (337 to 400 MHz)");
}

TEST(SimulationPlan, WarnsAboutSignalsOutsideTheData) {
  rapt::SimulationPlan plan = rapt::testing::small_test_plan(10000);  // 10 s, 337..400 MHz
  EXPECT_TRUE(plan.warnings().empty());
  plan.bursts.push_back(rapt::parse_burst_spec("t=5,DM=100,width=0.01,snr=10"));  // 1 s sweep
  plan.rfi_impulses.push_back(rapt::parse_rfi_impulse_spec("t=9.999,amp=5"));
  EXPECT_TRUE(plan.warnings().empty());
  plan.bursts.push_back(rapt::parse_burst_spec("t=11,DM=100,width=0.01,snr=10"));
  plan.bursts.push_back(rapt::parse_burst_spec("t=9.5,DM=100,width=0.01,snr=10"));
  plan.bursts.push_back(rapt::parse_burst_spec("t=-2,DM=100,width=0.01,snr=10"));
  plan.pulsars.push_back(rapt::parse_pulsar_spec("P=12,DM=1,snr=10"));
  plan.rfi_impulses.push_back(rapt::parse_rfi_impulse_spec("t=-0.5,amp=5,width=0.2"));
  const std::vector<std::string> expected{
      "--burst \"t=11,DM=100,width=0.01,snr=10\": arrives after the end of the observation (10 s)",
      "--burst \"t=9.5,DM=100,width=0.01,snr=10\": the sweep ends after the observation; "
      "channels below 367 MHz miss the pulse",  // delay 0.5 s at 366.2 MHz
      "--burst \"t=-2,DM=100,width=0.01,snr=10\": has passed before the observation starts",
      "--pulsar \"P=12,DM=1,snr=10\": the period is longer than the observation (10 s)",
      "--rfi-impulse \"t=-0.5,amp=5,width=0.2\": lies outside the observation (10 s)"};
  EXPECT_EQ(plan.warnings(), expected);
}

TEST(SimulationPlan, WarnsThatALongSourceNameIsCut) {
  rapt::SimulationPlan plan = rapt::testing::small_test_plan(1000);
  plan.obs.source_name = std::string(79, 'x');
  EXPECT_TRUE(plan.warnings().empty());
  plan.obs.source_name += "y";
  const std::vector<std::string> expected{
      "--source-name has 80 characters; the header keeps the first 79, as SIGPROC and PRESTO "
      "read them"};
  EXPECT_EQ(plan.warnings(), expected);
}
