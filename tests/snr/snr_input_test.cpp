// The series snr reads and the errors for bad input: one clear line each.
#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "cli/errors.hpp"
#include "io/presto_series.hpp"
#include "snr/series_input.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

InfFile inf_for(const std::string& name, int64_t n, double dt_s, double dm) {
  InfFile inf;
  inf.name = name;
  inf.n = n;
  inf.dt_s = dt_s;
  inf.dm = dm;
  return inf;
}

void write_series(const testing::ScratchDir& dir, const std::string& root, int64_t n,
                  double dt_s, double dm) {
  write_dat(dir.file(root + ".dat"), std::vector<float>(size_t(n), 1.0f), true);
  write_inf(dir.file(root + ".inf"), inf_for(root, n, dt_s, dm), true);
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SnrSeriesInput, ReadsADatWithItsInf) {
  testing::ScratchDir dir;
  write_series(dir, "x_DM12.50", 5000, 1e-3, 12.5);
  SeriesInput s = describe_series(dir.file("x_DM12.50.dat"));
  EXPECT_EQ(s.root, dir.file("x_DM12.50"));
  EXPECT_DOUBLE_EQ(s.dm, 12.5);
  EXPECT_EQ(s.usable_samples, 5000);
  EXPECT_TRUE(load_series_samples(s).empty());
  EXPECT_EQ(s.samples.size(), 5000u);
}

TEST(SnrSeriesInput, ReplacesADatsNaNsByTheSeriesMeanAndSaysSo) {
  // A NaN would give every boxcar over it an S/N of NaN or infinity: each NaN or infinity of a
  // .dat takes the series' level (here constant), with one warning.
  testing::ScratchDir dir;
  std::vector<float> values(5000, 3.0f);
  values[0] = std::numeric_limits<float>::quiet_NaN();
  values[2500] = -std::numeric_limits<float>::infinity();
  write_dat(dir.file("n_DM1.00.dat"), values, true);
  write_inf(dir.file("n_DM1.00.inf"), inf_for("n_DM1.00", 5000, 1e-3, 1.0), true);
  SeriesInput s = describe_series(dir.file("n_DM1.00.dat"));
  EXPECT_EQ(load_series_samples(s),
            std::vector<std::string>{dir.file("n_DM1.00.dat") +
                                     ": 2 samples are NaN or infinite (the first at sample 0); "
                                     "each was replaced by the series' mean"});
  EXPECT_EQ(s.samples, std::vector<float>(5000, 3.0f));
}

TEST(SnrSeriesInput, LeavesOutPaddingAfterTheLastOnOffPair) {
  InfFile inf = inf_for("p", 262144, 256e-6, 56);
  inf.onoff = {{0, 256799}, {262143, 262143}};
  SeriesInput s;
  s.total_samples = 262144;
  apply_onoff(inf, s);
  EXPECT_EQ(s.usable_samples, 256800);
  ASSERT_EQ(s.off_regions.size(), 1u);
  EXPECT_EQ(s.off_regions[0], BinRange(256799, 262143));
}

TEST(SnrSeriesInput, NamesAMissingInf) {
  testing::ScratchDir dir;
  write_dat(dir.file("lonely.dat"), std::vector<float>(100, 0.0f), true);
  EXPECT_EQ(error_of([&] { describe_series(dir.file("lonely.dat")); }),
            dir.file("lonely.dat") + ": no .inf beside it (" + dir.file("lonely.inf") + ")");
}

TEST(SnrSeriesInput, NamesAnEmptyFile) {
  testing::ScratchDir dir;
  write_dat(dir.file("empty.dat"), {}, true);
  write_inf(dir.file("empty.inf"), inf_for("empty", 0, 1e-3, 0), true);
  EXPECT_EQ(error_of([&] { describe_series(dir.file("empty.dat")); }),
            dir.file("empty.dat") + ": is empty (no samples)");
}

TEST(SnrSeriesInput, RefusesSeriesOfDifferentLengthsOrSamplingTimes) {
  testing::ScratchDir dir;
  write_series(dir, "a", 5000, 1e-3, 1);
  write_series(dir, "b", 4000, 1e-3, 2);
  write_series(dir, "c", 5000, 2e-3, 3);
  write_series(dir, "d", 2500, 2e-3, 4);  // a DM plan's range downsampled by 2
  const SeriesInput a = describe_series(dir.file("a.dat"));
  const SeriesInput b = describe_series(dir.file("b.dat"));
  const SeriesInput c = describe_series(dir.file("c.dat"));
  const SeriesInput d = describe_series(dir.file("d.dat"));
  EXPECT_EQ(error_of([&] { check_series_agree({a, b}); }),
            dir.file("b.dat") + ": has 4000 samples but " + dir.file("a.dat") +
                " has 5000; give series of one length");
  const std::string longer_samples =
      ": sampling time 0.002 s differs from " + dir.file("a.dat") +
      "'s 0.001 s (a downsampled range of a DM plan?); give series of one sampling time";
  EXPECT_EQ(error_of([&] { check_series_agree({a, c}); }), dir.file("c.dat") + longer_samples);
  EXPECT_EQ(error_of([&] { check_series_agree({a, d}); }), dir.file("d.dat") + longer_samples);
  EXPECT_NO_THROW(check_series_agree({a, a}));
}

TEST(SnrSeriesInput, RefusesAnUnknownSuffix) {
  EXPECT_EQ(error_of([] { describe_series("obs.fil"); }),
            "obs.fil: not a time series (expected .dat with its .inf, or .tim)");
}

}  // namespace
}  // namespace rapt
