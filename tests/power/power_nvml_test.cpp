// NVML: absent here means a clear error; on a GPU machine, the energy counter and the
// integrated power readings must agree, idle and while a known kernel runs.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/errors.hpp"
#include "dedisp/dedisp_engine.hpp"
#include "gpu_device.hpp"
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
// GPU 0 through NVML, or a skip reason.
std::unique_ptr<rapt::NvmlSource> open_gpu0_with_energy_counter(std::string* skip_reason) {
  try {
    auto source = std::make_unique<rapt::NvmlSource>();
    if (source->sensors()[0].has_energy_counter) return source;
    *skip_reason = "GPU 0 has no total-energy counter (pre-Volta)";
  } catch (const rapt::DataError& e) {
    *skip_reason = std::string("no NVML/GPU here: ") + e.what();
  }
  return nullptr;
}

struct EnergyEstimates {
  double counter_j, integrated_j, seconds;
};

// Samples every 50 ms for 2 s; the energy from the counter's difference and from integrating
// the power readings.
EnergyEstimates measure_two_seconds(rapt::NvmlSource& source) {
  rapt::EnergyIntegrator counter({{"gpu0", true}});
  rapt::EnergyIntegrator integrated({{"gpu0", false}});
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i <= 40; ++i) {
    const std::vector<rapt::SensorValue> values = source.read();
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    counter.sample(t, {values[0]});
    integrated.sample(t, {values[0]});
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return {counter.summaries()[0].energy_j, integrated.summaries()[0].energy_j,
          counter.duration_s()};
}

TEST(NvmlSource, EnergyCounterAgreesWithIntegratedPowerOnAnIdleGpu) {
  std::string skip_reason;
  auto source = open_gpu0_with_energy_counter(&skip_reason);
  if (!source) GTEST_SKIP() << skip_reason;
  const EnergyEstimates e = measure_two_seconds(*source);
  ASSERT_GT(e.integrated_j, 0.0);
  EXPECT_NEAR(e.counter_j, e.integrated_j, 0.10 * e.integrated_j)
      << "counter " << e.counter_j << " J, integrated " << e.integrated_j << " J over "
      << e.seconds << " s on " << source->device();
}

// A known GPU workload (dedispersion, 1024 channels x 1024 DMs, run back to back) during the
// measurement: the counter and mean power x time must still agree within 10 %, and the GPU
// must draw more than it did idle.
TEST(NvmlSource, EnergyCounterAgreesWithMeanPowerTimesTimeDuringAKernelRun) {
  std::string skip_reason;
  auto source = open_gpu0_with_energy_counter(&skip_reason);
  if (!source) GTEST_SKIP() << skip_reason;
  if (rapt::gpu_device_count() == 0) GTEST_SKIP() << "no CUDA device in this build";
  const EnergyEstimates idle = measure_two_seconds(*source);

  rapt::DedispPlan plan;
  plan.nchans = 1024;
  plan.fch1_mhz = 1720.0;
  plan.foff_mhz = -300.0 / 1024;
  plan.tsamp_s = 50e-6;
  for (int i = 0; i < 1024; ++i) plan.dms.push_back(0.25 * i);
  auto engine = rapt::make_dedisp_engine(plan, "gpu");
  const size_t nspectra = 20000 + size_t(engine->max_delay());
  std::vector<uint8_t> input(nspectra * plan.nchans);
  for (size_t i = 0; i < input.size(); ++i) input[i] = uint8_t((i * 2654435761u) >> 24);
  std::vector<float> output(plan.dms.size() * 20000);
  std::atomic<bool> stop{false};
  std::thread load([&] {
    while (!stop) engine->execute({input.data(), 8, nspectra}, output.data(), 20000);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // power ramps up
  const EnergyEstimates busy = measure_two_seconds(*source);
  stop = true;
  load.join();

  EXPECT_NEAR(busy.counter_j, busy.integrated_j, 0.10 * busy.integrated_j)
      << "counter " << busy.counter_j << " J, mean power x time " << busy.integrated_j
      << " J over " << busy.seconds << " s";
  EXPECT_GT(busy.counter_j / busy.seconds, 1.1 * idle.counter_j / idle.seconds)
      << "busy " << busy.counter_j / busy.seconds << " W, idle "
      << idle.counter_j / idle.seconds << " W";
}

// The SM clock of the GPU CUDA calls device 0, found in NVML by its PCI bus id: a clock a GPU
// can run at and a positive power; a bus id NVML does not know gives nothing.
TEST(NvmlSource, ReadsTheClockOfTheGpuAtABusId) {
  std::unique_ptr<rapt::NvmlSource> source;
  try {
    source = std::make_unique<rapt::NvmlSource>();
  } catch (const rapt::DataError& e) {
    GTEST_SKIP() << "no NVML/GPU here: " << e.what();
  }
  EXPECT_FALSE(source->clock_reading("0000:FF:1F.7").has_value());
  const std::string bus_id = rapt::gpu_pci_bus_id(0);
  if (bus_id.empty()) GTEST_SKIP() << "no CUDA device in this build";
  const std::optional<rapt::GpuClockReading> r = source->clock_reading(bus_id);
  ASSERT_TRUE(r.has_value()) << bus_id;
  EXPECT_GT(r->sm_mhz, 100u);
  EXPECT_LT(r->sm_mhz, 5000u);
  EXPECT_GT(r->watts, 1.0);
  EXPECT_LT(r->watts, 5000.0);
}

}  // namespace
