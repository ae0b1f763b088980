// sift's command line: every option reaches its setting, and options of the other kind of
// input are refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "sift/sift_options.hpp"

namespace rapt {
namespace {

SiftRunOptions parse_sift(std::vector<std::string> words) {
  auto options = program_options("sift", "test");
  add_sift_options(options);
  options.parse_positional({"files"});
  words.insert(words.begin(), "sift");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  const ParsedOptions args = parse_options(options, int(argv.size()), argv.data());
  return read_sift_options(args.result, args.positional);
}

TEST(SiftOptions, EveryAccelOptionReachesItsSetting) {
  const SiftRunOptions o = parse_sift(
      {"--sigma", "5.5", "--c-pow-threshold", "150", "--harm-pow-cutoff", "6", "--r-err", "2.2",
       "--min-period", "0.001", "--max-period", "10", "--min-numharm", "2", "--min-num-dms", "3",
       "--low-dm-cutoff", "4", "-o", "out.txt", "obs_DM10.00_ACCEL_50"});
  EXPECT_EQ(o.kind, SiftInputKind::kAccel);
  EXPECT_EQ(o.accel.sigma_threshold, 5.5);
  EXPECT_EQ(o.accel.c_pow_threshold, 150.0);
  EXPECT_EQ(o.accel.harm_pow_cutoff, 6.0);
  EXPECT_EQ(o.accel.r_err, 2.2);
  EXPECT_EQ(o.accel.min_period_s, 0.001);
  EXPECT_EQ(o.accel.max_period_s, 10.0);
  EXPECT_EQ(o.accel.min_numharm, 2);
  EXPECT_EQ(o.accel.min_num_dms, 3);
  EXPECT_EQ(o.accel.low_dm_cutoff, 4.0);
  EXPECT_EQ(o.output, "out.txt");
}

TEST(SiftOptions, EverySinglePulseOptionReachesItsSetting) {
  const SiftRunOptions o =
      parse_sift({"--cluster-dm-trials", "4", "--cluster-gap", "7", "--cluster-width-ratio", "3",
                  "--cands", "c.txt", "a_DM1.00.singlepulse"});
  EXPECT_EQ(o.kind, SiftInputKind::kSinglePulse);
  EXPECT_EQ(o.cluster.dm_trials, 4);
  EXPECT_EQ(o.cluster.gap_samples, 7);
  EXPECT_EQ(o.cluster.width_ratio, 3.0);
  EXPECT_EQ(o.output, "c.txt");
  EXPECT_THROW(parse_sift({"--cluster-width-ratio", "0.5", "a_DM1.00.singlepulse"}), UsageError);
  EXPECT_THROW(parse_sift({"--min-period", "0.001", "a_DM1.00.singlepulse"}), UsageError);
}

}  // namespace
}  // namespace rapt
