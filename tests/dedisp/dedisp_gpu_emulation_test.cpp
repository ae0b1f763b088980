// The CUDA dedispersion's host-side layout and its kernels' per-thread code, run on the CPU by
// the emulation in gpu/: these need a build with CUDA but no GPU. Tolerance: exact equality with
// the reference for every input (same channel order for float input, exact integers otherwise).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cli/errors.hpp"
#include "dedisp_gpu_reference.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/dedisp/dedisp_chunks.hpp"
#include "../../gpu/dedisp/dedisp_emulation.hpp"
#include "../../gpu/dedisp/dedisp_gpu_layout.hpp"
#include "../../gpu/dedisp/dedisp_self_check.hpp"

namespace {

using rapt::DedispPlan;
using rapt::testing::count_differences;
using rapt::testing::random_spectra;
using rapt::testing::reference_dedisp;
using rapt::testing::small_plan;
using namespace rapt::gpu;

constexpr float kPoison = std::numeric_limits<float>::quiet_NaN();

// Runs the emulated engine and returns the number of outputs that differ from the reference.
size_t emulated_differences(const DedispPlan& plan, int nbits, size_t nout,
                            const EmulationOptions& options, uint32_t seed,
                            bool saturated = false) {
  const size_t nspectra = size_t(plan.max_delay_samples()) + nout * size_t(plan.downsamp);
  const auto in = random_spectra(plan.nchans, nbits, nspectra, seed, saturated);
  const size_t stride = nout + 3;  // a stride longer than a row, as callers may pass
  std::vector<float> out(plan.dms.size() * stride, kPoison);
  emulate_gpu_dedisp(plan, in.block(), out.data(), stride, options);
  std::string first;
  const size_t bad = count_differences(out, stride, reference_dedisp(plan, in), nout, 0.0, &first);
  if (bad) ADD_FAILURE() << bad << " outputs differ; first: " << first;
  return bad;
}

EmulationOptions tiled(const DedispTileConfig& config) {
  EmulationOptions o;
  o.config = config;
  return o;
}

TEST(DedispGpuLayout, SortsDmsAndKeepsOnlyUnzappedChannels) {
  DedispPlan plan = small_plan(8, 4, 10.0);
  plan.dms = {30.0, 0.0, 20.0, 10.0};
  plan.zapped = {false, true, false, false, false, false, true, false};
  const DedispDelays d = make_dedisp_delays(plan);
  EXPECT_EQ(d.active_channels, (std::vector<int32_t>{0, 2, 3, 4, 5, 7}));
  EXPECT_EQ(d.dm_order, (std::vector<int32_t>{1, 3, 2, 0}));
  EXPECT_EQ(d.max_delay, plan.max_delay_samples());
  const std::vector<int32_t> table = plan.delay_table();
  EXPECT_EQ(d.delays[2 * 6 + 1], table[2 * 8 + 2]);  // sorted DM 2 = plan DM 2, channel 2
}

TEST(DedispGpuLayout, StageOffsetsPointAtEachDmsDelayWithinTheWindow) {
  const DedispPlan plan = small_plan(16, 10, 7.0);
  const DedispDelays d = make_dedisp_delays(plan);
  DedispTileConfig config = default_tile_config(DedispSampleKind::u8);  // 16 DMs per block
  const DedispTileTables t = make_tile_tables(d, DedispSampleKind::u8, config);
  ASSERT_EQ(t.ndm_blocks, 1);
  for (int k = 0; k < 16; ++k)
    for (int i = 0; i < t.dms_per_block; ++i) {
      const int j = std::min(i, 9);  // padding DMs repeat the last DM
      const int32_t o = d.delays[size_t(j) * 16 + k] - t.window_start[size_t(k)];
      EXPECT_EQ(t.stage_offsets[size_t(k) * t.dms_per_block + i],
                4 * ((o & 3) * t.window_capacity + (o >> 2)));
    }
  EXPECT_EQ(t.shared_bytes(), tile_shared_bytes(d, DedispSampleKind::u8, config));
}

TEST(DedispGpuLayout, SharedMemoryGrowsWithTheDelaySpreadOfABlock) {
  const DedispDelays dense = make_dedisp_delays(small_plan(64, 32, 0.5));
  const DedispDelays sparse = make_dedisp_delays(small_plan(64, 32, 50.0));
  const DedispTileConfig c = default_tile_config(DedispSampleKind::f32);
  EXPECT_LT(tile_shared_bytes(dense, DedispSampleKind::f32, c),
            tile_shared_bytes(sparse, DedispSampleKind::f32, c));
}

TEST(DedispGpuChunking, WholeBlockWhenItFits) {
  DedispGeometry g;
  g.nchans = g.nactive = 64, g.max_delay = 100, g.dm_units = 4, g.dms_per_unit = 16;
  const DedispChunking c = choose_chunking(g, 5000, size_t(1) << 30, size_t(1) << 30);
  EXPECT_EQ(c.samples, 5000u);
  EXPECT_EQ(c.dm_units, 4);
}

TEST(DedispGpuChunking, ShrinksDmsThenTimeToFitTheBudget) {
  DedispGeometry g;
  g.nchans = g.nactive = 1024, g.max_delay = 5000, g.dm_units = 128, g.dms_per_unit = 16;
  g.downsamp = 4, g.samples_per_block = 512;
  const size_t budget = size_t(64) << 20;
  const DedispChunking c = choose_chunking(g, 2000000, budget, budget);
  const DedispChunkMemory m = chunk_memory(g, c);
  EXPECT_LE(m.device_bytes, budget);
  EXPECT_LE(m.pinned_bytes, budget);
  EXPECT_EQ(c.samples % 4, 0u);  // chunk edges fall on downsampled samples
  EXPECT_GE(c.dm_units, 1);
}

TEST(DedispGpuChunking, RefusesABudgetBelowTheSmallestChunkNamingBothSizes) {
  DedispGeometry g;
  g.nchans = g.nactive = 4096, g.max_delay = 100000, g.dm_units = 1, g.dms_per_unit = 16;
  try {
    choose_chunking(g, 1000000, size_t(16) << 20, size_t(1) << 30);
    FAIL() << "no error";
  } catch (const rapt::DataError& e) {
    EXPECT_NE(std::string(e.what()).find("not enough memory for GPU dedispersion"),
              std::string::npos);
    EXPECT_NE(std::string(e.what()).find("the budget is 16 MiB"), std::string::npos) << e.what();
  }
}

TEST(DedispGpuChunking, ScheduleCoversEveryOutputAndDmOnce) {
  const DedispChunking c{1000, 3};
  const auto schedule = chunk_schedule(2500, 7, c);
  ASSERT_EQ(schedule.size(), 9u);  // 3 time chunks x 3 DM chunks
  std::vector<int> covered(2500 * 7, 0);
  for (const DedispChunk& chunk : schedule)
    for (size_t t = chunk.first_sample; t < chunk.first_sample + chunk.nsamp; ++t)
      for (int u = chunk.first_unit; u < chunk.first_unit + chunk.nunits; ++u)
        ++covered[t * 7 + size_t(u)];
  EXPECT_TRUE(std::all_of(covered.begin(), covered.end(), [](int n) { return n == 1; }));
  EXPECT_TRUE(schedule[0].new_time_chunk && !schedule[1].new_time_chunk &&
              schedule[3].new_time_chunk);
}

TEST(DedispKernelEmulation, EveryTiledCandidateMatchesTheReferenceFor8BitInput) {
  DedispPlan plan = small_plan(50, 37, 1.3);  // 50 channels: a partial last stage
  for (const DedispTileConfig& c : tile_config_candidates(DedispSampleKind::u8)) {
    SCOPED_TRACE(c.text());
    if (emulated_differences(plan, 8, 700, tiled(c), 11)) break;
  }
}

TEST(DedispKernelEmulation, EveryTiledCandidateMatchesTheReferenceForFloatInput) {
  DedispPlan plan = small_plan(50, 37, 1.3);
  for (const DedispTileConfig& c : tile_config_candidates(DedispSampleKind::f32)) {
    SCOPED_TRACE(c.text());
    if (emulated_differences(plan, 32, 700, tiled(c), 12)) break;
  }
}

TEST(DedispKernelEmulation, SubByteInputIsUnpackedLsbFirst) {
  const DedispPlan plan = small_plan(56, 20, 2.0);
  for (int nbits : {1, 2, 4}) {
    SCOPED_TRACE(nbits);
    emulated_differences(plan, nbits, 900, tiled(default_tile_config(DedispSampleKind::u8)), 13);
    emulated_differences(plan, nbits, 300, EmulationOptions{}, 14);  // direct kernel
  }
}

TEST(DedispKernelEmulation, IntegerLanesAreFlushedBeforeTheyOverflow) {
  // 600 channels of 255: each 16-bit lane would wrap after 257 channels.
  DedispPlan plan = small_plan(600, 8, 0.2);
  plan.foff_mhz = -0.5;
  DedispTileConfig c = default_tile_config(DedispSampleKind::u8);
  for (int stage : {4, 8}) {
    c.channels_per_stage = stage;
    emulated_differences(plan, 8, 300, tiled(c), 15, true);
  }
}

TEST(DedispKernelEmulation, IntegerSumsBeyond2To24AreTheExactSumRoundedOnce) {
  DedispPlan plan = small_plan(600, 4, 0.5, 256);  // sums near 128 * 600 * 256 > 2^24
  plan.foff_mhz = -0.5;
  const DedispDelays d = make_dedisp_delays(plan);
  const size_t nout = 8, nspectra = size_t(d.max_delay) + nout * 256;
  const auto in = random_spectra(600, 8, nspectra, 31);
  std::vector<float> out(4 * nout, kPoison);
  emulate_gpu_dedisp(plan, in.block(), out.data(), nout,
                     tiled(default_tile_config(DedispSampleKind::u8)));
  const std::vector<int32_t> delays = plan.delay_table();
  size_t beyond = 0;
  for (size_t dm = 0; dm < 4; ++dm)
    for (size_t k = 0; k < nout; ++k) {
      uint64_t exact = 0;
      for (size_t t = k * 256; t < (k + 1) * 256; ++t)
        for (int c = 0; c < 600; ++c)
          exact += uint64_t(in.sample(t + size_t(delays[dm * 600 + size_t(c)]), c));
      beyond += exact > (uint64_t(1) << 24);
      EXPECT_EQ(out[dm * nout + k], float(exact)) << "DM row " << dm << ", sample " << k;
    }
  EXPECT_GT(beyond, 0u);
  EXPECT_EQ(check_output_samples(plan, d, in.block(), out.data(), nout), "");
}

TEST(DedispKernelEmulation, ZappedChannelsAreLeftOut) {
  DedispPlan plan = small_plan(48, 24, 1.0);
  plan.zapped.assign(48, false);
  for (int c : {0, 5, 6, 7, 31, 47}) plan.zapped[size_t(c)] = true;
  emulated_differences(plan, 8, 600, tiled(default_tile_config(DedispSampleKind::u8)), 16);
  emulated_differences(plan, 32, 600, tiled(default_tile_config(DedispSampleKind::f32)), 17);
}

TEST(DedispKernelEmulation, AscendingFrequenciesDelayTheFirstChannelsMost) {
  DedispPlan plan = small_plan(80, 23, 2.0);
  plan.fch1_mhz = 400.0, plan.foff_mhz = 0.5, plan.tsamp_s = 1e-3;
  plan.zapped.assign(80, false);
  for (int c : {0, 1, 2, 40, 79}) plan.zapped[size_t(c)] = true;
  emulated_differences(plan, 4, 800, tiled(default_tile_config(DedispSampleKind::u8)), 32);
  emulated_differences(plan, 32, 800, tiled(default_tile_config(DedispSampleKind::f32)), 33);
}

TEST(DedispKernelEmulation, AllChannelsZappedGivesZeros) {
  DedispPlan plan = small_plan(16, 4, 1.0);
  plan.zapped.assign(16, true);
  emulated_differences(plan, 8, 100, tiled(default_tile_config(DedispSampleKind::u8)), 18);
}

TEST(DedispKernelEmulation, DownsampledOutputSumsConsecutiveSamples) {
  for (int ds : {2, 3, 8}) {
    SCOPED_TRACE(ds);
    const DedispPlan plan = small_plan(32, 12, 3.0, ds);
    emulated_differences(plan, 8, 200, tiled(default_tile_config(DedispSampleKind::u8)), 19);
    emulated_differences(plan, 32, 200, tiled(default_tile_config(DedispSampleKind::f32)), 20);
    emulated_differences(plan, 4, 100, EmulationOptions{}, 21);
  }
}

TEST(DedispKernelEmulation, UnsortedDmListKeepsThePlansOrder) {
  DedispPlan plan = small_plan(32, 10, 1.0);
  plan.dms = {50.0, 3.0, 0.0, 12.5, 3.0, 40.0, 7.0, 1.0, 33.0, 20.0};
  emulated_differences(plan, 8, 400, tiled(default_tile_config(DedispSampleKind::u8)), 22);
  emulated_differences(plan, 32, 400, tiled(default_tile_config(DedispSampleKind::f32)), 23);
}

TEST(DedispKernelEmulation, ChunksOverTimeAndDmsGiveTheWholeBlocksResult) {
  const DedispPlan plan = small_plan(40, 45, 1.1, 2);
  EmulationOptions o = tiled(default_tile_config(DedispSampleKind::u8));
  o.chunking = {320, 1};  // 16 DMs per chunk, 320 samples per time chunk
  emulated_differences(plan, 8, 1000, o, 24);
  EmulationOptions direct;
  direct.chunking = {96, 7};
  emulated_differences(plan, 32, 500, direct, 25);
}

TEST(DedispKernelEmulation, OneChannelAndOneDm) {
  const DedispPlan plan = small_plan(1, 1, 0.0);
  emulated_differences(plan, 8, 37, tiled(default_tile_config(DedispSampleKind::u8)), 26);
  emulated_differences(plan, 32, 37, tiled(default_tile_config(DedispSampleKind::f32)), 27);
}

TEST(DedispSelfCheck, AcceptsCorrectOutputAndNamesTheFirstWrongSample) {
  DedispPlan plan = small_plan(24, 6, 4.0, 2);
  plan.dms = {8.0, 0.0, 20.0, 4.0, 12.0, 16.0};
  const DedispDelays d = make_dedisp_delays(plan);
  for (int nbits : {2, 8, 32}) {
    const size_t nout = 50;
    const auto in = random_spectra(24, nbits, size_t(d.max_delay) + 2 * nout, 30);
    std::vector<float> out = reference_dedisp(plan, in);
    EXPECT_EQ(check_output_samples(plan, d, in.block(), out.data(), nout), "");
    out[2 * nout + nout - 1] += 1.0f;  // DM 20 (the highest), last sample
    EXPECT_EQ(check_output_samples(plan, d, in.block(), out.data(), nout)
                  .rfind("DM 20, sample 49: GPU ", 0),
              0u)
        << check_output_samples(plan, d, in.block(), out.data(), nout);
  }
}

}  // namespace

#else

TEST(DedispKernelEmulation, NeedsACudaBuild) {
  GTEST_SKIP() << "built without CUDA (RAPT_WITH_CUDA unset): kernel emulation not compiled";
}

#endif
