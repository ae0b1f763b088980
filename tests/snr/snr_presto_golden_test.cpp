// single_pulse_search.py -t 6 on PRESTO's test_DM56.00.dat (shared golden data): our events
// with PRESTO's numbers (--presto: linear detrend, clipped rms) against the golden file.
// PRESTO convolves in chunks of 8000 samples and prunes within each chunk, so events right at
// chunk edges may differ; nearly all must agree in sample, width and S/N (to 0.02).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

#include "io/singlepulse.hpp"
#include "snr/single_pulse_search.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

TEST(SnrPrestoGolden, MatchesSinglePulseSearchOnTestDm56) {
  RAPT_REQUIRE_SHARED_FILE(dat, "presto-golden/test_DM56.00.dat");
  RAPT_REQUIRE_SHARED_FILE(golden_path, "presto-golden/test_DM56.00.singlepulse");
  SeriesInput series = describe_series(dat);
  EXPECT_TRUE(load_series_samples(series).empty());
  SnrSettings settings;
  settings.threshold = 6.0;
  settings.baseline = Baseline::kLinear;
  settings.noise = NoiseEstimate::kClippedRms;
  auto engine = make_cpu_boxcar_engine(settings.widths, float(settings.threshold), 2);
  const auto ours = search_batch({series}, settings, *engine, 2).at(0);
  const auto golden = read_singlepulse(golden_path);
  ASSERT_GT(golden.size(), 600u);

  std::map<std::pair<int64_t, int>, double> ours_by_key;
  for (const auto& e : ours) ours_by_key[{e.sample, e.downfact}] = e.sigma;
  size_t matched = 0;
  for (const auto& g : golden) {
    const auto it = ours_by_key.find({g.sample, g.downfact});
    if (it != ours_by_key.end() && std::fabs(it->second - g.sigma) <= 0.02) ++matched;
  }
  RecordProperty("golden_events", int(golden.size()));
  RecordProperty("our_events", int(ours.size()));
  RecordProperty("matched", int(matched));
  std::printf("test_DM56.00 -t 6: %zu golden events, %zu ours, %zu match in sample, width and "
              "S/N (0.02)\n", golden.size(), ours.size(), matched);
  EXPECT_GE(double(matched), 0.95 * double(golden.size()));
  EXPECT_LE(std::fabs(double(ours.size()) - double(golden.size())), 0.05 * double(golden.size()));
  EXPECT_EQ(ours.front().dm, 56.0);
}

TEST(SnrPrestoGolden, WritesTheGoldenFilesFormat) {
  RAPT_REQUIRE_SHARED_FILE(golden_path, "presto-golden/test_DM56.00.singlepulse");
  const std::string text = testing::read_whole_file(golden_path);
  // Our writer reproduces the golden file byte for byte from its own events.
  EXPECT_EQ(format_singlepulse(parse_singlepulse(text, golden_path)), text);
}

}  // namespace
}  // namespace rapt
