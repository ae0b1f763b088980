// Simulated array voltages through the PSRDADA and GUPPI RAW writers and back through
// open_voltage_file: the canonical order, the header and the 8-bit rounding survive the trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "array_sim_test_support.hpp"
#include "io/voltage_stream.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

// Writes the plan's voltages in blocks of `block` samples; returns the floats written.
std::vector<float> write_voltages(const ArrayVoltagePlan& plan, const std::string& format,
                                  const std::string& path, int64_t block) {
  ArrayVoltageSimulator sim(plan, 2);
  const VoltageHeader h = plan.header(format == "guppi" ? "GUPPI RAW" : "PSRDADA");
  auto writer = format == "guppi" ? make_guppi_writer(path, h, false) : make_psrdada_writer(path, h, false);
  std::vector<float> all = testing::simulate_all(plan);
  for (int64_t first = 0; first < plan.nsamples; first += block) {
    VoltageBlock b;
    b.first_sample = first;
    b.nsamples = std::min(block, plan.nsamples - first);
    b.data.resize(h.block_values(b.nsamples));
    sim.generate_block(first, b.nsamples, b.data.data());
    writer->write(b);
  }
  writer->commit();
  return all;
}

void expect_read_back(const std::string& path, const ArrayVoltagePlan& plan,
                      const std::vector<float>& written) {
  auto reader = open_voltage_file(path);
  const VoltageHeader& h = reader->header();
  EXPECT_EQ(h.nant, plan.layout.size());
  EXPECT_EQ(h.nchan, plan.nchan_out());
  EXPECT_EQ(h.npol, plan.npol);
  EXPECT_EQ(h.complex_samples, !plan.real_samples);
  EXPECT_NEAR(h.tsamp_s, plan.tsamp_s(), 1e-15);
  EXPECT_NEAR(h.centre_freq_mhz, plan.centre_freq_mhz, 1e-9);
  VoltageBlock block;
  ASSERT_EQ(reader->read(plan.nsamples, block), plan.nsamples);
  ASSERT_EQ(block.data.size(), written.size());
  int64_t mismatches = 0;
  for (size_t i = 0; i < written.size(); ++i) {
    const float expected = std::clamp(std::nearbyint(written[i]), -128.0f, 127.0f);
    mismatches += std::fabs(block.data[i] - expected) > 0.0f;
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(ArrayVoltageFile, PsrdadaKeepsEveryValueInCanonicalOrder) {
  ArrayVoltagePlan plan =
      testing::small_plan(testing::layout_with_offsets({{0, 0, 0}, {40, 30, 0}, {-200, 100, 50}}), 700);
  plan.nchan = 4;
  plan.bandwidth_mhz = 4.0;
  plan.nbits = 8;
  plan.noise = true;
  plan.gain = gain_for_noise_rms(plan, 10.0);
  plan.sources = {testing::point_source(60.1, -30.0, 60.0)};
  testing::ScratchDir dir;
  const std::string path = dir.file("sim.dada");
  const std::vector<float> written = write_voltages(plan, "psrdada", path, 300);
  expect_read_back(path, plan, written);
  const VoltageHeader h = open_voltage_file(path)->header();
  ASSERT_EQ(h.array.size(), 3);
  EXPECT_EQ(h.array.antennas[2].name, "a2");
  EXPECT_NEAR(h.array.antennas[2].itrf_m[0], plan.layout.antennas[2].itrf_m[0], 1e-3);
  EXPECT_NEAR(h.start_mjd(), plan.start.mjd(), 1e-9);
}

TEST(ArrayVoltageFile, RealSamplesSurvivePsrdada) {
  ArrayVoltagePlan plan = testing::small_plan(testing::layout_with_offsets({{0, 0, 0}, {40, 30, 0}}), 1000);
  plan.real_samples = true;
  plan.nchan = 1;
  plan.npol = 1;
  plan.nbits = 8;
  plan.noise = true;
  plan.gain = gain_for_noise_rms(plan, 20.0);
  testing::ScratchDir dir;
  const std::string path = dir.file("real.dada");
  expect_read_back(path, plan, write_voltages(plan, "psrdada", path, 256));
}

TEST(ArrayVoltageFile, GuppiRawHoldsOneAntenna) {
  ArrayVoltagePlan plan = testing::small_plan(testing::layout_with_offsets({{0, 0, 0}}), 512);
  plan.nbits = 8;
  plan.noise = true;
  plan.gain = gain_for_noise_rms(plan, 12.0);
  testing::ScratchDir dir;
  const std::string path = dir.file("one.raw");
  expect_read_back(path, plan, write_voltages(plan, "guppi", path, 512));
}

}  // namespace
}  // namespace rapt
