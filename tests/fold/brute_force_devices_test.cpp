// fold --brute-force over several devices: the DM trials split into contiguous runs, one per
// listed GPU, give the same S/N map, bit for bit, as one GPU; fold outside --brute-force
// refuses a device list. The GPU comparisons are skipped without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "fold/brute_force_run.hpp"
#include "fold/fold_options.hpp"
#include "gpu_device.hpp"

namespace rapt {
namespace {

constexpr double kTsamp = 64e-6;
constexpr int64_t kSamples = 20000;

std::vector<float> noisy_series(int ndm, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> x(size_t(ndm) * size_t(kSamples));
  for (float& v : x) v = 50.0f + 2.0f * normal(rng);
  // A pulse train in the last DM row, so the map is not only noise.
  float* last = x.data() + size_t(ndm - 1) * size_t(kSamples);
  for (int64_t n = 0; n < kSamples; ++n)
    if (std::fmod(n * kTsamp / 0.0123, 1.0) < 0.04) last[n] += 3.0f;
  return x;
}

BruteForceFoldGrid test_grid(int nperiods) {
  BruteForceFoldGrid grid;
  grid.tsamp_s = kTsamp;
  grid.nbins = 32;
  grid.periods_s = brute_force_periods(0.004, 0.03, nperiods);
  return grid;
}

cxxopts::ParseResult parse_fold(std::vector<std::string> args,
                                std::vector<std::string>& positional) {
  cxxopts::Options options("fold", "test");
  add_fold_options(options);
  options.parse_positional({"files"});
  args.insert(args.begin(), "fold");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  cxxopts::ParseResult result = options.parse(int(argv.size()), argv.data());
  if (result.count("files")) positional = result["files"].as<std::vector<std::string>>();
  return result;
}

TEST(BruteForceDevices, FoldOutsideBruteForceRefusesADeviceList) {
  for (const char* device : {"gpu:0,1", "gpu:0,0", "gpu:all"}) {
    std::vector<std::string> positional;
    const auto result = parse_fold({"--device", device, "-p", "0.1", "x.dat"}, positional);
    try {
      read_fold_options(result, positional);
      ADD_FAILURE() << device << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("this program runs on one GPU; give gpu:N"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(BruteForceDevices, BruteForceOptionsTakeADeviceList) {
  std::vector<std::string> positional;
  const auto result = parse_fold({"--brute-force", "--device", "gpu:0,1", "--pmin", "0.01",
                                  "--pmax", "0.02", "--nperiods", "8", "a.dat", "b.dat"},
                                 positional);
  const BruteForceRunOptions options = read_brute_force_options(result, positional);
  EXPECT_EQ(options.device, "gpu:0,1");
  EXPECT_EQ(options.files.size(), 2u);
}

TEST(BruteForceDevices, CpuDeviceFoldsAsTheEngineDoes) {
  const int ndm = 5;
  const std::vector<float> x = noisy_series(ndm, 3);
  const BruteForceFoldGrid grid = test_grid(40);
  const auto engine = make_cpu_brute_force_engine(2)->fold(x.data(), ndm, kSamples, grid);
  const auto split = fold_brute_force_on_devices("cpu", 2, x.data(), ndm, kSamples, grid);
  EXPECT_EQ(split.ndm, ndm);
  EXPECT_EQ(split.nperiods, 40);
  EXPECT_EQ(split.snr, engine.snr);
}

TEST(BruteForceDevices, AMalformedDeviceListIsAUsageError) {
  const std::vector<float> x = noisy_series(2, 4);
  const BruteForceFoldGrid grid = test_grid(4);
  for (const char* device : {"gpu:0,", "gpu:,1", "gpu:0,x", "cpu,gpu"}) {
    EXPECT_THROW(fold_brute_force_on_devices(device, 1, x.data(), 2, kSamples, grid), UsageError)
        << device;
  }
}

// Two parts on GPU 0 against one: 7 DMs (runs of 4 and 3, neither a whole kernel group of 4
// when split), and 1 DM over two parts (the second part empty).
TEST(BruteForceDevicesGpu, TwoPartsOnOneGpuGiveTheSameMapAsOneGpu) {
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  const BruteForceFoldGrid grid = test_grid(257);
  for (const int ndm : {7, 1, 9}) {
    const std::vector<float> x = noisy_series(ndm, 10 + unsigned(ndm));
    const auto one = fold_brute_force_on_devices("gpu:0", 1, x.data(), ndm, kSamples, grid);
    for (const char* device : {"gpu:0,0", "gpu:0,0,0"}) {
      const auto split = fold_brute_force_on_devices(device, 1, x.data(), ndm, kSamples, grid);
      ASSERT_EQ(split.ndm, one.ndm);
      ASSERT_EQ(split.nperiods, one.nperiods);
      ASSERT_EQ(split.snr.size(), one.snr.size());
      EXPECT_EQ(std::memcmp(split.snr.data(), one.snr.data(), one.snr.size() * sizeof(float)), 0)
          << device << ", " << ndm << " DMs";
    }
  }
}

TEST(BruteForceDevicesGpu, AllGpusGiveTheSameMapAsOneGpu) {
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  const int ndm = 6;
  const std::vector<float> x = noisy_series(ndm, 21);
  const BruteForceFoldGrid grid = test_grid(100);
  const auto one = fold_brute_force_on_devices("gpu:0", 1, x.data(), ndm, kSamples, grid);
  const auto all = fold_brute_force_on_devices("gpu:all", 1, x.data(), ndm, kSamples, grid);
  EXPECT_EQ(all.snr, one.snr);
}

}  // namespace
}  // namespace rapt
