// The GPU auto-tuner's cache file and the tile configuration text stored in it. No GPU needed.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cli/errors.hpp"
#include "dedisp_gpu_reference.hpp"
#include "test_data.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/dedisp/dedisp_gpu_options.hpp"
#include "../../gpu/dedisp/dedisp_tile_config.hpp"
#include "../../gpu/dedisp/dedisp_tune_cache.hpp"

namespace {

using namespace rapt::gpu;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::small_plan;
using rapt::testing::write_whole_file;

TuneKey key(const std::string& gpu, int nchans, int ndm, int nbits) {
  return make_tune_key(gpu, small_plan(nchans, ndm, 1.0), nbits);
}

TEST(DedispTuneCache, KeyBucketsTheDmCountByPowersOfTwo) {
  EXPECT_EQ(key("G", 8, 1, 8).ndm_bucket, 1);
  EXPECT_EQ(key("G", 8, 1000, 8).ndm_bucket, 1024);
  EXPECT_EQ(key("G", 8, 1024, 8).ndm_bucket, 1024);
  EXPECT_EQ(key("G", 8, 1025, 8).ndm_bucket, 2048);
}

TEST(DedispTuneCache, FindsWhatWasStoredUnderTheSameKeyOnly) {
  ScratchDir dir;
  const std::string path = dir.file("sub/dir/tune.txt");  // the directory is created
  store_tuned_config(path, key("NVIDIA H100 80GB HBM3", 1024, 2048, 8),
                     "steps=2 dms=4 warps=2x4 stage=8");
  store_tuned_config(path, key("NVIDIA H100 80GB HBM3", 1024, 2048, 32),
                     "steps=4 dms=4 warps=2x4 stage=8");
  EXPECT_EQ(find_tuned_config(path, key("NVIDIA H100 80GB HBM3", 1024, 1500, 8)),
            std::optional<std::string>("steps=2 dms=4 warps=2x4 stage=8"));
  EXPECT_EQ(find_tuned_config(path, key("NVIDIA H100 80GB HBM3", 1024, 2048, 32)),
            std::optional<std::string>("steps=4 dms=4 warps=2x4 stage=8"));
  EXPECT_FALSE(find_tuned_config(path, key("NVIDIA H200", 1024, 2048, 8)));
  EXPECT_FALSE(find_tuned_config(path, key("NVIDIA H100 80GB HBM3", 512, 2048, 8)));
}

TEST(DedispTuneCache, ReplacingAnEntryKeepsTheOthersAndOneLinePerKey) {
  ScratchDir dir;
  const std::string path = dir.file("tune.txt");
  store_tuned_config(path, key("A", 64, 16, 8), "one");
  store_tuned_config(path, key("B", 64, 16, 8), "two");
  store_tuned_config(path, key("A", 64, 16, 8), "three");
  EXPECT_EQ(find_tuned_config(path, key("A", 64, 16, 8)), std::optional<std::string>("three"));
  EXPECT_EQ(find_tuned_config(path, key("B", 64, 16, 8)), std::optional<std::string>("two"));
  const std::string text = read_whole_file(path);
  EXPECT_EQ(text.find("one"), std::string::npos);
  EXPECT_EQ(text.find("A\t64\t16\t8\t"), text.rfind("A\t64\t16\t8\t"));
}

TEST(DedispTuneCache, MissingFilesAndMalformedLinesFindNothing) {
  ScratchDir dir;
  EXPECT_FALSE(find_tuned_config(dir.file("none.txt"), key("A", 64, 16, 8)));
  write_whole_file(dir.file("bad.txt"), "# comment\ngarbage\nA\t64\n\nA\t64\t16\t8\n");
  EXPECT_FALSE(find_tuned_config(dir.file("bad.txt"), key("A", 64, 16, 8)));
  write_whole_file(dir.file("empty.txt"), "A\t64\t16\t8\t\n");
  const auto empty = find_tuned_config(dir.file("empty.txt"), key("A", 64, 16, 8));
  ASSERT_TRUE(empty);
  EXPECT_FALSE(parse_tile_config(*empty, DedispSampleKind::u8));  // the tuner then re-tunes
}

TEST(DedispTuneCache, UnwritableLocationIsADataErrorNamingThePath) {
  ScratchDir dir;
  write_whole_file(dir.file("file"), "x");
  EXPECT_THROW(store_tuned_config(dir.file("file/tune.txt"), key("A", 8, 8, 8), "c"),
               rapt::DataError);
}

TEST(DedispTuneCache, DefaultPathFollowsXdgCacheHomeThenHome) {
  const char* old_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old_xdg ? old_xdg : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(default_tune_cache_path(), "/tmp/xdg/rapt/dedisp-tune.txt");
  unsetenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') {
    EXPECT_EQ(default_tune_cache_path(), std::string(home) + "/.cache/rapt/dedisp-tune.txt");
  }
  if (old_xdg) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
}

TEST(DedispTileConfig, TextParsesBackToTheSameConfiguration) {
  for (DedispSampleKind kind : {DedispSampleKind::u8, DedispSampleKind::f32})
    for (const DedispTileConfig& c : tile_config_candidates(kind)) {
      const auto parsed = parse_tile_config(c.text(), kind);
      ASSERT_TRUE(parsed) << c.text();
      EXPECT_EQ(*parsed, c);
    }
}

TEST(DedispTileConfig, RejectsTextThatIsNotACompiledConfiguration) {
  EXPECT_FALSE(parse_tile_config("steps=2 dms=4 warps=2x4 stage=8 extra", DedispSampleKind::u8));
  EXPECT_FALSE(parse_tile_config("steps=3 dms=4 warps=2x4 stage=8", DedispSampleKind::u8));
  EXPECT_FALSE(parse_tile_config("steps=2 dms=4 warps=8x8 stage=8", DedispSampleKind::u8));
  EXPECT_FALSE(parse_tile_config("steps=2 dms=4 warps=2x4 stage=6", DedispSampleKind::u8));
  EXPECT_FALSE(parse_tile_config("steps=8 dms=4 warps=2x4 stage=8", DedispSampleKind::u8));
  EXPECT_TRUE(parse_tile_config("steps=8 dms=4 warps=2x4 stage=8", DedispSampleKind::f32));
}

TEST(DedispTileConfig, CandidatesAreAllCompiledAndIncludeTheDefault) {
  for (DedispSampleKind kind : {DedispSampleKind::u8, DedispSampleKind::f32}) {
    const auto all = tile_config_candidates(kind);
    EXPECT_GE(all.size(), 20u);
    EXPECT_NE(std::find(all.begin(), all.end(), default_tile_config(kind)), all.end());
    for (const auto& c : all) EXPECT_TRUE(is_compiled_config(c, kind)) << c.text();
  }
}

}  // namespace

#else

TEST(DedispTuneCache, NeedsACudaBuild) {
  GTEST_SKIP() << "built without CUDA (RAPT_WITH_CUDA unset): no GPU auto-tuner";
}

#endif
