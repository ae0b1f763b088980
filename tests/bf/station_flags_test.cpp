#include "bf/station_flags.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

const std::vector<std::string> kStations = {"m000", "m001", "m002", "m003"};

std::string parse_error(const std::string& text,
                        const std::vector<std::string>& stations = kStations) {
  try {
    parse_station_flags(text, "flags.txt", stations);
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

StationFlags flags_of(const std::string& text) {
  return parse_station_flags(text, "flags.txt", kStations);
}

// Indices of the flagged samples.
std::vector<int64_t> flagged_samples(const BlockFlags& block) {
  std::vector<int64_t> out;
  for (size_t k = 0; k < block.sample_flags.size(); ++k) {
    if (block.sample_flags[k]) out.push_back(static_cast<int64_t>(k));
  }
  return out;
}

// block_flags by the definition, sample by sample, interval by interval.
BlockFlags reference_block_flags(const StationFlags& flags, int nant, int64_t first_sample,
                                 int64_t nsamples, double tsamp_s, double flag_thresh) {
  // A station's own intervals decide whether it is kept; '*' intervals flag samples only.
  std::vector<std::vector<uint8_t>> station_flagged(nant, std::vector<uint8_t>(nsamples, 0));
  std::vector<uint8_t> everyone_flagged(nsamples, 0);
  // Sample k is at or after time s when k >= s / tsamp, within rounding (a billionth of a
  // sample): a time written as a sample's time is that sample's.
  auto at_or_after = [&](int64_t k, double s) {
    const double x = s / tsamp_s;
    return static_cast<double>(k) >= x - (1e-9 + 1e-14 * x);
  };
  for (int64_t k = 0; k < nsamples; ++k) {
    for (const StationFlagInterval& interval : flags.intervals) {
      if (!at_or_after(first_sample + k, interval.start_s) ||
          at_or_after(first_sample + k, interval.end_s))
        continue;
      if (interval.station == -1) everyone_flagged[k] = 1;
      for (int a = 0; a < nant; ++a) {
        if (interval.station == a) station_flagged[a][k] = 1;
      }
    }
  }
  BlockFlags out;
  out.station_valid.assign(nant, 0);
  out.sample_flags.assign(nsamples, 0);
  for (int a = 0; a < nant; ++a) {
    int64_t count = 0;
    for (const uint8_t f : station_flagged[a]) count += f;
    if (nsamples > 0 && static_cast<double>(count) / nsamples > flag_thresh) continue;
    out.station_valid[a] = 1;
    ++out.nvalid;
    for (int64_t k = 0; k < nsamples; ++k) out.sample_flags[k] |= station_flagged[a][k];
  }
  if (out.nvalid == 0) {
    out.sample_flags.assign(nsamples, 1);
    return out;
  }
  for (int64_t k = 0; k < nsamples; ++k) out.sample_flags[k] |= everyone_flagged[k];
  return out;
}

TEST(StationFlagsFile, ReadsNamesIndicesStarAndEnd) {
  const StationFlags flags = flags_of(
      "# station start end\r\n"
      "m002 1.5 2.5   # RFI\r\n"
      "\r\n"
      "3\t0 1e-3\r\n"
      "*  10 end\r\n"
      "m000 0 END\n");
  ASSERT_EQ(flags.intervals.size(), 4u);
  EXPECT_EQ(flags.intervals[0].station, 2);
  EXPECT_DOUBLE_EQ(flags.intervals[0].start_s, 1.5);
  EXPECT_DOUBLE_EQ(flags.intervals[0].end_s, 2.5);
  EXPECT_EQ(flags.intervals[1].station, 3);
  EXPECT_DOUBLE_EQ(flags.intervals[1].end_s, 1e-3);
  EXPECT_EQ(flags.intervals[2].station, -1);
  EXPECT_DOUBLE_EQ(flags.intervals[2].start_s, 10.0);
  EXPECT_EQ(flags.intervals[2].end_s, std::numeric_limits<double>::infinity());
  EXPECT_EQ(flags.intervals[3].station, 0);
  EXPECT_EQ(flags.intervals[3].end_s, std::numeric_limits<double>::infinity());
}

TEST(StationFlagsFile, EmptyFileFlagsNothing) {
  EXPECT_TRUE(flags_of("").intervals.empty());
  EXPECT_TRUE(flags_of("# nothing flagged\n\n").intervals.empty());
}

TEST(StationFlagsFile, StationNameMadeOfDigitsWinsOverTheIndex) {
  const StationFlags flags = parse_station_flags("1 0 1\n0 0 1\n", "flags.txt", {"0", "1"});
  EXPECT_EQ(flags.intervals[0].station, 1);
  EXPECT_EQ(flags.intervals[1].station, 0);
  const StationFlags named = parse_station_flags("1 0 1\n", "flags.txt", {"5", "7"});
  EXPECT_EQ(named.intervals[0].station, 1);  // not a name: the index
}

TEST(StationFlagsFile, ReadsTheFileItNames) {
  testing::ScratchDir scratch;
  const std::string path = scratch.file("flags.txt");
  testing::write_whole_file(path, "m001 0 1\n");
  EXPECT_EQ(read_station_flags(path, kStations).intervals.size(), 1u);
  try {
    read_station_flags(scratch.file("none.txt"), kStations);
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(scratch.file("none.txt") + ":", 0), 0u) << e.what();
  }
}

TEST(StationFlagsFile, MalformedLineNamesFileLineAndText) {
  EXPECT_EQ(parse_error("m000 0 1\nm001 0\n"),
            "flags.txt: line 2: expected '<station> <start_s> <end_s>', got 'm001 0'");
  EXPECT_EQ(parse_error("m000 0 1 2\n"),
            "flags.txt: line 1: expected '<station> <start_s> <end_s>', got 'm000 0 1 2'");
}

TEST(StationFlagsFile, UnknownStationAndIndexOutOfRangeAreNamed) {
  EXPECT_EQ(parse_error("\nm099 0 1\n"), "flags.txt: line 2: no station 'm099' in the layout");
  EXPECT_EQ(parse_error("-1 0 1\n"), "flags.txt: line 1: no station '-1' in the layout");
  EXPECT_EQ(parse_error("4 0 1\n"), "flags.txt: line 1: station index 4 is outside 0..3");
  EXPECT_EQ(parse_error("99999999999999999999 0 1\n"),
            "flags.txt: line 1: station index 99999999999999999999 is outside 0..3");
  EXPECT_EQ(parse_error("0 0 1\n", {}),
            "flags.txt: line 1: station index 0 is outside 0..(no stations)");
}

TEST(StationFlagsFile, BadTimesAreNamed) {
  EXPECT_EQ(parse_error("m000 soon 1\n"),
            "flags.txt: line 1: start time 'soon' is not a finite number");
  EXPECT_EQ(parse_error("m000 0 inf\n"), "flags.txt: line 1: end time 'inf' is not a finite number");
  EXPECT_EQ(parse_error("m000 nan 1\n"), "flags.txt: line 1: start time 'nan' is not a finite number");
  EXPECT_EQ(parse_error("m000 -1 1\n"), "flags.txt: line 1: start time '-1' is negative");
  EXPECT_EQ(parse_error("m000 2 1\n"),
            "flags.txt: line 1: end time '1' is not after start time '2'");
  EXPECT_EQ(parse_error("m000 2 2.0\n"),
            "flags.txt: line 1: end time '2.0' is not after start time '2'");
  EXPECT_EQ(parse_error(std::string("m000 0 1\nm0\0 0 1\n", 18)),
            "flags.txt: line 2: contains a NUL byte");
}

// 1000 samples of 1 ms; m001 flagged from 0.1 s to 0.4 s: 300 samples, 30% of the block.
const double kTsamp = 1e-3;

TEST(StationFlags, StationFlaggedAboveTheThresholdIsLeftOutAndFlagsNoSample) {
  const BlockFlags block = block_flags(flags_of("m001 0.1 0.4\n"), 4, 0, 1000, kTsamp, 0.2);
  EXPECT_EQ(block.station_valid, (std::vector<uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(block.nvalid, 3);
  ASSERT_EQ(block.sample_flags.size(), 1000u);
  EXPECT_TRUE(flagged_samples(block).empty());
}

TEST(StationFlags, StationFlaggedBelowTheThresholdIsKeptAndItsSamplesFlagEveryBeam) {
  const BlockFlags block = block_flags(flags_of("m001 0.1 0.4\n"), 4, 0, 1000, kTsamp, 0.5);
  EXPECT_EQ(block.station_valid, (std::vector<uint8_t>{1, 1, 1, 1}));
  EXPECT_EQ(block.nvalid, 4);
  const std::vector<int64_t> flagged = flagged_samples(block);
  ASSERT_EQ(flagged.size(), 300u);
  EXPECT_EQ(flagged.front(), 100);
  EXPECT_EQ(flagged.back(), 399);
}

TEST(StationFlags, FractionEqualToTheThresholdKeepsTheStation) {
  // Samples 0..299 of 1000 (1/4 s is exact): 30% flagged, threshold 0.3.
  const BlockFlags block = block_flags(flags_of("m003 0 75\n"), 4, 0, 1000, 0.25, 0.3);
  EXPECT_EQ(block.nvalid, 4);
  EXPECT_EQ(flagged_samples(block).size(), 300u);
}

TEST(StationFlags, StarFlagsEveryStation) {
  const BlockFlags some = block_flags(flags_of("* 0.5 0.6\n"), 4, 0, 1000, kTsamp, 0.2);
  EXPECT_EQ(some.nvalid, 4);
  const std::vector<int64_t> flagged = flagged_samples(some);
  ASSERT_EQ(flagged.size(), 100u);
  EXPECT_EQ(flagged.front(), 500);
  EXPECT_EQ(flagged.back(), 599);

  // 40 % of the block, above the threshold: '*' flags time, not stations, so every station is
  // kept and only those samples are flagged (a burst of RFI does not blank the block).
  const BlockFlags burst = block_flags(flags_of("* 0.2 0.6\n"), 4, 0, 1000, kTsamp, 0.2);
  EXPECT_EQ(burst.nvalid, 4);
  EXPECT_EQ(burst.station_valid, (std::vector<uint8_t>{1, 1, 1, 1}));
  EXPECT_EQ(flagged_samples(burst).size(), 400u);

  // With a station's own flags above the threshold it is left out; '*' still flags its samples.
  const BlockFlags both = block_flags(flags_of("m001 0 0.5\n* 0.9 1\n"), 4, 0, 1000, kTsamp, 0.2);
  EXPECT_EQ(both.station_valid, (std::vector<uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(flagged_samples(both).size(), 100u);
}

TEST(StationFlags, EndFlagsToTheEndOfTheDataInEveryLaterBlock) {
  const StationFlags flags = flags_of("m002 2.5 end\n");
  // Block of samples 2000..2999 (2 s to 3 s): half flagged.
  const BlockFlags half = block_flags(flags, 4, 2000, 1000, kTsamp, 0.9);
  const std::vector<int64_t> flagged = flagged_samples(half);
  ASSERT_EQ(flagged.size(), 500u);
  EXPECT_EQ(flagged.front(), 500);
  EXPECT_EQ(flagged.back(), 999);
  // Much later: all of it, so the station is left out and nothing else flags.
  const BlockFlags later = block_flags(flags, 4, 1000000000, 1000, kTsamp, 0.9);
  EXPECT_EQ(later.station_valid, (std::vector<uint8_t>{1, 1, 0, 1}));
  EXPECT_TRUE(flagged_samples(later).empty());
  // Before it starts: nothing.
  const BlockFlags before = block_flags(flags, 4, 0, 1000, kTsamp, 0.0);
  EXPECT_EQ(before.nvalid, 4);
  EXPECT_TRUE(flagged_samples(before).empty());
}

TEST(StationFlags, IntervalIsStartInclusiveEndExclusiveOnSampleTimes) {
  // tsamp 0.25 s (exact): [0.5, 1.0) holds samples 2 and 3; sample 4 (1.0 s) is not flagged.
  const BlockFlags block = block_flags(flags_of("m000 0.5 1.0\n"), 4, 0, 8, 0.25, 1.0);
  EXPECT_EQ(flagged_samples(block), (std::vector<int64_t>{2, 3}));
  // The same interval seen from a block starting at sample 3.
  const BlockFlags shifted = block_flags(flags_of("m000 0.5 1.0\n"), 4, 3, 8, 0.25, 1.0);
  EXPECT_EQ(flagged_samples(shifted), (std::vector<int64_t>{0}));
  // Between two samples: [0.6, 0.7) holds none.
  const BlockFlags none = block_flags(flags_of("m000 0.6 0.7\n"), 4, 0, 8, 0.25, 1.0);
  EXPECT_TRUE(flagged_samples(none).empty());
  // tsamp 0.1 is not exact: 3 * 0.1 = 0.30000000000000004 >= 0.3, 7 * 0.1 > 0.7.
  const BlockFlags inexact = block_flags(flags_of("m000 0.3 0.7\n"), 4, 0, 10, 0.1, 1.0);
  EXPECT_EQ(flagged_samples(inexact), (std::vector<int64_t>{3, 4, 5, 6}));
}

// 64 us (TSAMP 64 in a PSRDADA header, 64 / 1e6) is stored a hair below 64e-6, so 0.0064 s
// comes out at 100.00000000000001 samples: still sample 100's time, where [0, 0.0064) ends
// and [0.0064, end) begins.
TEST(StationFlags, EdgesWrittenAsSampleTimesFallOnThoseSamples) {
  const double tsamp = 64 / 1e6;
  const BlockFlags first = block_flags(flags_of("m000 0 0.0064\n"), 4, 0, 4096, tsamp, 1.0);
  ASSERT_EQ(flagged_samples(first).size(), 100u);
  EXPECT_EQ(flagged_samples(first).back(), 99);
  const BlockFlags rest = block_flags(flags_of("m000 0.0064 end\n"), 4, 0, 4096, tsamp, 1.0);
  ASSERT_EQ(flagged_samples(rest).size(), 3996u);
  EXPECT_EQ(flagged_samples(rest).front(), 100);
  const BlockFlags late = block_flags(flags_of("m000 0.2 end\n"), 4, 0, 4096, tsamp, 1.0);
  ASSERT_EQ(flagged_samples(late).size(), 971u);
  EXPECT_EQ(flagged_samples(late).front(), 3125);
}

TEST(StationFlags, MatchesTheSampleBySampleDefinition) {
  std::mt19937 random(12345);
  std::uniform_real_distribution<double> time(0.0, 1.2);
  std::uniform_int_distribution<int> station(-1, 4);
  for (int trial = 0; trial < 200; ++trial) {
    StationFlags flags;
    const int nintervals = trial % 7;
    for (int i = 0; i < nintervals; ++i) {
      double a = time(random), b = time(random);
      if (a > b) std::swap(a, b);
      if (a == b) continue;
      flags.intervals.push_back({station(random), a, i == 3 ? INFINITY : b});
    }
    const double tsamp = trial % 2 ? 0.01 : 0.0073;
    const int64_t first = trial % 5 * 17;
    const int64_t n = 50 + trial % 3 * 40;
    const double thresh = (trial % 4) * 0.25;
    const BlockFlags got = block_flags(flags, 5, first, n, tsamp, thresh);
    const BlockFlags want = reference_block_flags(flags, 5, first, n, tsamp, thresh);
    ASSERT_EQ(got.station_valid, want.station_valid) << trial;
    ASSERT_EQ(got.sample_flags, want.sample_flags) << trial;
    ASSERT_EQ(got.nvalid, want.nvalid) << trial;
  }
}

TEST(StationFlags, EmptyBlockAndNoStations) {
  const BlockFlags empty = block_flags(flags_of("* 0 end\n"), 4, 0, 0, kTsamp, 0.5);
  EXPECT_EQ(empty.nvalid, 4);  // nothing to flag in no samples
  EXPECT_TRUE(empty.sample_flags.empty());
  const BlockFlags no_stations = block_flags(StationFlags{}, 0, 0, 10, kTsamp, 0.5);
  EXPECT_EQ(no_stations.nvalid, 0);
  EXPECT_EQ(flagged_samples(no_stations).size(), 10u);
}

TEST(StationFlags, MillionsOfSamplesAreFlaggedByRange) {
  // 2^24 samples with a thousand intervals of 1000 samples each (times exact in binary): must
  // not test each sample against each interval.
  const double tsamp = std::ldexp(1.0, -20);
  StationFlags flags;
  for (int i = 0; i < 1000; ++i) {
    flags.intervals.push_back({i % 4, i * 16384 * tsamp, (i * 16384 + 1000) * tsamp});
  }
  const BlockFlags block = block_flags(flags, 4, 0, int64_t{1} << 24, tsamp, 0.5);
  EXPECT_EQ(block.nvalid, 4);
  EXPECT_EQ(flagged_samples(block).size(), 1000u * 1000u);
}

TEST(StationFlags, RefusesArgumentsOutsideTheirRange) {
  const StationFlags flags = flags_of("m003 0 1\n");
  EXPECT_THROW(block_flags(flags, 3, 0, 10, kTsamp, 0.5), std::invalid_argument);  // station 3
  EXPECT_THROW(block_flags(flags, 4, -1, 10, kTsamp, 0.5), std::invalid_argument);
  EXPECT_THROW(block_flags(flags, 4, 0, 10, 0.0, 0.5), std::invalid_argument);
  EXPECT_THROW(block_flags(flags, 4, 0, 10, kTsamp, 1.5), std::invalid_argument);
  EXPECT_THROW(block_flags(flags, 4, 0, 10, kTsamp, NAN), std::invalid_argument);
}

}  // namespace
}  // namespace rapt
