// sift on .singlepulse files: events written by snr and read back cluster into the candidate
// list snr prints from the events in memory, byte for byte, also where the file rounds what
// snr had (DMs of 3 decimals, S/N values equal to 2 decimals), and where DM trials without
// events decide which events are DM neighbours.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/presto_inf.hpp"
#include "io/singlepulse.hpp"
#include "sift/singlepulse_inputs.hpp"
#include "snr/candidate_clustering.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

constexpr double kDt = 0.000256;

SinglePulseEvent event(double dm, int64_t sample, int width, double snr) {
  SinglePulseEvent e;
  e.dm = dm;
  e.sample = sample;
  e.time_s = double(sample) * kDt;
  e.downfact = width;
  e.sigma = snr;
  return e;
}

void write_inf_for(const std::string& root, double dm, double dt_s = kDt, double epoch_mjd = 0.0) {
  InfFile inf;
  inf.name = root;
  inf.telescope = "Parkes";
  inf.n = 100000;
  inf.dt_s = dt_s;
  inf.dm = dm;
  inf.lofreq_mhz = 1200.0;
  inf.bandwidth_mhz = 300.0;
  inf.num_channels = 64;
  inf.chan_bw_mhz = 300.0 / 64;
  if (epoch_mjd > 0.0) inf.set_epoch_mjd(epoch_mjd);
  write_inf(root + ".inf", inf, true);
}

// One DM trial as snr leaves it: <root>.inf and <root>.singlepulse.
std::string write_trial(const testing::ScratchDir& dir, double dm,
                        const std::vector<SinglePulseEvent>& events) {
  const std::string root = dir.file(format_string("obs_DM%.2f", dm));
  write_inf_for(root, dm);
  write_singlepulse(root + ".singlepulse", events, true);
  return root + ".singlepulse";
}

// A DM plan downsamples its higher ranges: their sample numbers count longer samples, and
// are clustered with the others' on the finest samples, as snr clusters them in memory.
TEST(SiftSinglePulse, ClustersFilesOfSeveralSamplingTimesOnTheFinestSamples) {
  testing::ScratchDir dir;
  const std::string fine = write_trial(dir, 190.0, {event(190.0, 1000, 2, 7.0)});
  const std::string root = dir.file("obs_DM200.00");
  write_inf_for(root, 200.0, 2 * kDt);
  write_singlepulse(root + ".singlepulse", {event(200.0, 500, 2, 9.0), event(200.0, 1000, 1, 6.5)},
                    true);
  const std::vector<SinglePulseFile> files = {read_singlepulse_file(fine),
                                              read_singlepulse_file(root + ".singlepulse")};
  EXPECT_EQ(files[1].dt_s, 2 * kDt);
  const SinglePulseSet set = merge_singlepulse_files(files);
  EXPECT_EQ(set.scales, (std::vector<int>{1, 2, 2}));
  const auto candidates = cluster_events(set.events, set.dms, ClusterSettings{}, set.scales);
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].members, 2);  // 1000 x 0.256 ms and 500 x 0.512 ms: one pulse
  EXPECT_DOUBLE_EQ(candidates[0].best.dm, 200.0);
  EXPECT_EQ(candidates[0].best.sample, 500);
  EXPECT_EQ(candidates[1].best.sample, 1000);  // 0.512 s
  // snr over the same events in memory, with the series' scales, gives the same list.
  const std::vector<SinglePulseEvent> in_memory = {event(190.0, 1000, 2, 7.0),
                                                   event(200.0, 500, 2, 9.0),
                                                   event(200.0, 1000, 1, 6.5)};
  EXPECT_EQ(format_candidates(cluster_events(in_memory, {190.0, 200.0}, ClusterSettings{},
                                             {1, 2, 2})),
            format_candidates(candidates));
}

TEST(SiftSinglePulse, RefusesSamplingTimesWithoutACommonTimeBase) {
  testing::ScratchDir dir;
  const std::string fine = write_trial(dir, 10.0, {event(10.0, 1000, 2, 7.0)});
  const std::string root = dir.file("obs_DM200.00");
  write_inf_for(root, 200.0, 1.5 * kDt);
  write_singlepulse(root + ".singlepulse", {event(200.0, 500, 2, 7.0)}, true);
  const std::vector<SinglePulseFile> files = {read_singlepulse_file(fine),
                                              read_singlepulse_file(root + ".singlepulse")};
  try {
    merge_singlepulse_files(files);
    FAIL() << "expected an error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              root + ".singlepulse: sampling time 0.000384 s is not a whole multiple of " + fine +
                  "'s 0.000256 s: their samples have no common time base");
  }
}

// snr -o DIR leaves the .singlepulse files without their .inf: each file's sampling time is
// then told by its events (time over sample), so a DM plan's ranges still cluster together.
TEST(SiftSinglePulse, TellsTheSamplingTimeOfAFileWithoutItsInfByItsEvents) {
  testing::ScratchDir dir;
  const std::string fine = dir.file("obs_DM190.00.singlepulse");
  write_singlepulse(fine, {event(190.0, 1000, 2, 7.0)}, true);
  SinglePulseEvent coarse_event = event(200.0, 500, 2, 9.0);
  coarse_event.time_s = 500 * 2 * kDt;
  const std::string coarse = dir.file("obs_DM200.00.singlepulse");
  write_singlepulse(coarse, {coarse_event}, true);
  const std::string empty = dir.file("obs_DM210.00.singlepulse");
  write_singlepulse(empty, {}, true);
  const std::vector<SinglePulseFile> files = {read_singlepulse_file(fine),
                                              read_singlepulse_file(coarse),
                                              read_singlepulse_file(empty)};
  EXPECT_NEAR(files[0].dt_s, kDt, 1e-12);
  EXPECT_NEAR(files[1].dt_s, 2 * kDt, 1e-12);
  EXPECT_EQ(files[2].dt_s, 0.0);  // no events: nothing tells it
  const SinglePulseSet set = merge_singlepulse_files(files);
  EXPECT_EQ(set.scales, (std::vector<int>{1, 2}));
  EXPECT_EQ(set.untold_files, 0u);  // DM 210: above the finest series' DM 190
  EXPECT_EQ(merge_singlepulse_files({files[0], files[2]}).untold_files, 0u);  // of one
  const std::string low = dir.file("obs_DM150.00.singlepulse");  // below DM 190: may be finer
  write_singlepulse(low, {}, true);
  EXPECT_EQ(merge_singlepulse_files({files[0], files[1], read_singlepulse_file(low)}).untold_files,
            1u);
  const auto candidates = cluster_events(set.events, set.dms, ClusterSettings{}, set.scales);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].members, 2);
}

// Series that start apart cannot be clustered by their times since their starts.
TEST(SiftSinglePulse, RefusesSeriesThatStartApart) {
  testing::ScratchDir dir;
  const std::string early = write_trial(dir, 10.0, {event(10.0, 1000, 2, 7.0)});
  write_inf_for(strip_suffix(early, ".singlepulse"), 10.0, kDt, 60000.0);
  const std::string root = dir.file("obs_DM20.00");
  write_inf_for(root, 20.0, kDt, 60000.0 + 1.0 / 86400.0);  // 1 s later
  write_singlepulse(root + ".singlepulse", {event(20.0, 1000, 2, 7.0)}, true);
  const std::vector<SinglePulseFile> files = {read_singlepulse_file(early),
                                              read_singlepulse_file(root + ".singlepulse")};
  try {
    merge_singlepulse_files(files);
    FAIL() << "expected an error";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find(root + ".singlepulse: starts 1 s after " + early),
              std::string::npos)
        << e.what();
  }
}

// A sample number too far for the finest samples (past 9e15 of them, the most a file's sample
// column may hold) is refused, not wrapped.
TEST(SiftSinglePulse, RefusesASampleTooFarOnTheFinestSamples) {
  testing::ScratchDir dir;
  const std::string fine = write_trial(dir, 10.0, {event(10.0, 1000, 2, 7.0)});
  const std::string root = dir.file("obs_DM200.00");
  write_inf_for(root, 200.0, 1000 * kDt);
  SinglePulseEvent far = event(200.0, 8000000000000000LL, 1, 7.0);
  write_singlepulse(root + ".singlepulse", {far}, true);
  const std::vector<SinglePulseFile> files = {read_singlepulse_file(fine),
                                              read_singlepulse_file(root + ".singlepulse")};
  try {
    merge_singlepulse_files(files);
    FAIL() << "expected an error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), root + ".singlepulse: sample 8000000000000000, of samples "
                                            "1000 times the finest, lies past the end of any series");
  }
}

// -t leaves out the events below a S/N as their files keep it (2 decimals), with their scales.
TEST(SiftSinglePulse, LeavesOutEventsBelowTheThreshold) {
  SinglePulseSet set;
  set.events = {event(10, 100, 2, 5.994), event(10, 200, 2, 5.996), event(12, 300, 1, 9.0)};
  set.scales = {1, 1, 2};
  set.dms = {10, 12};
  set.duration_s = 4.0;
  const SinglePulseSet kept = events_at_least(set, 6.0);
  ASSERT_EQ(kept.events.size(), 2u);
  EXPECT_EQ(kept.events[0].sample, 200);  // 5.996 is kept as 6.00
  EXPECT_EQ(kept.scales, (std::vector<int>{1, 2}));
  EXPECT_EQ(kept.dms, set.dms);
  EXPECT_EQ(kept.duration_s, 4.0);
  EXPECT_EQ(events_at_least(set, 0.0).events.size(), 3u);
}

TEST(SiftSinglePulse, ClustersTheFilesAsSnrClustersTheEventsInMemory) {
  testing::ScratchDir dir;
  ClusterSettings settings;
  // DM trials every 0.125 (the files keep 2 decimals), the pulse's S/N peaking at two trials
  // with values equal to 2 decimals (so the file cannot tell which was stronger), and trials
  // 0.375 and 0.5 without events: without them 0.25 and 0.625 would be neighbours.
  const std::vector<double> dms = {0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875};
  std::vector<std::vector<SinglePulseEvent>> per_dm(dms.size());
  per_dm[0] = {event(0.0, 4000, 2, 6.2)};
  per_dm[1] = {event(0.125, 1000, 4, 9.1234), event(0.125, 4001, 3, 6.3)};
  per_dm[2] = {event(0.25, 1001, 4, 9.1211), event(0.25, 7000, 1, 5.5)};
  per_dm[5] = {event(0.625, 1002, 6, 7.0), event(0.625, 7000, 1, 5.6)};
  per_dm[6] = {event(0.75, 1003, 4, 8.0)};
  std::vector<SinglePulseEvent> all;
  std::vector<std::string> paths;
  for (size_t i = 0; i < dms.size(); ++i) {
    all.insert(all.end(), per_dm[i].begin(), per_dm[i].end());
    paths.push_back(write_trial(dir, dms[i], per_dm[i]));
  }
  const std::string in_memory = format_candidates(cluster_events(all, dms, settings));

  // The files in two parts, the second first.
  std::vector<SinglePulseFile> files;
  for (size_t i = 4; i < paths.size(); ++i) files.push_back(read_singlepulse_file(paths[i]));
  for (size_t i = 0; i < 4; ++i) files.push_back(read_singlepulse_file(paths[i]));
  const SinglePulseSet set = merge_singlepulse_files(files);
  EXPECT_EQ(set.dms.size(), dms.size());
  const std::string merged = format_candidates(cluster_events(set.events, set.dms, settings));
  EXPECT_EQ(merged, in_memory);
  // Worked out by hand: the pulse (9.12 at DM 0.125 and 0.25: the lower DM; DM 0.625 and 0.75
  // one pulse further in DM, joined through nothing: 0.375 and 0.5 lie between), the event
  // pair at sample 4000 (the stronger at DM 0.125), and the two at sample 7000, three
  // trials apart.
  EXPECT_EQ(merged,
            "#      DM      Time(s)     Sample  Width      S/N  Members\n"
            "    0.125     0.256000       1000      4     9.12        2\n"
            "    0.750     0.256768       1003      4     8.00        2\n"
            "    0.125     1.024256       4001      3     6.30        2\n"
            "    0.250     1.792000       7000      1     5.50        1\n"
            "    0.625     1.792000       7000      1     5.60        1\n");

  // Leaving out the trials without events joins DM 0.25 and 0.625: a different list.
  std::vector<SinglePulseFile> some;
  for (size_t i : {0, 1, 2, 5, 6, 7}) some.push_back(read_singlepulse_file(paths[i]));
  const SinglePulseSet partial = merge_singlepulse_files(some);
  EXPECT_NE(format_candidates(cluster_events(partial.events, partial.dms, settings)), merged);
}

TEST(SiftSinglePulse, ChoosesTheStrongestAsTheFileKeepsItsSignalToNoise) {
  const std::vector<double> dms = {10, 12};
  for (double first : {7.124, 7.121}) {
    const double second = first == 7.124 ? 7.121 : 7.124;
    const auto c = cluster_events({event(12, 500, 2, first), event(10, 501, 2, second)}, dms, {});
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].best.dm, 10.0) << "equal to 2 decimals: the lower DM";
  }
  const auto c = cluster_events({event(12, 500, 2, 7.13), event(10, 501, 2, 7.124)}, dms, {});
  EXPECT_EQ(c.at(0).best.dm, 12.0);
  EXPECT_EQ(singlepulse_kept_sigma(7.125000001), 7.13);
  EXPECT_EQ(singlepulse_kept_sigma(7.12), 7.12);
}

TEST(SiftSinglePulse, TakesEachFilesDmFromItsInfThenItsName) {
  testing::ScratchDir dir;
  const std::string with_inf = write_trial(dir, 0.125, {event(0.125, 10, 1, 6.0)});
  SinglePulseFile f = read_singlepulse_file(with_inf);
  EXPECT_EQ(f.dm, 0.125);
  EXPECT_EQ(f.events.at(0).dm, 0.125);
  EXPECT_EQ(f.dm_source, dir.file("obs_DM0.12.inf"));

  const std::string named = dir.file("fused_DM56.25.singlepulse");
  write_singlepulse(named, {}, true);
  f = read_singlepulse_file(named);
  EXPECT_EQ(f.dm, 56.25);
  EXPECT_EQ(f.dm_source, "name");
  EXPECT_TRUE(f.events.empty());

  const std::string bare = dir.file("bare.singlepulse");
  write_singlepulse(bare, {event(3.5, 10, 1, 6.0)}, true);
  f = read_singlepulse_file(bare);
  EXPECT_EQ(f.dm, 3.5);
  EXPECT_EQ(f.dm_source, "events");

  write_singlepulse(bare, {}, true);
  EXPECT_THROW(read_singlepulse_file(bare), DataError);
}

TEST(SiftSinglePulse, RefusesEventsAtAnotherDm) {
  testing::ScratchDir dir;
  const std::string path = write_trial(dir, 20.0, {event(20.5, 10, 1, 6.0)});
  try {
    read_singlepulse_file(path);
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), path +
                                         ": holds an event at DM 20.50, but its DM is 20 (from " +
                                         dir.file("obs_DM20.00.inf") + ")");
  }
  EXPECT_THROW(read_singlepulse_file(dir.file("missing.singlepulse")), DataError);
}

TEST(SiftSinglePulse, ReadsTheDmInAName) {
  double dm = 0.0;
  EXPECT_TRUE(dm_from_name("a_DM1.00/obs_DM56.25.singlepulse", dm));
  EXPECT_EQ(dm, 56.25);
  EXPECT_TRUE(dm_from_name("obs_DM-1.50.singlepulse", dm));
  EXPECT_EQ(dm, -1.5);
  EXPECT_FALSE(dm_from_name("obs.singlepulse", dm));
}

}  // namespace
}  // namespace rapt
