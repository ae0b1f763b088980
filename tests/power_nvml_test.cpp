// NVML: absent here means a clear error; on a GPU machine, the energy counter and the
// integrated power readings must agree.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include "cli/errors.hpp"
#include "power/nvml_source.hpp"
#include "power/power_trace.hpp"

namespace {

TEST(NvmlSource, ReportsAMissingLibraryClearly) {
  try {
    rapt::NvmlSource source("libnvidia-ml-does-not-exist.so.1");
    FAIL();
  } catch (const rapt::DataError& e) {
    EXPECT_STREQ(e.what(),
                 "libnvidia-ml-does-not-exist.so.1: NVML not available (no NVIDIA driver?)");
  }
}

// Samples an idle GPU for 2 s: the total-energy counter's difference and the integral of the
// power readings (1 s averages on recent GPUs, stable when idle) must agree within 10 %.
TEST(NvmlSource, EnergyCounterAgreesWithIntegratedPowerOnAnIdleGpu) {
  std::unique_ptr<rapt::NvmlSource> source;
  try {
    source = std::make_unique<rapt::NvmlSource>();
  } catch (const rapt::DataError& e) {
    GTEST_SKIP() << "no NVML/GPU here: " << e.what();
  }
  if (!source->sensors()[0].has_energy_counter) {
    GTEST_SKIP() << "GPU 0 has no total-energy counter (pre-Volta)";
  }
  rapt::EnergyIntegrator counter({{"gpu0", true}});
  rapt::EnergyIntegrator integrated({{"gpu0", false}});
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i <= 40; ++i) {
    const std::vector<rapt::SensorValue> values = source->read();
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    counter.sample(t, {values[0]});
    integrated.sample(t, {values[0]});
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double counter_j = counter.summaries()[0].energy_j;
  const double integrated_j = integrated.summaries()[0].energy_j;
  ASSERT_GT(integrated_j, 0.0);
  EXPECT_NEAR(counter_j, integrated_j, 0.10 * integrated_j)
      << "counter " << counter_j << " J, integrated " << integrated_j << " J over "
      << counter.duration_s() << " s on " << source->device();
}

}  // namespace
