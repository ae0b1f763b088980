// The CUDA dedispersion engine on a real GPU, against the plain reference of
// dedisp_gpu_reference.hpp and against the CPU engine. Each test skips, saying why, on a machine
// without a CUDA device. Tolerance: bit-identical for integer input; 1e-6 relative for float
// input (the engines sum in the same order, so in practice identical too).
#include <gtest/gtest.h>

#include <limits>
#include <memory>

#include "cli/errors.hpp"
#include "dedisp/dedisp_engine.hpp"
#include "dedisp_gpu_reference.hpp"
#include "gpu_device.hpp"
#include "test_data.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/dedisp/dedisp_autotune.hpp"
#include "../../gpu/dedisp/dedisp_gpu_options.hpp"
#include "../../gpu/dedisp/dedisp_tune_cache.hpp"
#include "dedisp/dedisp_gpu_factory.hpp"
#endif

#define RAPT_REQUIRE_GPU() \
  if (rapt::gpu_device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine"

namespace {

#ifdef RAPT_WITH_CUDA
using rapt::DedispPlan;
using rapt::testing::count_differences;
using rapt::testing::random_spectra;
using rapt::testing::reference_dedisp;
using rapt::testing::small_plan;
using rapt::testing::SyntheticBlock;

constexpr float kPoison = std::numeric_limits<float>::quiet_NaN();

double tolerance(int nbits) { return nbits == 32 ? 1e-6 : 0.0; }

// Runs `engine` on `in` and returns its output, `nout` samples per DM, rows nout + 5 apart.
std::vector<float> run(rapt::DedispEngine& engine, const SyntheticBlock& in, size_t nout) {
  std::vector<float> out(engine.plan().dms.size() * (nout + 5), kPoison);
  engine.execute(in.block(), out.data(), nout + 5);
  return out;
}

// The engine's output for a random block against the reference; returns the differences.
size_t differences_from_reference(rapt::DedispEngine& engine, int nbits, size_t nout,
                                  uint32_t seed) {
  const DedispPlan& plan = engine.plan();
  const auto in = random_spectra(plan.nchans, nbits,
                                 size_t(engine.max_delay()) + nout * size_t(plan.downsamp), seed);
  std::string first;
  const size_t bad = count_differences(run(engine, in, nout), nout + 5, reference_dedisp(plan, in),
                                       nout, tolerance(nbits), &first);
  if (bad)
    ADD_FAILURE() << engine.name() << ", " << nbits << "-bit: " << bad
                  << " outputs differ; first: " << first;
  return bad;
}

using namespace rapt::gpu;

TEST(DedispGpuEngine, ReportsABadDeviceIndex) {
  RAPT_REQUIRE_GPU();
  try {
    rapt::make_gpu_dedisp_engine(small_plan(16, 4, 1.0), 999);
    FAIL() << "no error";
  } catch (const rapt::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu:999: no such device"), std::string::npos) << e.what();
  }
}

GpuDedispOptions untuned() {
  GpuDedispOptions o;
  o.tuning = TuneMode::off;
  return o;
}

TEST(DedispGpuEngine, MatchesTheReferenceForEveryInputWidth) {
  RAPT_REQUIRE_GPU();
  DedispPlan plan = small_plan(64, 40, 1.7);
  for (int nbits : {1, 2, 4, 8, 32}) {
    auto engine = make_gpu_dedisp_engine(plan, 0, untuned());
    differences_from_reference(*engine, nbits, 3000, 100 + nbits);
    GpuDedispOptions direct = untuned();
    direct.force_direct = true;
    auto reference = make_gpu_dedisp_engine(plan, 0, direct);
    differences_from_reference(*reference, nbits, 1000, 200 + nbits);
  }
}

TEST(DedispGpuEngine, MatchesTheCpuEngineWithZappingAndDownsampling) {
  RAPT_REQUIRE_GPU();
  DedispPlan plan = small_plan(96, 33, 2.5, 4);
  plan.zapped.assign(96, false);
  for (int c : {0, 1, 17, 50, 95}) plan.zapped[size_t(c)] = true;
  plan.dms[3] = 80.0;  // out of order
  auto gpu = make_gpu_dedisp_engine(plan, 0, untuned());
  auto cpu = rapt::make_cpu_dedisp_engine(plan, 2);
  for (int nbits : {8, 32}) {
    SCOPED_TRACE(nbits);
    const size_t nout = 777;
    const auto in = random_spectra(96, nbits, size_t(gpu->max_delay()) + nout * 4, 7);
    std::vector<float> want(plan.dms.size() * nout);
    cpu->execute(in.block(), want.data(), nout);
    std::string first;
    EXPECT_EQ(
        count_differences(run(*gpu, in, nout), nout + 5, want, nout, tolerance(nbits), &first), 0u)
        << first;
  }
}

TEST(DedispGpuEngine, EveryCandidateTileMatchesTheReference) {
  RAPT_REQUIRE_GPU();
  const DedispPlan plan = small_plan(72, 45, 1.3);  // 72 channels: a partial last stage of 8
  for (int nbits : {8, 32}) {
    for (const DedispTileConfig& c : tile_config_candidates(sample_kind_for_nbits(nbits))) {
      SCOPED_TRACE(c.text());
      GpuDedispOptions o;
      o.forced_config = c;
      auto engine = make_gpu_dedisp_engine(plan, 0, o);
      if (differences_from_reference(*engine, nbits, 2500, 300)) return;
    }
  }
}

TEST(DedispGpuEngine, ChunksThatFitASmallBudgetGiveTheSameResult) {
  RAPT_REQUIRE_GPU();
  const DedispPlan plan = small_plan(128, 150, 0.9, 2);
  GpuDedispOptions small = untuned();
  small.device_memory_bytes = size_t(8) << 20;  // forces many time and DM chunks
  small.pinned_memory_bytes = size_t(8) << 20;
  auto engine = make_gpu_dedisp_engine(plan, 0, small);
  differences_from_reference(*engine, 8, 40000, 400);
  differences_from_reference(*engine, 32, 20000, 401);
}

TEST(DedispGpuEngine, LaterGulpsReuseTheBuffersCorrectly) {
  RAPT_REQUIRE_GPU();
  const DedispPlan plan = small_plan(64, 20, 3.0);
  auto engine = make_gpu_dedisp_engine(plan, 0, untuned());
  differences_from_reference(*engine, 8, 5000, 500);
  differences_from_reference(*engine, 8, 1200, 501);  // shorter
  differences_from_reference(*engine, 8, 9000, 502);  // longer: buffers grow
  differences_from_reference(*engine, 32, 900, 503);  // the other sample width
}

TEST(DedispGpuEngine, SeveralEnginesInOneProcessTakeTurns) {
  RAPT_REQUIRE_GPU();
  std::vector<std::unique_ptr<rapt::DedispEngine>> engines;
  for (int i = 0; i < 4; ++i)
    engines.push_back(make_gpu_dedisp_engine(small_plan(32 + 16 * i, 10 + i, 1.5, 1 + i % 2), 0,
                                             untuned()));
  for (int round = 0; round < 2; ++round)
    for (size_t i = 0; i < engines.size(); ++i)
      differences_from_reference(*engines[i], round ? 32 : 8, 600, uint32_t(800 + 10 * i + round));
}

TEST(DedispGpuEngine, ABudgetTooSmallForAnyChunkIsADataErrorSayingSo) {
  RAPT_REQUIRE_GPU();
  GpuDedispOptions tiny = untuned();
  tiny.device_memory_bytes = 4096;
  const DedispPlan plan = small_plan(64, 8, 1.0);
  auto engine = make_gpu_dedisp_engine(plan, 0, tiny);
  const auto in = random_spectra(64, 8, size_t(engine->max_delay()) + 1000, 900);
  std::vector<float> out(8 * 1000);
  try {
    engine->execute(in.block(), out.data(), 1000);
    FAIL() << "no error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("not enough memory for GPU dedispersion", 0), 0u)
        << e.what();
  }
}

TEST(DedispGpuEngine, ThousandsOfDmsOverALongBlockMatchTheDirectKernel) {
  RAPT_REQUIRE_GPU();
  DedispPlan plan = small_plan(1024, 2048, 0.25);
  plan.fch1_mhz = 1720.0, plan.foff_mhz = -300.0 / 1024, plan.tsamp_s = 50e-6;
  GpuDedispOptions tiled = untuned();
  tiled.device_memory_bytes = size_t(256) << 20;
  GpuDedispOptions direct = tiled;
  direct.force_direct = true;
  auto fast = make_gpu_dedisp_engine(plan, 0, tiled);
  auto slow = make_gpu_dedisp_engine(plan, 0, direct);
  const size_t nout = 100000;  // 5 s at 20 kHz, in several time and DM chunks
  const auto in = random_spectra(1024, 8, size_t(fast->max_delay()) + nout, 600);
  const auto a = run(*fast, in, nout), b = run(*slow, in, nout);
  std::vector<float> dense(plan.dms.size() * nout);
  for (size_t d = 0; d < plan.dms.size(); ++d)
    std::copy_n(b.begin() + d * (nout + 5), nout, dense.begin() + d * nout);
  std::string first;
  EXPECT_EQ(count_differences(a, nout + 5, dense, nout, 0.0, &first), 0u) << first;
}

TEST(DedispGpuAutotune, ChecksEveryCandidateAndCachesTheFastest) {
  RAPT_REQUIRE_GPU();
  rapt::testing::ScratchDir dir;
  const DedispPlan plan = small_plan(256, 64, 0.5);
  auto delays = std::make_shared<const DedispDelays>(make_dedisp_delays(plan));
  GpuDedispOptions o;
  o.tuning = TuneMode::retune;
  o.tune_cache_path = dir.file("tune.txt");
  const KernelChoice tuned = choose_dedisp_kernel(delays, plan, 8, 0, o);
  EXPECT_EQ(tuned.source, "tuned");
  ASSERT_TRUE(tuned.config.has_value());
  EXPECT_FALSE(tuned.candidates.empty());
  for (const TunedCandidate& c : tuned.candidates)
    EXPECT_TRUE(c.valid) << c.config.text() << ": " << c.mismatches << " mismatches " << c.failure;
  o.tuning = TuneMode::cached;
  const KernelChoice cached = choose_dedisp_kernel(delays, plan, 8, 0, o);
  EXPECT_EQ(cached.source, "cache");
  EXPECT_EQ(*cached.config, *tuned.config);
}

TEST(DedispGpuAutotune, RefusesAForcedConfigurationForTheOtherSampleWidth) {
  RAPT_REQUIRE_GPU();
  const DedispPlan plan = small_plan(32, 8, 1.0);
  auto delays = std::make_shared<const DedispDelays>(make_dedisp_delays(plan));
  GpuDedispOptions o;
  o.forced_config = DedispTileConfig{8, 4, 2, 4, 8};  // 8 float steps: not an 8-bit tile
  try {
    choose_dedisp_kernel(delays, plan, 8, 0, o);
    FAIL() << "no error";
  } catch (const rapt::UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "dedispersion tile configuration \"steps=8 dms=4 warps=2x4 "
              "stage=8\" is not compiled for 8-bit input");
  }
}

TEST(DedispGpuAutotune, WidelySpacedDmsFallBackToTheDirectKernel) {
  RAPT_REQUIRE_GPU();
  DedispPlan plan = small_plan(256, 16, 0.0);
  plan.fch1_mhz = 1720.0, plan.foff_mhz = -300.0 / 256, plan.tsamp_s = 50e-6;
  for (size_t i = 0; i < plan.dms.size(); ++i) plan.dms[i] = 1000.0 * double(i);
  auto delays = std::make_shared<const DedispDelays>(make_dedisp_delays(plan));
  const KernelChoice choice = choose_dedisp_kernel(delays, plan, 32, 0, untuned());
  EXPECT_FALSE(choice.config.has_value()) << choice.config->text();
  auto engine = make_gpu_dedisp_engine(plan, 0, untuned());
  differences_from_reference(*engine, 32, 300, 700);
}
#else

TEST(DedispGpuEngine, NeedsACudaBuild) {
  GTEST_SKIP() << "built without CUDA (RAPT_WITH_CUDA unset): no GPU engine";
}

#endif

}  // namespace
