// The fused search with every series on the GPU against the host path (dedispersion into host
// memory, normalisation on the CPU, the GPU boxcar engine): the same events from a filterbank
// with dispersed pulses and blocks of interference, for each baseline and noise estimate, in
// one DM batch and in several, and for a DM plan's downsampled ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "gpu_device.hpp"
#include "io/sigproc.hpp"
#include "snr/fused_search.hpp"
#include "snr/series_normaliser.hpp"
#include "snr/single_pulse_search.hpp"
#include "snr_test_support.hpp"

namespace rapt {
namespace {

constexpr int kChans = 64;
constexpr double kTsamp = 5e-4;
constexpr size_t kSpectra = 40000;

// 8-bit noise (mean 96, sigma 12) with three dispersed pulses and two bursts of broadband
// interference (blocks the bad-block test should reject at low DMs).
std::string write_test_filterbank(const std::string& dir) {
  const SigprocHeader h = testing::test_header(kChans, kTsamp, 1500.0, -2.0);
  std::vector<float> data = testing::noise_with_pulses(
      h, kSpectra, 96.0f, 12.0f, 7, {{3.0, 60.0, 4, 30.0f}, {9.5, 150.0, 12, 30.0f},
                                     {15.0, 30.0, 2, 30.0f}});
  for (size_t t : {size_t(12000), size_t(30500)})
    for (size_t k = t; k < t + 900; ++k)
      for (int c = 0; c < kChans; ++c) data[k * kChans + size_t(c)] += 25.0f * float(k % 7);
  const std::string path = dir + "/obs.fil";
  testing::write_filterbank(path, h, data);
  return path;
}

class SnrFusedGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
    char dir[] = "/tmp/rapt_fused_gpu_XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    dir_ = dir;
    path_ = write_test_filterbank(dir_);
  }
  void TearDown() override {
    if (path_.empty()) return;
    std::remove(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  std::string dir_, path_;
};

void expect_same_events(const std::vector<std::vector<SinglePulseEvent>>& host,
                        const std::vector<std::vector<SinglePulseEvent>>& gpu, bool exact) {
  ASSERT_EQ(host.size(), gpu.size());
  size_t total = 0;
  for (size_t s = 0; s < host.size(); ++s) {
    SCOPED_TRACE("series " + std::to_string(s));
    ASSERT_EQ(host[s].size(), gpu[s].size());
    for (size_t i = 0; i < host[s].size(); ++i) {
      EXPECT_EQ(host[s][i].sample, gpu[s][i].sample);
      EXPECT_EQ(host[s][i].downfact, gpu[s][i].downfact);
      EXPECT_EQ(host[s][i].dm, gpu[s][i].dm);
      if (exact) EXPECT_EQ(host[s][i].sigma, gpu[s][i].sigma);
      else EXPECT_NEAR(host[s][i].sigma, gpu[s][i].sigma, 1e-4 * host[s][i].sigma);
    }
    total += host[s].size();
  }
  EXPECT_GT(total, 10u);  // the pulses were found
}

TEST_F(SnrFusedGpu, SameEventsAsTheHostPath) {
  FusedDedispPlan plan{path_, 0.0, 2.0, 100, "gpu:0", 0};
  const std::vector<SeriesInput> host_series = dedisperse_in_memory(plan);
  const std::vector<SeriesInput> described = describe_fused_series(plan);
  ASSERT_EQ(host_series.size(), described.size());
  for (size_t i = 0; i < described.size(); ++i) {
    EXPECT_EQ(host_series[i].path, described[i].path);
    EXPECT_EQ(host_series[i].total_samples, described[i].total_samples);
    EXPECT_EQ(host_series[i].usable_samples, described[i].usable_samples);
  }
  // The interference makes bad blocks at DM 0, so the bad-block path is compared too.
  const NormalisedSeries dm0 = normalise_series(host_series[0].samples, SnrSettings{});
  EXPECT_GE(std::count(dm0.bad_blocks.begin(), dm0.bad_blocks.end(), true), 2);
  struct Case {
    Baseline baseline;
    NoiseEstimate noise;
    bool exact;  // sums in another order may move the last bit in the other modes
  };
  for (const Case c : {Case{Baseline::kMedian, NoiseEstimate::kMad, true},
                       Case{Baseline::kLinear, NoiseEstimate::kMad, false},
                       Case{Baseline::kMedian, NoiseEstimate::kClippedRms, false}}) {
    SnrSettings settings;
    settings.baseline = c.baseline;
    settings.noise = c.noise;
    SCOPED_TRACE("baseline " + std::to_string(int(c.baseline)) + ", noise " +
                 std::to_string(int(c.noise)));
    // The same boxcar kernel on both paths: what is compared is the dedispersion and the
    // normalisation (the boxcar engines' equivalence is tested on its own).
    auto engine = make_gpu_boxcar_engine(settings.widths, float(settings.threshold), 0);
    const auto host = search_batch(host_series, settings, *engine, 2);
    for (size_t batch : {size_t(0), size_t(7)}) {
      SCOPED_TRACE("DMs per batch " + std::to_string(batch));
      plan.gpu_batch_dms = batch;
      expect_same_events(host, search_fused_on_gpu(plan, described, settings, 0), c.exact);
    }
  }
}

TEST_F(SnrFusedGpu, SharesOfSeveralGpusGiveTheOneGpuEvents) {
  FusedDedispPlan plan{path_, 0.0, 2.0, 100, "gpu:0", 0};
  const std::vector<SeriesInput> described = describe_fused_series(plan);
  const SnrSettings settings;
  const auto one = search_fused_on_gpu(plan, described, settings, 0);
  for (const std::vector<int>& gpus : {std::vector<int>{0, 0}, std::vector<int>{0, 0, 0}}) {
    SCOPED_TRACE(std::to_string(gpus.size()) + " shares");
    std::vector<FusedSearchTiming> timing;
    expect_same_events(one, search_fused_on_gpus(plan, described, settings, gpus, &timing), true);
    EXPECT_EQ(timing.size(), gpus.size());
  }
  // A --part's slice of the plan, shared again: the events of those trials.
  plan.first_trial = 30;
  plan.trial_count = 40;
  const std::vector<SeriesInput> slice = describe_fused_series(plan);
  ASSERT_EQ(slice.size(), 40u);
  EXPECT_EQ(slice.front().dm, described[30].dm);
  const std::vector<std::vector<SinglePulseEvent>> expected(one.begin() + 30, one.begin() + 70);
  const auto two = search_fused_on_gpus(plan, slice, settings, {0, 0});
  ASSERT_EQ(two.size(), expected.size());
  for (size_t s = 0; s < expected.size(); ++s) {
    ASSERT_EQ(two[s].size(), expected[s].size()) << "series " << s;
    for (size_t i = 0; i < expected[s].size(); ++i) {
      EXPECT_EQ(two[s][i].sample, expected[s][i].sample);
      EXPECT_EQ(two[s][i].sigma, expected[s][i].sigma);
    }
  }
}

// A DM plan's ranges, one sampling time a call as snr --plan searches them: the engine's sums
// of 2 and 4 spectra become dedisp's means, so the events are those of the host path's series.
TEST_F(SnrFusedGpu, DownsampledRangesGiveTheHostPathsEvents) {
  const SnrSettings settings;
  auto engine = make_gpu_boxcar_engine(settings.widths, float(settings.threshold), 0);
  for (const DmTrialGroup& range : {DmTrialGroup{{20.0, 24.0, 28.0, 58.0, 60.0, 62.0}, 2},
                                    DmTrialGroup{{100.0, 140.0, 150.0, 160.0}, 4}}) {
    SCOPED_TRACE("downsampling " + std::to_string(range.downsamp));
    FusedDedispPlan plan{path_, 0.0, 1.0, 0, "gpu:0", 0};
    plan.groups = {range};
    const std::vector<SeriesInput> host_series = dedisperse_in_memory(plan);
    const std::vector<SeriesInput> described = describe_fused_series(plan);
    ASSERT_EQ(host_series.size(), described.size());
    for (size_t i = 0; i < described.size(); ++i) {
      EXPECT_EQ(host_series[i].dt_s, kTsamp * range.downsamp);
      EXPECT_EQ(described[i].dt_s, host_series[i].dt_s);
      EXPECT_EQ(host_series[i].total_samples, described[i].total_samples);
      EXPECT_EQ(host_series[i].usable_samples, described[i].usable_samples);
    }
    const auto host = search_batch(host_series, settings, *engine, 2);
    for (size_t batch : {size_t(0), size_t(3)}) {
      SCOPED_TRACE("DMs per batch " + std::to_string(batch));
      plan.gpu_batch_dms = batch;
      expect_same_events(host, search_fused_on_gpu(plan, described, settings, 0), true);
    }
  }
}

}  // namespace
}  // namespace rapt
