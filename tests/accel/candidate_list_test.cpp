#include "accel/candidate_list.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace rapt {
namespace {

AccelPlan small_plan() {
  AccelSearchOptions o;
  o.zmax = 10;
  o.numharm = 2;
  return make_accel_plan(o, 65536, 100.0);
}

PlaneHit hit(int32_t segment, int stage, int row, int64_t column, float power) {
  return PlaneHit{segment, int16_t(stage), int16_t(row), column, power};
}

TEST(CandidateList, KeepsOnlyTheStrongestCandidateWithin15Bins) {
  const AccelPlan plan = small_plan();
  // Columns are half bins: 2000 -> r = 1000, 2010 -> 1005, 2100 -> 1050.
  const std::vector<PlaneHit> hits = {hit(0, 0, 5, 2000, 40.0f), hit(0, 0, 5, 2010, 60.0f),
                                      hit(0, 0, 5, 2100, 30.0f)};
  const std::vector<RawCandidate> c = collect_candidates(hits, plan, nullptr);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_DOUBLE_EQ(c[0].r, 1005.0);
  EXPECT_DOUBLE_EQ(c[1].r, 1050.0);
  EXPECT_GT(c[0].sigma, c[1].sigma);
}

TEST(CandidateList, ReportsTheFundamentalOfASummedHit) {
  const AccelPlan plan = small_plan();
  // Stage 1 (2 harmonics) at column 4001 (r = 2000.5), row 10 (z = +10): fundamental r/2, z/2.
  const std::vector<RawCandidate> c =
      collect_candidates({hit(0, 1, 10, 4001, 50.0f)}, plan, nullptr);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].numharm, 2);
  EXPECT_DOUBLE_EQ(c[0].r, 1000.25);
  EXPECT_DOUBLE_EQ(c[0].z, 5.0);
}

TEST(CandidateList, OffersHitsInSearchOrderWhateverOrderTheyArrive) {
  const AccelPlan plan = small_plan();
  std::vector<PlaneHit> hits = {hit(1, 0, 3, 9000, 35.0f), hit(0, 1, 2, 3000, 45.0f),
                                hit(0, 0, 1, 2000, 33.0f)};
  std::string log_a, log_b;
  const auto a = collect_candidates(hits, plan, &log_a);
  std::reverse(hits.begin(), hits.end());
  const auto b = collect_candidates(hits, plan, &log_b);
  EXPECT_EQ(log_a, log_b);
  ASSERT_EQ(a.size(), b.size());
  // The first accepted offer is segment 0, stage 0.
  EXPECT_EQ(log_a.substr(0, 5), "33.00");
}

TEST(CandidateList, LogsOnlyAcceptedOffers) {
  const AccelPlan plan = small_plan();
  std::string log;
  collect_candidates({hit(0, 0, 5, 2000, 60.0f), hit(0, 0, 5, 2004, 40.0f)}, plan, &log);
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1);
}

TEST(CandidateList, EliminatesHarmonicsOfStrongerCandidates) {
  std::vector<RawCandidate> c(4);
  c[0].r = 1000.0;  c[0].sigma = 20.0f;
  c[1].r = 2000.8;  c[1].sigma = 10.0f;  // 2nd harmonic: removed
  c[2].r = 1500.5;  c[2].sigma = 8.0f;   // 3/2: removed
  c[3].r = 1234.0;  c[3].sigma = 7.0f;   // unrelated: kept
  eliminate_harmonics(c);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_DOUBLE_EQ(c[1].r, 1234.0);
}

TEST(CandidateList, NotesMarkHarmonicsAndSidelobes) {
  std::vector<FourierProps> p(3);
  p[0].r = 1000.0; p[0].z = 4.0; p[0].pow = 100.0; p[0].rerr = 0.0625; p[0].zerr = 0.25;
  p[1].r = 3000.0; p[1].z = 12.0; p[1].pow = 20.0; p[1].rerr = 0.5; p[1].zerr = 2.0;
  p[2].r = 1008.0; p[2].z = 10.0; p[2].pow = 10.0; p[2].rerr = 0.5; p[2].zerr = 2.0;
  const std::vector<std::string> notes = candidate_notes(p);
  EXPECT_EQ(notes[0], "");
  EXPECT_EQ(notes[1], "H 3 of Cand 1");
  EXPECT_EQ(notes[2], "SL? of Cand 1");
}

}  // namespace
}  // namespace rapt
