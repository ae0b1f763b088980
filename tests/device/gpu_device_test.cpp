// Device choice (--device auto|cpu|gpu|gpu:N): parsing and the errors that say why no GPU can
// be used. Runs everywhere; what "auto" and "gpu" give depends on the machine.
#include "gpu_device.hpp"

#include <gtest/gtest.h>

#include "cli/errors.hpp"

namespace {

std::string usage_error(const std::string& device) {
  try {
    rapt::choose_device(device);
  } catch (const rapt::UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ChooseDevice, CpuNeverUsesTheGpu) { EXPECT_FALSE(rapt::choose_device("cpu").use_gpu); }

TEST(ChooseDevice, AutoUsesTheGpuExactlyWhenThereIsOne) {
  const rapt::DeviceChoice choice = rapt::choose_device("auto");
  EXPECT_EQ(choice.use_gpu, rapt::gpu_device_count() > 0);
  EXPECT_EQ(choice.gpu_index, 0);
}

TEST(ChooseDevice, RejectsUnknownNamesAndMalformedIndices) {
  EXPECT_EQ(usage_error("fpga"), "--device fpga: unknown device; expected auto, cpu, gpu or gpu:N");
  EXPECT_EQ(usage_error("gpu:"), "--device gpu:: expected gpu:N with N a device number");
  EXPECT_EQ(usage_error("gpu:-1"), "--device gpu:-1: expected gpu:N with N a device number");
  EXPECT_EQ(usage_error("gpu:1x"), "--device gpu:1x: expected gpu:N with N a device number");
}

TEST(ChooseDevice, GpuWithoutADeviceSaysWhy) {
  if (rapt::gpu_device_count() > 0) {
    EXPECT_TRUE(rapt::choose_device("gpu").use_gpu);
    EXPECT_EQ(rapt::choose_device("gpu:0").gpu_index, 0);
    EXPECT_NE(usage_error("gpu:64").find("--device gpu:64: no such device; this machine has "),
              std::string::npos);
    return;
  }
#ifdef RAPT_WITH_CUDA
  EXPECT_EQ(usage_error("gpu").rfind("--device gpu: no CUDA device found (", 0), 0u)
      << usage_error("gpu");
#else
  EXPECT_EQ(usage_error("gpu"), "--device gpu: this build of rapt has no CUDA support");
  EXPECT_EQ(usage_error("gpu:1"), "--device gpu:1: this build of rapt has no CUDA support");
#endif
}

std::string set_error(const std::string& device) {
  try {
    rapt::choose_devices(device);
  } catch (const rapt::UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ChooseDevice, OneGpuProgramsRefuseLists) {
  EXPECT_EQ(usage_error("gpu:0,1"), "--device gpu:0,1: this program runs on one GPU; give gpu:N");
  EXPECT_EQ(usage_error("gpu:all"), "--device gpu:all: this program runs on one GPU; give gpu:N");
}

TEST(ChooseDevices, CpuAndSingleDevicesAsChooseDevice) {
  const rapt::DeviceSet cpu = rapt::choose_devices("cpu");
  EXPECT_FALSE(cpu.use_gpu);
  EXPECT_TRUE(cpu.gpus.empty());
  EXPECT_EQ(cpu.parts(), 1u);
  EXPECT_EQ(rapt::choose_devices("auto").use_gpu, rapt::gpu_device_count() > 0);
  EXPECT_EQ(set_error("fpga"), "--device fpga: unknown device; expected auto, cpu, gpu or gpu:N");
}

TEST(ChooseDevices, ListsAndAll) {
  EXPECT_EQ(set_error("gpu:0,"), "--device gpu:0,: expected gpu:N,M,... with device numbers");
  EXPECT_EQ(set_error("gpu:0,x"), "--device gpu:0,x: expected gpu:N with N a device number");
  const int count = rapt::gpu_device_count();
  if (count == 0) {
    EXPECT_NE(set_error("gpu:0,0"), "");
    EXPECT_NE(set_error("gpu:all"), "");
    return;
  }
  const rapt::DeviceSet twice = rapt::choose_devices("gpu:0,0");
  EXPECT_TRUE(twice.use_gpu);
  EXPECT_EQ(twice.gpus, (std::vector<int>{0, 0}));
  EXPECT_EQ(twice.parts(), 2u);
  const rapt::DeviceSet all = rapt::choose_devices("gpu:all");
  ASSERT_EQ(int(all.gpus.size()), count);
  for (int i = 0; i < count; ++i) EXPECT_EQ(all.gpus[i], i);
  EXPECT_NE(set_error("gpu:0," + std::to_string(count)).find("no such device"), std::string::npos);
}

TEST(GpuDeviceDescription, NamesNoneForAMissingDevice) {
  EXPECT_EQ(rapt::gpu_device_description(-1), "none");
  EXPECT_EQ(rapt::gpu_device_description(rapt::gpu_device_count()), "none");
  if (rapt::gpu_device_count() > 0) {
    EXPECT_NE(rapt::gpu_device_description(0).find(" SMs, "), std::string::npos);
  }
}

}  // namespace
