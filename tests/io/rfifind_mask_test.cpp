#include "io/rfifind_mask.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "cli/errors.hpp"
#include "io/presto_inf.hpp"
#include "test_data.hpp"

using rapt::RfifindMask;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::write_whole_file;

namespace {

std::string parse_error(const std::string& bytes) {
  try {
    rapt::parse_rfifind_mask(bytes, "x.mask");
  } catch (const rapt::DataError& e) {
    return e.what();
  }
  return "(no error)";
}

// 8 channels, 4 intervals: channel 1 zapped everywhere, interval 2 zapped entirely, interval 0
// lists channels 3 and 5, interval 3 is fully masked (stored as a count only).
RfifindMask small_mask() {
  RfifindMask mask;
  mask.time_sigma = 10;
  mask.freq_sigma = 4;
  mask.mjd = 59000.5;
  mask.dtint_s = 2.0;
  mask.lofreq_mhz = 1200;
  mask.dfreq_mhz = 1;
  mask.num_chan = 8;
  mask.num_int = 4;
  mask.pts_per_int = 1000;
  mask.zap_chans = {1};
  mask.zap_ints = {2};
  mask.interval_chans = {{3, 5}, {}, {}, {}};
  mask.interval_all_masked = {0, 0, 0, 1};
  return mask;
}

int32_t int_at(const std::string& bytes, size_t offset) {
  int32_t value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

}  // namespace

TEST(RfifindMaskFile, GoldenFileWritesBackByteForByte) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_rfifind.mask");
  const std::string original = read_whole_file(path);
  const RfifindMask mask = rapt::read_rfifind_mask(path);
  EXPECT_EQ(rapt::serialize_rfifind_mask(mask), original);
  ScratchDir dir;
  rapt::write_rfifind_mask(dir.file("copy.mask"), mask, false);
  EXPECT_EQ(read_whole_file(dir.file("copy.mask")), original);
}

TEST(RfifindMaskFile, GoldenFieldsMatchTheObservation) {
  RAPT_REQUIRE_SHARED_FILE(mask_path, "presto-golden/test_rfifind.mask");
  RAPT_REQUIRE_SHARED_FILE(inf_path, "presto-golden/test_rfifind.inf");
  const RfifindMask mask = rapt::read_rfifind_mask(mask_path);
  const rapt::InfFile inf = rapt::read_inf(inf_path);
  EXPECT_EQ(mask.time_sigma, 10.0);  // rfifind defaults
  EXPECT_EQ(mask.freq_sigma, 4.0);
  EXPECT_EQ(mask.num_chan, inf.num_channels);
  EXPECT_EQ(mask.num_chan, 128);
  EXPECT_EQ(mask.lofreq_mhz, inf.lofreq_mhz);
  EXPECT_EQ(mask.dfreq_mhz, inf.chan_bw_mhz);
  EXPECT_NEAR(mask.mjd, inf.epoch_mjd(), 1e-9);
  // -time 2.0 with 256 us samples: 7200-sample intervals, enough of them to cover N.
  EXPECT_EQ(mask.pts_per_int, 7200);
  EXPECT_NEAR(mask.dtint_s, mask.pts_per_int * inf.dt_s, 1e-12);
  EXPECT_EQ(mask.num_int, (inf.n + mask.pts_per_int - 1) / mask.pts_per_int);
  // The synthetic data hold no RFI: nothing is masked.
  EXPECT_TRUE(mask.zap_chans.empty());
  EXPECT_TRUE(mask.zap_ints.empty());
  ASSERT_EQ(mask.interval_chans.size(), static_cast<size_t>(mask.num_int));
  ASSERT_EQ(mask.interval_all_masked.size(), static_cast<size_t>(mask.num_int));
  for (int i = 0; i < mask.num_int; ++i) EXPECT_TRUE(rapt::masked_channels(mask, i).empty());
}

TEST(RfifindMaskFile, StoresFullyMaskedIntervalsAsACountOnly) {
  const std::string bytes = rapt::serialize_rfifind_mask(small_mask());
  // header 60 + zap chans 4+4 + zap ints 4+4 + counts 16 + lists (2 channels of interval 0) 8
  EXPECT_EQ(bytes.size(), 100u);
  EXPECT_EQ(int_at(bytes, 60), 1);  // num_zap_chans
  EXPECT_EQ(int_at(bytes, 76), 2);  // interval 0 count
  EXPECT_EQ(int_at(bytes, 88), 8);  // interval 3 count = numchan
  EXPECT_EQ(int_at(bytes, 92), 3);  // interval 0's list
  EXPECT_EQ(int_at(bytes, 96), 5);
  const RfifindMask back = rapt::parse_rfifind_mask(bytes, "small.mask");
  EXPECT_EQ(back.interval_chans, small_mask().interval_chans);
  EXPECT_EQ(back.interval_all_masked, small_mask().interval_all_masked);
  EXPECT_EQ(back.zap_chans, small_mask().zap_chans);
  EXPECT_EQ(back.zap_ints, small_mask().zap_ints);
  EXPECT_EQ(back.mjd, 59000.5);
  EXPECT_EQ(rapt::serialize_rfifind_mask(back), bytes);
}

TEST(RfifindMaskFile, WritesAListOfEveryChannelAsACountOnly) {
  RfifindMask mask = small_mask();
  mask.interval_all_masked[3] = 0;
  mask.interval_chans[3] = {7, 6, 5, 4, 3, 2, 1, 0};
  const std::string bytes = rapt::serialize_rfifind_mask(mask);
  EXPECT_EQ(bytes, rapt::serialize_rfifind_mask(small_mask()));
  EXPECT_EQ(rapt::parse_rfifind_mask(bytes, "x").interval_all_masked[3], 1);
  mask.interval_chans[3].push_back(0);
  EXPECT_THROW(rapt::serialize_rfifind_mask(mask), std::invalid_argument);
}

TEST(RfifindMaskReader, ReadsAHugeFullyMaskedMaskWithoutExpandingIt) {
  RfifindMask mask = small_mask();
  mask.num_chan = 1 << 30;  // 30 fully masked intervals of 2^30 channels: 120 GiB if expanded
  mask.num_int = 30;
  mask.zap_chans.clear();
  mask.interval_chans.assign(30, {});
  mask.interval_all_masked.assign(30, 1);
  const RfifindMask back = rapt::parse_rfifind_mask(rapt::serialize_rfifind_mask(mask), "big");
  EXPECT_TRUE(rapt::channel_masked(back, (1 << 30) - 1, 29));
}

TEST(RfifindMaskQuery, CombinesZappedChannelsIntervalsAndLists) {
  const RfifindMask mask = small_mask();
  EXPECT_TRUE(rapt::channel_masked(mask, 1, 0));  // zapped channel
  EXPECT_TRUE(rapt::channel_masked(mask, 3, 0));  // interval 0's list
  EXPECT_FALSE(rapt::channel_masked(mask, 4, 0));
  EXPECT_FALSE(rapt::channel_masked(mask, 3, 1));
  EXPECT_TRUE(rapt::channel_masked(mask, 1, 1));
  EXPECT_TRUE(rapt::channel_masked(mask, 6, 2));  // zapped interval
  EXPECT_TRUE(rapt::channel_masked(mask, 6, 3));  // fully masked interval
  EXPECT_EQ(rapt::masked_channels(mask, 0), (std::vector<int32_t>{1, 3, 5}));
  EXPECT_EQ(rapt::masked_channels(mask, 1), (std::vector<int32_t>{1}));
  EXPECT_EQ(rapt::masked_channels(mask, 2).size(), 8u);
  EXPECT_EQ(rapt::masked_channels(mask, 3).size(), 8u);
  EXPECT_THROW(rapt::channel_masked(mask, 8, 0), std::out_of_range);
  EXPECT_THROW(rapt::channel_masked(mask, 0, 4), std::out_of_range);
  EXPECT_THROW(rapt::channel_masked(mask, -1, 0), std::out_of_range);
}

TEST(RfifindMaskQuery, ListsZappedChannelsSortedOnce) {
  RfifindMask mask = small_mask();
  mask.zap_chans = {6, 2, 6, 0};
  EXPECT_EQ(rapt::zapped_channels(mask), (std::vector<int32_t>{0, 2, 6}));
}

TEST(RfifindMaskQuery, FindsTheIntervalOfATime) {
  const RfifindMask mask = small_mask();  // 4 intervals of 2 s
  EXPECT_EQ(rapt::interval_at_time(mask, 0.0), 0);
  EXPECT_EQ(rapt::interval_at_time(mask, 1.999), 0);
  EXPECT_EQ(rapt::interval_at_time(mask, 2.0), 1);
  EXPECT_EQ(rapt::interval_at_time(mask, 7.5), 3);
  EXPECT_EQ(rapt::interval_at_time(mask, 100.0), 3);  // past the end: the last interval
  EXPECT_EQ(rapt::interval_at_time(mask, -1.0), 0);
}

TEST(RfifindMaskReader, RejectsEveryTruncation) {
  const std::string bytes = rapt::serialize_rfifind_mask(small_mask());
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    const std::string message = parse_error(bytes.substr(0, cut));
    EXPECT_NE(message.find("x.mask: truncated rfifind mask: "), std::string::npos)
        << "cut at " << cut << ": " << message;
  }
}

TEST(RfifindMaskReader, SaysWhereATruncatedGoldenFileEnds) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_rfifind.mask");
  const std::string bytes = read_whole_file(path);
  ScratchDir dir;
  const std::string cut_path = dir.file("cut.mask");
  write_whole_file(cut_path, bytes.substr(0, 100));
  try {
    rapt::read_rfifind_mask(cut_path);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              cut_path +
                  ": truncated rfifind mask: 100 bytes end inside the channel counts per "
                  "interval (at byte 68, 148 more needed)");
  }
}

TEST(RfifindMaskReader, RejectsLeftoverBytesAndImpossibleCounts) {
  std::string bytes = rapt::serialize_rfifind_mask(small_mask());
  EXPECT_EQ(parse_error(bytes + "xxxx"),
            "x.mask: rfifind mask has 4 unexpected bytes after its last channel list");

  std::string bad_count = bytes;
  const int32_t nine = 9;
  std::memcpy(&bad_count[80], &nine, sizeof nine);  // interval 1 claims 9 of 8 channels
  EXPECT_EQ(parse_error(bad_count),
            "x.mask: rfifind mask interval 1 claims 9 masked channels of 8");

  std::string bad_channel = bytes;
  const int32_t twelve = 12;
  std::memcpy(&bad_channel[96], &twelve, sizeof twelve);
  EXPECT_EQ(parse_error(bad_channel), "x.mask: rfifind mask interval 0 lists channel 12 of 8");

  std::string bad_header = bytes;
  const int32_t zero = 0;
  std::memcpy(&bad_header[48], &zero, sizeof zero);  // numchan
  EXPECT_EQ(parse_error(bad_header),
            "x.mask: not an rfifind mask: header says numchan=0, numint=4, ptsperint=1000");

  std::string negative = bytes;
  const int32_t minus = -3;
  std::memcpy(&negative[60], &minus, sizeof minus);
  EXPECT_EQ(parse_error(negative), "x.mask: rfifind mask has a negative zapped channel count: -3");
}

TEST(RfifindMaskReader, NamesAMissingFile) {
  ScratchDir dir;
  const std::string path = dir.file("none.mask");
  try {
    rapt::read_rfifind_mask(path);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}
