// dedisp's option values: DM lists, channel lists, the DM constant, rfifind masks.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "dedisp/dedisp_options.hpp"
#include "io/rfifind_mask.hpp"
#include "test_data.hpp"

namespace {

template <typename Fn>
std::string usage_error(Fn&& fn) {
  try {
    fn();
  } catch (const rapt::UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

rapt::ObservationInfo descending(int nchans) {
  rapt::ObservationInfo info;
  info.path = "obs.fil";
  info.nchans = nchans;
  info.fch1_mhz = 1500.0;
  info.foff_mhz = -1.0;
  return info;
}

}  // namespace

TEST(DedispOptions, ReadsDmListsWithCommentsAndCommas) {
  const std::vector<double> expected{0.0, 1.5, 3.0, 10.0, 12.25};
  EXPECT_EQ(rapt::parse_dm_list("# trial DMs\n0 1.5\n3,10 # more\n\n 12.25\n", "dms.txt"),
            expected);
}

TEST(DedispOptions, RefusesAnEmptyDmList) {
  EXPECT_EQ(usage_error([] { rapt::parse_dm_list("# nothing here\n\n", "dms.txt"); }),
            "dms.txt: no DMs in the list");
}

TEST(DedispOptions, NamesTheLineOfABadDm) {
  EXPECT_EQ(usage_error([] { rapt::parse_dm_list("1\n2\nfifty\n", "dms.txt"); }),
            "dms.txt: line 3: \"fifty\" is not a DM");
}

TEST(DedispOptions, ReadsChannelListsAndRanges) {
  const std::vector<int> expected{0, 1, 2, 5, 7, 8};
  EXPECT_EQ(rapt::parse_channel_list("0:2,5,7:8", 16), expected);
  EXPECT_EQ(usage_error([] { rapt::parse_channel_list("3:1", 16); }),
            "--ignorechan 3:1: \"3:1\" is not a channel or a range first:last");
  EXPECT_EQ(usage_error([] { rapt::parse_channel_list("10:16", 16); }),
            "--ignorechan 10:16: channel 16 is out of range (the data have channels 0 to 15)");
  EXPECT_EQ(usage_error([] { rapt::parse_channel_list("a", 16); }),
            "--ignorechan a: \"a\" is not a channel or a range first:last");
}

// Every series would be zero, and a search of them would find nothing without a word.
TEST(DedispOptions, RefusesToLeaveOutEveryChannel) {
  rapt::SpectraCleaning cleaning;
  cleaning.ignorechan = "0:3,4:7";
  std::vector<bool> zapped;
  EXPECT_EQ(usage_error([&] { rapt::spectra_preparation(cleaning, descending(8), &zapped); }),
            "--ignorechan 0:3,4:7: leaves out every channel");
  cleaning.ignorechan = "0:6";
  EXPECT_NO_THROW(rapt::spectra_preparation(cleaning, descending(8), &zapped));
  EXPECT_EQ(std::count(zapped.begin(), zapped.end(), true), 7);
}

TEST(DedispOptions, RefusesAMaskThatZapsEveryChannel) {
  rapt::testing::ScratchDir dir;
  rapt::RfifindMask mask;
  mask.num_chan = 8;
  mask.num_int = 1;
  mask.pts_per_int = 100;
  mask.zap_chans = {0, 1, 2, 3, 4, 5};
  mask.interval_all_masked = {0};
  mask.interval_chans = {{}};
  rapt::write_rfifind_mask(dir.file("obs.mask"), mask, false);
  rapt::SpectraCleaning cleaning;
  cleaning.mask_path = dir.file("obs.mask");
  cleaning.ignorechan = "6:7";
  std::vector<bool> zapped;
  try {
    rapt::spectra_preparation(cleaning, descending(8), &zapped);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("obs.mask") +
                                         ": zaps every channel not left out by --ignorechan; "
                                         "nothing is left to dedisperse");
  }
}

// PRESTO numbers channels from the lowest frequency; SIGPROC files usually store the highest
// first.
TEST(DedispOptions, CountsPrestoChannelsFromTheLowestFrequency) {
  rapt::ObservationInfo info = descending(8);
  EXPECT_EQ(rapt::stored_channel(info, 0), 7);
  EXPECT_EQ(rapt::stored_channel(info, 7), 0);
  info.foff_mhz = 1.0;
  EXPECT_EQ(rapt::stored_channel(info, 0), 0);
}

TEST(DedispOptions, ReadsTheDispersionConstant) {
  EXPECT_DOUBLE_EQ(rapt::parse_dm_const("presto"), 1.0 / 2.41e-4);
  EXPECT_DOUBLE_EQ(rapt::parse_dm_const("sigproc"), 4148.808);
  EXPECT_DOUBLE_EQ(rapt::parse_dm_const("4150"), 4150.0);
  EXPECT_EQ(usage_error([] { rapt::parse_dm_const("-3"); }),
            "--dm-const -3: expected a positive number (s MHz^2 cm^3/pc), presto or sigproc");
}

TEST(DedispOptions, TurnsAMaskIntoZappedChannelsAndFlaggedSamples) {
  rapt::RfifindMask mask;
  mask.num_chan = 8;
  mask.num_int = 2;
  mask.pts_per_int = 100;
  mask.zap_chans = {0};                       // PRESTO channel 0 = stored channel 7
  mask.interval_all_masked = {0, 0};
  mask.interval_chans = {{1, 2}, {}};          // stored channels 6 and 5 in interval 0
  std::vector<bool> zapped;
  rapt::SpectraPreparation prep;
  rapt::apply_rfifind_mask(mask, "obs.mask", descending(8), &zapped, &prep);
  const std::vector<bool> expected_zapped{false, false, false, false, false, false, false, true};
  EXPECT_EQ(zapped, expected_zapped);
  EXPECT_EQ(prep.interval_spectra, 100u);
  ASSERT_EQ(prep.masked_channels.size(), 2u);
  EXPECT_EQ(prep.masked_channels[0], (std::vector<int>{6, 5}));
  EXPECT_TRUE(prep.masked_channels[1].empty());
}

TEST(DedispOptions, RefusesAMaskFromAnotherObservation) {
  rapt::RfifindMask mask;
  mask.num_chan = 64;
  mask.num_int = 1;
  mask.pts_per_int = 100;
  mask.interval_all_masked = {0};
  mask.interval_chans = {{}};
  std::vector<bool> zapped;
  rapt::SpectraPreparation prep;
  try {
    rapt::apply_rfifind_mask(mask, "other.mask", descending(128), &zapped, &prep);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "other.mask: made for 64 channels, but obs.fil has 128 (a mask from another "
              "observation?)");
  }
}
