// A run cut into parts (--part K/N) or shared among several GPUs (--device gpu:0,1) gives every
// DM trial exactly the series the whole run on one device gives: bit for bit, on non-integer
// samples (where a different order of the sums would show), with and without subbands.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>
#include <vector>

#include "dedisp/dedisp_pass.hpp"
#include "dedisp/dedisp_runner.hpp"
#include "dedisp_memory_io.hpp"
#include "gpu_device.hpp"

namespace rapt {
namespace {

using testing::MemorySink;
using testing::MemorySpectra;

ObservationInfo observation() { return testing::observation(64, -4.0); }

std::vector<float> gaussian_noise(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> sample(10.0f, 3.0f);
  std::vector<float> out(count);
  for (float& v : out) v = sample(rng);
  return out;
}

DmTrialGroup dm_group(double lo, double step, int n, int downsamp) {
  DmTrialGroup group{{}, downsamp};
  for (int i = 0; i < n; ++i) group.dms.push_back(lo + step * i);
  return group;
}

// Every trial's series and summary, keyed by (DM, downsampling).
using Outputs = std::map<std::pair<double, int>, std::pair<std::vector<float>, TrialSummary>>;

void run_into(const ObservationInfo& info, const std::vector<float>& data,
              const DedispRunConfig& config, Outputs& outputs) {
  MemorySpectra source(info, data);
  MemorySink sink;
  run_dedispersion(source, nullptr, config, sink);
  for (size_t i = 0; i < sink.trials.size(); ++i) {
    const auto key = std::make_pair(sink.trials[i].dm, sink.trials[i].downsamp);
    ASSERT_EQ(outputs.count(key), 0u) << "DM " << key.first << " written twice";
    outputs[key] = {sink.series[i], sink.summaries[i]};
  }
}

void expect_same(const Outputs& whole, const Outputs& parts) {
  ASSERT_EQ(parts.size(), whole.size());
  for (const auto& [key, output] : whole) {
    const auto found = parts.find(key);
    ASSERT_NE(found, parts.end()) << "DM " << key.first << " missing";
    EXPECT_EQ(found->second.first, output.first) << "DM " << key.first;
    EXPECT_EQ(found->second.second.nsamples, output.second.nsamples);
    EXPECT_EQ(found->second.second.real_samples, output.second.real_samples);
    EXPECT_EQ(found->second.second.pad_value, output.second.pad_value);
  }
}

DedispRunConfig three_groups(int nsub) {
  DedispRunConfig config;
  config.groups = {dm_group(0.0, 1.5, 23, 1), dm_group(35.0, 3.0, 9, 2), dm_group(70.0, 5.0, 4, 4)};
  config.nsub = nsub;
  config.device = "cpu";
  config.cpu_threads = 2;
  return config;
}

TEST(DedispParts, PartsTogetherGiveTheWholeRun) {
  const ObservationInfo info = observation();
  const std::vector<float> data = gaussian_noise(6000 * 64, 3);
  for (int nsub : {0, 8}) {
    const DedispRunConfig config = three_groups(nsub);
    Outputs whole;
    run_into(info, data, config, whole);
    for (int count : {2, 3, 7}) {
      Outputs parts;
      for (int k = 1; k <= count; ++k) {
        DedispRunConfig part = config;
        part.groups = part_of_trials(config, info, {k, count});
        run_into(info, data, part, parts);
      }
      SCOPED_TRACE("nsub " + std::to_string(nsub) + ", " + std::to_string(count) + " parts");
      expect_same(whole, parts);
    }
  }
}

TEST(DedispParts, DirectPartsAreBalancedRunsOfTrials) {
  const DedispRunConfig config = three_groups(0);  // 36 trials
  const std::vector<DmTrialGroup> first = part_of_trials(config, observation(), {1, 3});
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].dms.size(), 12u);
  const std::vector<DmTrialGroup> second = part_of_trials(config, observation(), {2, 3});
  ASSERT_EQ(second.size(), 2u);  // the rest of group 1, then group 2 begins
  EXPECT_EQ(second[0].dms.size(), 11u);
  EXPECT_EQ(second[0].dms.front(), 12 * 1.5);
  EXPECT_EQ(second[1].downsamp, 2);
  EXPECT_TRUE(part_of_trials(config, observation(), {40, 40}).empty());
}

TEST(DedispParts, SubbandPartsNeverSplitADmGroup) {
  const DedispRunConfig config = three_groups(8);
  DedispPlan plan;
  const ObservationInfo info = observation();
  plan.nchans = info.nchans, plan.fch1_mhz = info.fch1_mhz, plan.foff_mhz = info.foff_mhz;
  plan.tsamp_s = info.tsamp_s, plan.dms = config.groups[0].dms;
  const std::vector<std::vector<size_t>> groups = subband_dm_groups(plan, 8, 1.0);
  ASSERT_GT(groups.size(), 2u);  // the test needs several sub-DM groups in the first DM group
  for (int count : {2, 3}) {
    for (int k = 1; k <= count; ++k) {
      for (const DmTrialGroup& part : part_of_trials(config, info, {k, count})) {
        if (part.downsamp != 1) continue;
        for (const std::vector<size_t>& group : groups) {
          size_t inside = 0;
          for (size_t i : group)
            inside += std::count(part.dms.begin(), part.dms.end(), plan.dms[i]);
          EXPECT_TRUE(inside == 0 || inside == group.size())
              << "part " << k << "/" << count << " holds " << inside << " of a group of "
              << group.size();
        }
      }
    }
  }
}

TEST(DedispParts, TwoGpuPartsGiveTheOneGpuRun) {
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  const ObservationInfo info = observation();
  const std::vector<float> data = gaussian_noise(6000 * 64, 4);
  for (int nsub : {0, 8}) {
    DedispRunConfig config = three_groups(nsub);
    config.device = "gpu:0";
    Outputs one, two;
    run_into(info, data, config, one);
    config.device = "gpu:0,0";
    run_into(info, data, config, two);
    SCOPED_TRACE("nsub " + std::to_string(nsub));
    expect_same(one, two);
  }
}

}  // namespace
}  // namespace rapt
