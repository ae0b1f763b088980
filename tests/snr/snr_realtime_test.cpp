// Real-time mode against the file search: the same filterbank searched chunk by chunk (small
// chunks, pulses across chunk boundaries) gives the same events and candidates as the fused
// file search over the samples both cover, on the CPU and the GPU, for a DM grid and for a DM
// plan's downsampled ranges; events waiting for more data when it ends are still handed out;
// the chunk length rules and the error for data too short.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/errors.hpp"
#include "dedisp/dm_plan_options.hpp"
#include "gpu_device.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"
#include "snr/fused_search.hpp"
#include "snr/realtime_search.hpp"
#include "snr/single_pulse_search.hpp"
#include "snr_test_support.hpp"

namespace rapt {
namespace {

constexpr int kChans = 32;
constexpr double kTsamp = 1e-3;

// Noise (mean 100, sigma 10, 8 bits) and dispersed pulses of several widths; two of them
// centred on multiples of 4000 samples, the chunk the tests use.
std::string write_pulses(const std::string& dir, size_t nspectra) {
  const SigprocHeader h = testing::test_header(kChans, kTsamp, 1400.0, -4.0);
  const std::string path = dir + "/pulses.fil";
  testing::write_filterbank(
      path, h,
      testing::noise_with_pulses(h, nspectra, 100.0f, 10.0f, 3,
                                 {{4.0, 40.0, 3, 18.0f}, {8.001, 20.0, 10, 18.0f},
                                  {13.3, 60.0, 2, 18.0f}, {19.5, 30.0, 6, 18.0f}}));
  return path;
}

class SnrRealtime : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/rapt_realtime_XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    dir_ = dir;
    path_ = write_pulses(dir_, 24000);
  }
  void TearDown() override {
    std::remove(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  RealtimePlan plan(const std::string& device) const {
    RealtimePlan p;
    p.input = path_;
    for (int i = 0; i < 40; ++i) p.dms.push_back(2.0 * i);
    p.settings.reject_bad_blocks = false;  // judged per chunk here, per series in the file
    p.chunk = 4000;
    p.device = device;
    p.threads = 2;
    return p;
  }
  std::string dir_, path_;
};

struct LiveRun {
  RealtimeResult result;
  std::vector<PulseCandidate> candidates;
  int calls = 0;
};

LiveRun run(const RealtimePlan& plan) {
  LiveRun r;
  r.result = run_realtime_search(
      plan,
      [&](const std::vector<PulseCandidate>& c) {
        r.candidates.insert(r.candidates.end(), c.begin(), c.end());
      },
      [&](const RealtimeProgress&) { ++r.calls; });
  return r;
}

// Events equal in sample and width, S/N within `tolerance` (relative). With `margin` > 0, only
// events at least `margin` above the threshold of 5 are compared (float sums in another order
// may put a boxcar just at the threshold on either side).
void expect_same(std::vector<SinglePulseEvent> a, std::vector<SinglePulseEvent> b,
                 double tolerance, double margin = 0.0) {
  if (margin > 0.0)
    for (auto* list : {&a, &b})
      list->erase(std::remove_if(list->begin(), list->end(),
                                 [&](const SinglePulseEvent& e) { return e.sigma < 5.0 + margin; }),
                  list->end());
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].sample, b[i].sample);
    EXPECT_EQ(a[i].downfact, b[i].downfact);
    EXPECT_NEAR(a[i].sigma, b[i].sigma, tolerance * a[i].sigma);
  }
}

TEST_F(SnrRealtime, MatchesTheFileSearchAcrossChunkBoundaries) {
  const RealtimePlan p = plan("cpu");
  const LiveRun live = run(p);
  // 24000 spectra, largest delay 34 at DM 78: five whole chunks and a last one of three
  // detrend blocks (its fourth would need spectra past the end).
  EXPECT_EQ(live.result.progress.chunks, 6);
  EXPECT_EQ(live.calls, 6);
  const int64_t searched = live.result.series.front().total_samples;
  EXPECT_EQ(searched, 23000);

  FusedDedispPlan fused{path_, 0.0, 2.0, 40, "cpu", 2};
  std::vector<SeriesInput> series = dedisperse_in_memory(fused);
  for (SeriesInput& s : series) s.samples.resize(size_t(searched));  // what real time covered
  auto engine = make_cpu_boxcar_engine(p.settings.widths, float(p.settings.threshold), 2);
  const auto file = search_batch(series, p.settings, *engine, 2);
  size_t total = 0;
  for (size_t d = 0; d < series.size(); ++d) {
    SCOPED_TRACE("DM " + std::to_string(p.dms[d]));
    expect_same(file[d], live.result.events[d], 1e-6);
    total += file[d].size();
  }
  EXPECT_GT(total, 20u);

  std::vector<SinglePulseEvent> all;
  for (const auto& e : file) all.insert(all.end(), e.begin(), e.end());
  const std::vector<PulseCandidate> expected = cluster_events(all, p.dms, p.cluster);
  ASSERT_EQ(expected.size(), live.candidates.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(expected[i].best.sample, live.candidates[i].best.sample);
    EXPECT_EQ(expected[i].best.dm, live.candidates[i].best.dm);
    EXPECT_EQ(expected[i].members, live.candidates[i].members);
  }
  // The four pulses are among the candidates, near their DMs and times.
  for (const auto& [t, dm] : {std::pair{4.0, 40.0}, {8.001, 20.0}, {13.3, 60.0}, {19.5, 30.0}}) {
    bool found = false;
    for (const PulseCandidate& c : live.candidates)
      found = found || (std::abs(c.best.time_s - t) < 0.01 && std::abs(c.best.dm - dm) <= 6.0 &&
                        c.best.sigma > 7.0);
    EXPECT_TRUE(found) << "pulse at t " << t << " s, DM " << dm << "; candidates:\n"
                       << format_candidates(live.candidates);
  }
}

TEST_F(SnrRealtime, GpuGivesTheCpuEvents) {
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  RealtimePlan p = plan("cpu");
  p.settings.reject_bad_blocks = true;
  const LiveRun cpu = run(p);
  p.device = "gpu:0";
  const LiveRun gpu = run(p);
  ASSERT_EQ(cpu.result.events.size(), gpu.result.events.size());
  for (size_t d = 0; d < cpu.result.events.size(); ++d) {
    SCOPED_TRACE("DM " + std::to_string(p.dms[d]));
    expect_same(cpu.result.events[d], gpu.result.events[d], 1e-4, 0.01);
  }
}

TEST_F(SnrRealtime, ChunkLengthsAndShortData) {
  EXPECT_EQ(realtime_chunk_length(0, 1000), 66000);
  EXPECT_EQ(realtime_chunk_length(4000, 1000), 4000);
  EXPECT_EQ(realtime_chunk_length(0, 30), 65580);  // multiples of 60
  EXPECT_THROW(realtime_chunk_length(4500, 1000), UsageError);  // not whole blocks
  EXPECT_THROW(realtime_chunk_length(3030, 30), UsageError);    // whole blocks, not 4 | chunk
  EXPECT_THROW(realtime_chunk_length(-60, 30), UsageError);
  RealtimePlan p = plan("cpu");
  p.settings.detrend_len = 30000;  // more than the data
  p.chunk = 0;
  EXPECT_THROW(run(p), DataError);
}

// Every DM's events of the file search over the samples real time covered (each series cut to
// its real-time length), and its candidates clustered as real time clusters them.
struct FileSearch {
  std::vector<std::vector<SinglePulseEvent>> events;
  std::vector<PulseCandidate> candidates;
};

FileSearch file_search(FusedDedispPlan fused, const RealtimeResult& live,
                       const SnrSettings& settings, const ClusterSettings& cluster) {
  std::vector<SeriesInput> series = dedisperse_in_memory(fused);
  EXPECT_EQ(series.size(), live.series.size());
  FileSearch out;
  std::vector<SinglePulseEvent> all;
  std::vector<int> scales;
  double finest = series.front().dt_s;
  for (const SeriesInput& s : series) finest = std::min(finest, s.dt_s);
  auto engine = make_cpu_boxcar_engine(settings.widths, float(settings.threshold), 2);
  for (size_t i = 0; i < series.size(); ++i) {
    EXPECT_EQ(series[i].dt_s, live.series[i].dt_s);
    series[i].samples.resize(size_t(live.series[i].total_samples));
    out.events.push_back(search_batch({series[i]}, settings, *engine, 2).front());
    all.insert(all.end(), out.events.back().begin(), out.events.back().end());
    scales.insert(scales.end(), out.events.back().size(), int(std::lround(series[i].dt_s / finest)));
  }
  out.candidates = cluster_events(all, live.dms, cluster, scales);
  return out;
}

void expect_same_candidates(const std::vector<PulseCandidate>& expected,
                            const std::vector<PulseCandidate>& got) {
  ASSERT_EQ(expected.size(), got.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(expected[i].best.sample, got[i].best.sample);
    EXPECT_EQ(expected[i].best.dm, got[i].best.dm);
    EXPECT_EQ(expected[i].members, got[i].members);
  }
}

// 0.25 ms samples: a plan to DM 80 (at most 4 downsampled) has ranges at 1, 2 and 4; a pulse in
// each, one across a chunk's end, and the data ending 3857 spectra into the last chunk, so the
// coarsest range has no whole block there and hands out what waited.
TEST(SnrRealtimePlan, MatchesTheFileSearchOfThePlan) {
  char dir[] = "/tmp/rapt_realtime_plan_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const SigprocHeader h = testing::test_header(kChans, 2.5e-4, 1400.0, -4.0);
  const std::string path = std::string(dir) + "/plan.fil";
  testing::write_filterbank(
      path, h,
      testing::noise_with_pulses(h, 24000, 100.0f, 10.0f, 9,
                                 {{1.0, 20.0, 8, 12.0f}, {2.0, 30.0, 6, 12.0f},
                                  {3.0, 50.0, 12, 10.0f}, {4.6, 78.0, 16, 9.0f}}));
  RealtimePlan p;
  p.input = path;
  p.dm_plan.enabled = true;
  p.dm_plan.dm_max = 80;
  p.dm_plan.max_downsamp = 4;
  p.settings.reject_bad_blocks = false;  // judged per chunk here, per series in the file
  p.chunk = 4000;
  p.threads = 2;
  std::string table;
  p.plan_table = [&](const std::string& t) { table = t; };
  std::vector<std::string> started;
  p.on_start = [&](const std::vector<SeriesInput>& series) {
    for (const SeriesInput& s : series) started.push_back(s.root);
  };
  for (const std::string device : {"cpu", "gpu:0"}) {
    if (device != "cpu" && gpu_device_count() == 0) continue;
    SCOPED_TRACE(device);
    p.device = device;
    const LiveRun live = run(p);
    EXPECT_NE(table.find("DownSamp"), std::string::npos) << table;
    const std::vector<DmTrialGroup> groups = plan_trial_groups(
        p.dm_plan, open_spectra_source(path)->info(), 0.0, kDispersionConstantPresto, 1, nullptr);
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(groups[2].downsamp, 4);
    ASSERT_EQ(live.result.series.size(), live.result.dms.size());
    EXPECT_EQ(started.size(), live.result.dms.size());
    // Whole blocks of each range up to the last chunk's 3857 spectra: 23000, 11000, 5000.
    EXPECT_EQ(live.result.series.front().total_samples, 23000);
    EXPECT_EQ(live.result.series.back().total_samples, 5000);
    FusedDedispPlan fused{path, 0.0, 1.0, 0, "cpu", 2};
    fused.groups = groups;
    const FileSearch file = file_search(fused, live.result, p.settings, p.cluster);
    size_t total = 0;
    for (size_t d = 0; d < file.events.size(); ++d) {
      SCOPED_TRACE("DM " + std::to_string(live.result.dms[d]));
      if (device == "cpu") expect_same(file.events[d], live.result.events[d], 1e-6);
      else expect_same(file.events[d], live.result.events[d], 1e-4, 0.01);
      total += file.events[d].size();
    }
    EXPECT_GT(total, 20u);
    if (device == "cpu") expect_same_candidates(file.candidates, live.candidates);
    for (const auto& [t, dm] : {std::pair{1.0, 20.0}, {2.0, 30.0}, {3.0, 50.0}, {4.6, 78.0}}) {
      bool found = false;
      for (const PulseCandidate& c : live.candidates)
        found = found || (std::abs(c.best.time_s - t) < 0.01 && std::abs(c.best.dm - dm) <= 6.0);
      EXPECT_TRUE(found) << "pulse at t " << t << " s, DM " << dm << "; candidates:\n"
                         << format_candidates(live.candidates);
    }
    started.clear();
  }
  std::remove(path.c_str());
  ::rmdir(dir);
}

// Data ending less than a detrend block into a chunk: the events that waited at the previous
// chunk's end (a pulse 0.05 s before it) are still handed out, as the file search finds them.
TEST(SnrRealtimePlan, AnEndWithoutAWholeBlockHandsOutWhatWaited) {
  char dir[] = "/tmp/rapt_realtime_end_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const SigprocHeader h = testing::test_header(kChans, kTsamp, 1400.0, -4.0);
  const std::string path = std::string(dir) + "/end.fil";
  // Delay 34 at DM 78: chunk 5 needs 20034 spectra; 500 more are less than a block.
  testing::write_filterbank(
      path, h, testing::noise_with_pulses(h, 20534, 100.0f, 10.0f, 4, {{19.95, 30.0, 6, 18.0f}}));
  RealtimePlan p;
  p.input = path;
  for (int i = 0; i < 40; ++i) p.dms.push_back(2.0 * i);
  p.settings.reject_bad_blocks = false;
  p.chunk = 4000;
  p.device = "cpu";
  p.threads = 2;
  const LiveRun live = run(p);
  EXPECT_EQ(live.result.series.front().total_samples, 20000);
  const FileSearch file =
      file_search(FusedDedispPlan{path, 0.0, 2.0, 40, "cpu", 2}, live.result, p.settings, p.cluster);
  size_t late = 0;
  for (size_t d = 0; d < file.events.size(); ++d) {
    SCOPED_TRACE("DM " + std::to_string(live.result.dms[d]));
    expect_same(file.events[d], live.result.events[d], 1e-6);
    for (const SinglePulseEvent& e : file.events[d]) late += e.sample > 19850 ? 1 : 0;
  }
  EXPECT_GT(late, 0u) << "the pulse at 19.95 s";
  expect_same_candidates(file.candidates, live.candidates);
  std::remove(path.c_str());
  ::rmdir(dir);
}

// Which clusters (in time order) go out: those whose members all lie before the line, in order
// up to the first still open, and one open over more than `open_longest` samples as it is.
TEST(SnrRealtimePlan, ClustersGoOutInOrderOnceNoEventCanJoinThem) {
  // earliest, latest member of three clusters (samples of the finest range)
  const std::vector<int64_t> earliest = {5, 40, 20}, latest = {10, 50, 30};
  EXPECT_EQ(clusters_to_hand_out(earliest, latest, 45, 1000), 1u);  // the second is open
  EXPECT_EQ(clusters_to_hand_out(earliest, latest, 45, 4), 3u);     // open since 40 < 45 - 4
  EXPECT_EQ(clusters_to_hand_out(earliest, latest, 51, 1000), 3u);
  EXPECT_EQ(clusters_to_hand_out(earliest, latest, 10, 1000), 0u);  // 10 is not before 10
  EXPECT_EQ(clusters_to_hand_out({}, {}, 10, 1000), 0u);
}

}  // namespace
}  // namespace rapt
