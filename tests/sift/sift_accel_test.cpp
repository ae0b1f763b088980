// sift on ACCEL files: the files are read the way PRESTO's sifting module reads them (sigma and
// summed power recomputed from the printed harmonic powers), and ACCEL_sift's steps keep the
// pulsar once, at its best DM, with every DM it was found at, while the below-threshold, the
// out-of-range periods, the one-harmonic-dominated, the single-DM, the low-DM, the DM-gapped
// and the harmonic candidates go. Synthetic files: T = 100 s (N = 100000, dt = 1 ms).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "accel/accel_sigma.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/accel_files.hpp"
#include "io/presto_inf.hpp"
#include "sift/accel_sift_file.hpp"
#include "sift/accel_sifting.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

constexpr double kT = 100.0;

struct Spec {
  double r;
  std::vector<double> powers;  // per harmonic, printed exactly ("12.00(50)")
  double coherent = 50.0;
};

InfFile observation(double dm) {
  InfFile inf;
  inf.name = format_string("obs_DM%.2f", dm);
  inf.telescope = "Parkes";
  inf.n = 100000;
  inf.dt_s = 0.001;
  inf.dm = dm;
  inf.lofreq_mhz = 1200.0;
  inf.bandwidth_mhz = 300.0;
  inf.num_channels = 64;
  inf.chan_bw_mhz = 300.0 / 64;
  inf.set_epoch_mjd(60000.0);
  return inf;
}

std::string accel_text(double dm, const std::vector<Spec>& specs) {
  AccelCandidates accel;
  accel.obs_length_s = kT;
  accel.inf_text = format_inf(observation(dm));
  for (const Spec& s : specs) {
    AccelCandidate c;
    c.numharm = int(s.powers.size());
    c.r = s.r;
    c.z = 2.0;
    c.coherent_power = s.coherent;
    for (double p : s.powers) c.summed_power += p;
    c.sigma = candidate_sigma(c.summed_power, c.numharm, 1000.0);
    for (int k = 1; k <= c.numharm; ++k) {
      AccelHarmonic h;
      h.props.r = s.r * k;
      h.props.rerr = 0.05;
      h.props.z = 2.0 * k;
      h.props.zerr = 0.5;
      h.props.pow = s.powers[size_t(k - 1)];
      h.props.powerr = 0.5;
      h.props.rawpow = 100.0;
      h.props.phs = 1.0;
      h.props.phserr = 0.1;
      h.props.cen = 0.5;
      h.props.cenerr = 0.1;
      h.props.pur = 1.0;
      h.props.purerr = 0.1;
      h.sigma = 3.0;
      c.harmonics.push_back(h);
    }
    accel.candidates.push_back(c);
  }
  return format_accel_text(accel);
}

AccelSiftFile sift_file(double dm, const std::vector<Spec>& specs) {
  return parse_accel_sift_file(accel_text(dm, specs), format_string("dir/obs_DM%.2f_ACCEL_50", dm));
}

TEST(SiftAccelFile, ReadsCandidatesAsSiftingDoes) {
  const AccelSiftFile f = sift_file(12.5, {{1000.0, {30, 20, 15, 10}, 77.0}, {333.0, {9.0}}});
  EXPECT_DOUBLE_EQ(f.dm, 12.5);
  EXPECT_DOUBLE_EQ(f.T, 100.0);
  ASSERT_EQ(f.candidates.size(), 2u);
  const SiftCandidate& c = f.candidates[0];
  EXPECT_EQ(c.filename, "obs_DM12.50_ACCEL_50");
  EXPECT_EQ(c.candnum, 1);
  EXPECT_EQ(c.numharm, 4);
  EXPECT_DOUBLE_EQ(c.r, 1000.0);
  EXPECT_DOUBLE_EQ(c.z, 2.0);
  EXPECT_DOUBLE_EQ(c.cpow, 77.0);
  EXPECT_EQ(c.harm_pows, (std::vector<double>{30, 20, 15, 10}));
  // Summed power and single-trial sigma from the harmonics; S/N = sum of sqrt(P - 1).
  EXPECT_DOUBLE_EQ(c.ipow, 75.0);
  EXPECT_DOUBLE_EQ(c.sigma, candidate_sigma(75.0, 4, 1.0));
  EXPECT_NEAR(c.snr, std::sqrt(29.0) + std::sqrt(19.0) + std::sqrt(14.0) + 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(c.f(), 10.0);
  EXPECT_DOUBLE_EQ(c.p(), 0.1);
  ASSERT_EQ(c.hits.size(), 1u);
  EXPECT_DOUBLE_EQ(c.hits[0].dm, 12.5);
  EXPECT_EQ(f.candidates[1].candnum, 2);
  EXPECT_DOUBLE_EQ(f.candidates[1].ipow, 9.0);
  EXPECT_NEAR(f.candidates[1].snr, std::sqrt(8.0), 1e-12);
}

TEST(SiftAccelFile, ReadsPowersAsParsePowerDoes) {
  EXPECT_DOUBLE_EQ(parse_sift_power(" 12.5(3)"), 12.5);
  EXPECT_DOUBLE_EQ(parse_sift_power("1.25(3)x10^4"), 12500.0);
  EXPECT_DOUBLE_EQ(parse_sift_power("8.75109(13)x10"), 8.75109);  // exponent cut off
  EXPECT_DOUBLE_EQ(parse_sift_power("2.5(1)x10^"), 2.5e5);        // sifting assumes 5
  EXPECT_THROW(parse_sift_power("(3)"), DataError);
}

TEST(SiftAccelFile, TakesTheDmFromTheNameAsSiftingDoes) {
  std::string dm;
  EXPECT_TRUE(accel_dm_from_name("a/DM9.99/obs_DM56.00_ACCEL_50", dm));
  EXPECT_EQ(dm, "56.00");
  EXPECT_TRUE(accel_dm_from_name("obs_DM1234.567_ACCEL_0", dm));
  EXPECT_EQ(dm, "1234.56");
  EXPECT_FALSE(accel_dm_from_name("obs_DM-1.00_ACCEL_0", dm));
  EXPECT_FALSE(accel_dm_from_name("obs_ACCEL_0", dm));
  EXPECT_THROW(parse_accel_sift_file(accel_text(1.0, {{1000.0, {30}}}), "obs_ACCEL_0"), DataError);
}

TEST(SiftAccelFile, RefusesCutFilesAndMissingObservations) {
  const std::string text = accel_text(1.0, {{1000.0, {30, 20}}});
  // Without the appended .inf (and no fallback) T is unknown.
  const std::string tables = text.substr(0, text.find(" Data file name without suffix"));
  EXPECT_THROW(parse_accel_sift_file(tables, "obs_DM1.00_ACCEL_0"), DataError);
  const AccelSiftFile f =
      parse_accel_sift_file(tables, "obs_DM1.00_ACCEL_0", format_inf(observation(1.0)));
  EXPECT_DOUBLE_EQ(f.T, 100.0);
  // Cut after the fundamentals table: the candidate has no harmonic rows.
  const std::string cut = text.substr(0, text.find("Cand   Harm"));
  try {
    parse_accel_sift_file(cut, "obs_DM1.00_ACCEL_0", format_inf(observation(1.0)));
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "obs_DM1.00_ACCEL_0: candidate 1 has no complete rows in the harmonics table");
  }
}

TEST(SiftAccel, DropsWeakCandidatesFileByFile) {
  AccelSiftSettings s;  // ACCEL_sift's: sigma 4, cpow 100, harm power 8, 0.5 ms .. 15 s
  const AccelSiftFile f = sift_file(
      10.0, {
                {1000.0, {30, 20, 15, 10}},      // 1 kept
                {3.0, {30, 20}},                 // 2 P = 33 s: too long
                {250000.0, {30, 20}},            // 3 P = 0.4 ms: too short
                {1500.0, {5.0, 4.0}},            // 4 sigma < 4
                {1700.0, {9.0}, 150.0},          // 5 one harmonic, sigma < 4 but cpow >= 100: kept
                {1900.0, {9.0}, 50.0},           // 6 one harmonic, sigma < 4 and cpow < 100
                {2100.0, {7.5, 7.5, 7.5, 7.5}},  // 7 strongest harmonic below 8
                {2300.0, {9, 9, 9, 40}},         // 8 4th of 4 harmonics over 3x the next
                {2500.0, {9, 9, 9, 25}},         // 9 4th of 4 harmonics, under 3x the next: kept
                {2700.0, {9, 9, 9, 9, 9, 19, 9, 9}},  // 10 6th of 8 over 2x the next
            });
  EXPECT_LT(candidate_sigma(9.0, 2, 1.0), 4.0);
  EXPECT_LT(candidate_sigma(9.0, 1, 1.0), 4.0);
  EXPECT_GE(candidate_sigma(30.0, 4, 1.0), 4.0);
  std::vector<int> kept;
  for (const SiftCandidate& c : reject_weak_candidates(f.candidates, s)) kept.push_back(c.candnum);
  EXPECT_EQ(kept, (std::vector<int>{1, 5, 9}));
  s.min_numharm = 2;
  kept.clear();
  for (const SiftCandidate& c : reject_weak_candidates(f.candidates, s)) kept.push_back(c.candnum);
  EXPECT_EQ(kept, (std::vector<int>{1, 9}));
  // Each threshold moved lets in (or keeps out) just the candidates it concerns.
  const auto kept_with = [&](const AccelSiftSettings& settings) {
    std::vector<int> numbers;
    for (const SiftCandidate& c : reject_weak_candidates(f.candidates, settings))
      numbers.push_back(c.candnum);
    return numbers;
  };
  AccelSiftSettings wide_periods;
  wide_periods.min_period_s = 0.0003;
  wide_periods.max_period_s = 40.0;
  EXPECT_EQ(kept_with(wide_periods), (std::vector<int>{1, 2, 3, 5, 9}));
  AccelSiftSettings high_cpow;
  high_cpow.c_pow_threshold = 200.0;
  EXPECT_EQ(kept_with(high_cpow), (std::vector<int>{1, 9}));
  AccelSiftSettings low_harm_pow;
  low_harm_pow.harm_pow_cutoff = 7.0;
  EXPECT_EQ(kept_with(low_harm_pow), (std::vector<int>{1, 5, 7, 9}));
}

// A small survey: DM trials 0, 1, 9, 10, 11, 12 (12 without candidates).
std::vector<AccelSiftFile> survey() {
  const Spec pulsar_weak{1000.0, {20, 15, 10, 8}};
  return {
      sift_file(0.0, {{7777.7, {60, 40, 30, 20}}}),  // RFI, strongest at DM 0
      sift_file(1.0, {{7778.1, {40, 30, 20, 15}}}),
      sift_file(9.0, {pulsar_weak, {4321.9, {30, 20, 15, 10}}}),  // gapped: DMs 9 and 11
      sift_file(10.0, {{1000.3, {30, 20, 15, 10}},                // the pulsar's best
                       {2000.6, {25, 12, 10, 9}},                 // its 2nd harmonic
                       {3000.3, {25, 20, 15, 10}},                // only at this DM
                       {1000.9, {10, 10, 9, 9}}}),                // a weaker duplicate
      sift_file(11.0,
                {{999.6, {20, 15, 10, 8}}, {4322.5, {30, 20, 15, 10}}, {2000.1, {25, 12, 10, 9}}}),
  };
}

TEST(SiftAccel, KeepsThePulsarOnceWithEveryDmItWasFoundAt) {
  const std::vector<double> dms = {0, 1, 9, 10, 11, 12};
  AccelSiftCounts n;
  const std::vector<SiftCandidate> out = sift_accel_candidates(survey(), dms, {}, &n);
  EXPECT_EQ(n.read, 11u);
  EXPECT_EQ(n.passed_thresholds, 11u);
  // 999.6/1000/1000.3/1000.9; 2000.1/2000.6; 3000.3; 4321.9/4322.5; 7777.7/7778.1.
  EXPECT_EQ(n.distinct, 5u);
  EXPECT_EQ(n.good_dms, 2u);      // RFI at DM 0, 3000.3 at one DM, 4321.9 at 9 and 11 go
  EXPECT_EQ(n.fundamentals, 1u);  // 2000.x is the pulsar's 2nd harmonic
  ASSERT_EQ(out.size(), 1u);
  const SiftCandidate& c = out[0];
  EXPECT_EQ(c.filename, "obs_DM10.00_ACCEL_50");
  EXPECT_EQ(c.candnum, 1);
  EXPECT_DOUBLE_EQ(c.dm, 10.0);
  std::vector<double> hit_dms;
  for (const SiftHit& h : c.hits) hit_dms.push_back(h.dm);
  std::sort(hit_dms.begin(), hit_dms.end());
  EXPECT_EQ(hit_dms, (std::vector<double>{9, 10, 10, 11}));
}

TEST(SiftAccel, AppliesTheDmRules) {
  const std::vector<double> dms = {0, 1, 9, 10, 11, 12};
  AccelSiftSettings s;
  s.min_num_dms = 1;
  s.low_dm_cutoff = -1.0;
  // Without the hit-count and low-DM rules: the RFI and the pulsar stay, 3000.3 goes as the
  // pulsar's 3rd harmonic and 4321.9 still for the gap (DM 10 searched, not found).
  std::vector<double> rs;
  for (const SiftCandidate& c : sift_accel_candidates(survey(), dms, s)) rs.push_back(c.r);
  std::sort(rs.begin(), rs.end());
  EXPECT_EQ(rs, (std::vector<double>{1000.3, 7777.7}));
  // DM 10 missing from the trials: 9 and 11 become neighbours, and 4321.9 stays.
  s = AccelSiftSettings{};
  const std::vector<SiftCandidate> gapless = remove_dm_problems(
      remove_duplicate_candidates({survey()[2].candidates[1], survey()[4].candidates[1]}, s.r_err),
      {9, 11}, 2, 2.0);
  ASSERT_EQ(gapless.size(), 1u);
  EXPECT_EQ(remove_dm_problems(remove_duplicate_candidates(
                                   {survey()[2].candidates[1], survey()[4].candidates[1]}, s.r_err),
                               dms, 2, 2.0)
                .size(),
            0u);
}

TEST(SiftAccel, GivesOneListWhateverTheFileOrder) {
  const std::vector<double> dms = {0, 1, 9, 10, 11, 12};
  AccelSiftSettings s;
  s.min_num_dms = 1;
  std::vector<AccelSiftFile> files = survey();
  const std::string forward = format_sift_candlist(sift_accel_candidates(files, dms, s));
  std::reverse(files.begin(), files.end());
  std::rotate(files.begin(), files.begin() + 2, files.end());
  EXPECT_EQ(format_sift_candlist(sift_accel_candidates(files, dms, s)), forward);
}

TEST(SiftAccel, CentresTitlesAsPythonDoes) {
  EXPECT_EQ(python_center("DM", 9), "    DM   ");
  EXPECT_EQ(python_center("SNR", 8), "  SNR   ");
  EXPECT_EQ(python_center("%2d", 7), "  %2d  ");
  EXPECT_EQ(python_center("r", 12), "     r      ");
  EXPECT_EQ(python_center("toolong", 3), "toolong");
}

TEST(SiftAccel, WritesAccelSiftsCandidateList) {
  const std::vector<SiftCandidate> out = sift_accel_candidates(survey(), {0, 1, 9, 10, 11, 12}, {});
  const std::string text = format_sift_candlist(out);
  const std::string header =
      "#" + std::string(27, ' ') + "file:candnum" + std::string(27, ' ') +
      "    DM     SNR    sigma   numharm    ipow     cpow      P(ms)          r         z    "
      " numhits \n";
  ASSERT_EQ(text.substr(0, text.find('\n') + 1), header);
  const SiftCandidate& c = out.at(0);
  const double sigma = candidate_sigma(75.0, 4, 1.0);
  const double snr = std::sqrt(29.0) + std::sqrt(19.0) + std::sqrt(14.0) + 3.0;
  std::string expected = format_string(
      "%-65s   %7.2f  %6.2f  %6.2f     4     %7.1f  %7.1f  %12.6f  %10.2f  %8.2f  (4)\n",
      "obs_DM10.00_ACCEL_50:1", 10.0, snr, sigma, 75.0, 50.0, 1.0 / (1000.3 / kT) * 1000.0, 1000.3,
      2.0);
  EXPECT_EQ(c.snr, snr);
  // Hits sorted by DM (the two at DM 10 in the order sifting joins them).
  std::map<double, std::vector<SiftHit>> by_dm;
  std::vector<SiftHit> hits = c.hits;
  std::stable_sort(hits.begin(), hits.end(),
                   [](const SiftHit& a, const SiftHit& b) { return a.dm < b.dm; });
  for (const SiftHit& h : hits)
    expected += format_string("  DM=%6.2f SNR=%5.2f Sigma=%5.2f   ", h.dm, h.snr, h.sigma) +
                std::string(size_t(h.sigma / 3.0), '*') + "\n";
  EXPECT_EQ(text.substr(header.size()), expected);
  // The pulsar's own hit comes first among those at DM 10 (the duplicate joined it).
  EXPECT_EQ(hits[1].sigma, sigma);
  EXPECT_LT(hits[2].sigma, sigma);
}

}  // namespace
}  // namespace rapt

namespace rapt {
namespace {

TEST(SiftAccelFile, ReadsPrestosOwnAccelFile) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_ACCEL_50");
  const AccelSiftFile f = read_accel_sift_file(path);
  EXPECT_DOUBLE_EQ(f.dm, 56.0);
  EXPECT_NEAR(f.T, 67.108864, 1e-9);
  ASSERT_EQ(f.candidates.size(), read_cand_file(path + ".cand").size());
  const SiftCandidate& pulsar = f.candidates.at(1);  // 87.077 ms, 8 harmonics
  EXPECT_EQ(pulsar.candnum, 2);
  EXPECT_EQ(pulsar.numharm, 8);
  EXPECT_DOUBLE_EQ(pulsar.r, 770.688);
  EXPECT_NEAR(pulsar.p() * 1000.0, 87.077, 0.001);
  EXPECT_EQ(pulsar.harm_pows.size(), 8u);
  EXPECT_GT(pulsar.sigma, 20.0);
}

}  // namespace
}  // namespace rapt
