// Simulated data written as SIGPROC filterbanks and read back: the header says what was
// simulated, and each sample width holds the rounded floats at sensible levels.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "io/sigproc.hpp"
#include "sim/observation_header.hpp"
#include "sim/signal_spec.hpp"
#include "sim/simulator.hpp"
#include "simulation_reference.hpp"
#include "test_data.hpp"

using rapt::testing::ScratchDir;

namespace {

struct RoundTrip {
  std::vector<float> simulated;  // floats from the simulator
  std::vector<float> stored;     // what the file holds, read back
  rapt::SigprocHeader header;
};

RoundTrip write_and_read(rapt::SimulationPlan plan, int nbits) {
  plan.obs.nbits = nbits;
  const rapt::NoiseLevels levels = rapt::default_noise_levels(nbits);
  plan.noise.mean = levels.mean;
  plan.noise.rms = levels.rms;
  ScratchDir dir;
  const std::string path = dir.file("sim.fil");
  RoundTrip trip;
  rapt::Simulator sim(plan, 2);
  trip.simulated.resize(plan.obs.nsamples * plan.obs.nchans);
  sim.generate_block(0, plan.obs.nsamples, trip.simulated.data());
  rapt::SigprocWriter writer(path, rapt::sigproc_header_for(plan.obs, path), false);
  writer.write(trip.simulated.data(), plan.obs.nsamples);
  writer.commit();
  rapt::SigprocReader reader(path);
  trip.header = reader.header();
  trip.stored.resize(trip.simulated.size());
  EXPECT_EQ(reader.read(trip.stored.data(), plan.obs.nsamples), size_t(plan.obs.nsamples));
  return trip;
}

}  // namespace

TEST(SimulatedFile, HeaderDescribesTheObservation) {
  rapt::SimulationPlan plan = rapt::testing::small_test_plan(100);
  plan.obs.source_name = "J1234+5678";
  plan.obs.telescope_id = 4;
  plan.obs.tstart_mjd = 59123.5;
  plan.obs.src_raj = 123456.7;
  plan.obs.src_dej = -123456.7;
  const RoundTrip trip = write_and_read(plan, 8);
  const rapt::SigprocHeader& h = trip.header;
  EXPECT_EQ(h.rawdatafile, "sim.fil");
  EXPECT_EQ(h.source_name, "J1234+5678");
  EXPECT_EQ(h.telescope_id, 4);
  EXPECT_EQ(h.data_type, 1);
  EXPECT_EQ(h.nchans, 64);
  EXPECT_EQ(h.nbits, 8);
  EXPECT_EQ(h.nifs, 1);
  EXPECT_DOUBLE_EQ(h.fch1, 400.0);
  EXPECT_DOUBLE_EQ(h.foff, -1.0);
  EXPECT_DOUBLE_EQ(h.tsamp, 1e-3);
  EXPECT_DOUBLE_EQ(h.tstart, 59123.5);
  EXPECT_DOUBLE_EQ(h.src_raj, 123456.7);
  EXPECT_DOUBLE_EQ(h.src_dej, -123456.7);
  EXPECT_FALSE(h.samples_signed());
}

TEST(SimulatedFile, EightBitSamplesAreTheRoundedFloatsWithoutClipping) {
  rapt::SimulationPlan plan = rapt::testing::small_test_plan(5000);
  plan.noise.flat_bandpass = false;
  plan.pulsars.push_back(rapt::parse_pulsar_spec("P=0.0731,DM=30,snr=50"));
  const RoundTrip trip = write_and_read(plan, 8);
  for (size_t i = 0; i < trip.simulated.size(); ++i) {
    ASSERT_GT(trip.simulated[i], 0.0f) << i;
    ASSERT_LT(trip.simulated[i], 255.0f) << i;
    ASSERT_NEAR(trip.stored[i], trip.simulated[i], 0.5f) << i;
    ASSERT_EQ(trip.stored[i], std::round(trip.stored[i])) << i;
  }
}

TEST(SimulatedFile, FewBitSamplesFillTheirLevelsLikeAGaussianDoes) {
  rapt::SimulationPlan plan = rapt::testing::small_test_plan(20000);
  const auto gaussian_between = [](double a, double b) {
    return 0.5 * (std::erfc(-b / std::sqrt(2.0)) - std::erfc(-a / std::sqrt(2.0)));
  };
  for (int nbits : {1, 2, 4}) {
    const RoundTrip trip = write_and_read(plan, nbits);
    const rapt::NoiseLevels levels = rapt::default_noise_levels(nbits);
    const int top = (1 << nbits) - 1;
    std::vector<double> fraction(top + 1, 0.0);
    for (float v : trip.stored) fraction[static_cast<int>(v)] += 1.0 / trip.stored.size();
    for (int level = 0; level <= top; ++level) {
      // Level L holds the values rounding to L; the lowest and highest also hold the clipped.
      const double low = level == 0 ? -1e9 : (level - 0.5 - levels.mean) / levels.rms;
      const double high = level == top ? 1e9 : (level + 0.5 - levels.mean) / levels.rms;
      EXPECT_NEAR(fraction[level], gaussian_between(low, high), 0.005)
          << nbits << " bits, level " << level;
    }
  }
}
