// The fold search on the GPU against the CPU search (skipped without a GPU): the same best
// trial and the same reduced chi^2, on PRESTO's raw-data fold (DM x P x P') and its series fold.
#include <gtest/gtest.h>

#include "fold/fold_gpu_factory.hpp"
#include "fold/fold_search.hpp"
#include "gpu_device.hpp"
#include "io/pfd.hpp"
#include "test_data.hpp"

namespace {

void expect_same_search(const std::string& path, int npfact) {
  rapt::Pfd cpu_pfd = rapt::read_pfd(path);
  rapt::Pfd gpu_pfd = cpu_pfd;
  rapt::FoldSearchOptions options;
  options.npfact = npfact;
  options.threads = 2;
  const rapt::FoldSearchResult cpu = rapt::search_fold(cpu_pfd, options);
  options.gpu = 0;
  const rapt::FoldSearchResult gpu = rapt::search_fold(gpu_pfd, options);
  EXPECT_EQ(cpu.trials, gpu.trials);
  EXPECT_EQ(cpu.dm_index, gpu.dm_index);
  EXPECT_EQ(cpu.p_index, gpu.p_index);
  EXPECT_EQ(cpu.pd_index, gpu.pd_index);
  EXPECT_DOUBLE_EQ(cpu.stats.redchi, gpu.stats.redchi);
}

TEST(FoldSearchGpu, FindsTheCpuSearchsBestTrialOnPrestosRawFold) {
  if (!rapt::kGpuFoldEngineBuilt || rapt::gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  RAPT_REQUIRE_SHARED_FILE(pfd, "presto-golden/rawfold_ns_87.30ms_Cand.pfd");
  expect_same_search(pfd, 2);
}

TEST(FoldSearchGpu, FindsTheCpuSearchsBestTrialOnPrestosSeriesFold) {
  if (!rapt::kGpuFoldEngineBuilt || rapt::gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  RAPT_REQUIRE_SHARED_FILE(pfd, "presto-golden/test_DM56.00_ACCEL_Cand_2.pfd");
  expect_same_search(pfd, 3);
}

}  // namespace
