// accelgpu's and harmsum's --part K/N (which inputs a part searches) and --device lists (the
// inputs split over several GPUs, each output the same bytes as one GPU writes). The GPU
// comparisons run the search twice on GPU 0 (gpu:0,0: two parts on one device) and are skipped
// without a GPU.
#include <gtest/gtest.h>

#include <dirent.h>

#include <map>
#include <string>
#include <vector>

#include "accel/accel_options.hpp"
#include "accel/accel_run.hpp"
#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "gpu_device.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

struct AccelCommand {
  ParsedOptions args;
  AccelRunOptions run;
};

// The command line as accelgpu (or harmsum, without acceleration) reads it.
AccelCommand parse_accel(std::vector<std::string> words, bool with_acceleration = true) {
  const char* program = with_acceleration ? "accelgpu" : "harmsum";
  auto options = program_options(program, "test");
  add_accel_options(options, with_acceleration);
  options.parse_positional({"files"});
  words.insert(words.begin(), program);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  AccelCommand command{parse_options(options, int(argv.size()), argv.data(),
                                     accel_presto_option_names(with_acceleration)),
                       {}};
  command.run = read_accel_options(command.args.result, command.args.positional,
                                   with_acceleration);
  return command;
}

std::vector<std::string> part_files(const std::string& part,
                                    const std::vector<std::string>& files) {
  std::vector<std::string> words = {"--part", part};
  words.insert(words.end(), files.begin(), files.end());
  return accel_part_files(parse_accel(words).run);
}

using Files = std::vector<std::string>;

TEST(AccelPart, SelectsAContiguousBalancedRunOfTheFilesInTheOrderGiven) {
  const Files abc = {"c.fft", "a.fft", "b.fft"};
  EXPECT_EQ(part_files("1/1", abc), abc);
  EXPECT_EQ(part_files("1/2", abc), (Files{"c.fft", "a.fft"}));
  EXPECT_EQ(part_files("2/2", abc), (Files{"b.fft"}));
  EXPECT_EQ(part_files("2/3", abc), (Files{"a.fft"}));
  EXPECT_EQ(part_files("3/4", abc), (Files{"b.fft"}));
  EXPECT_EQ(part_files("4/4", abc), Files{});
  EXPECT_EQ(accel_part_files(parse_accel(abc).run), abc);  // no --part: every file
  const Files seven = {"1", "2", "3", "4", "5", "6", "7"};
  Files joined;
  for (const char* part : {"1/3", "2/3", "3/3"}) {
    const Files piece = part_files(part, seven);
    EXPECT_GE(piece.size(), 2u);
    EXPECT_LE(piece.size(), 3u);
    joined.insert(joined.end(), piece.begin(), piece.end());
  }
  EXPECT_EQ(joined, seven);  // the parts together are the whole job, once
}

TEST(AccelPart, HarmsumReadsPartAndDeviceListsToo) {
  const AccelCommand command =
      parse_accel({"--part", "2/5", "--device", "gpu:0,1", "x.fft"}, false);
  EXPECT_EQ(command.run.part.index, 2);
  EXPECT_EQ(command.run.part.count, 5);
  EXPECT_EQ(command.run.device, "gpu:0,1");
}

TEST(AccelPart, ABadPartIsAUsageErrorNamingPart) {
  for (const char* part : {"0/2", "3/2", "1/0", "2", "1-2", "x/2", "1/2/3", ""}) {
    try {
      parse_accel({"--part", part, "a.fft"});
      ADD_FAILURE() << "--part '" << part << "' was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--part"), std::string::npos) << e.what();
    }
  }
}

TEST(AccelPart, AnEmptyPartDoesNothingSaysSoAndSucceeds) {
  // The files do not exist: a part that holds none of them never opens them.
  AccelCommand command = parse_accel({"--device", "cpu", "--part", "3/3", "x.fft", "y.fft"});
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run_accel_inputs(command.run, command.args), 0);
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("part 3/3"), std::string::npos) << said;
  EXPECT_NE(said.find("nothing to do"), std::string::npos) << said;

  AccelCommand quiet =
      parse_accel({"-q", "--device", "cpu", "--part", "3/3", "x.fft", "y.fft"});
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run_accel_inputs(quiet.run, quiet.args), 0);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST(AccelDevices, AMalformedDeviceListIsAUsageErrorBeforeAnyInputIsRead) {
  for (const char* device : {"gpu:0,", "gpu:,1", "gpu:0,x", "cpu,gpu", "gpu:all,0"}) {
    AccelCommand command = parse_accel({"-q", "--device", device, "missing.fft"});
    EXPECT_THROW(run_accel_inputs(command.run, command.args), UsageError) << device;
  }
  if (gpu_device_count() == 0) {  // no GPU to split over: the usual refusal
    AccelCommand command = parse_accel({"-q", "--device", "gpu:0,0", "missing.fft"});
    EXPECT_THROW(run_accel_inputs(command.run, command.args), UsageError);
  }
}

// Three inputs in `dir` from PRESTO's golden series: two spectra and a time series (a
// different one, so the three searches differ). Returns their paths, or an empty list when the
// shared data is missing.
Files make_inputs(const testing::ScratchDir& dir) {
  const std::string fft = testing::shared_data_file("presto-golden/test_DM56.00.fft");
  const std::string inf = testing::shared_data_file("presto-golden/test_DM56.00.inf");
  const std::string pd_dat = testing::shared_data_file("presto-golden/pd_DM56.00.dat");
  const std::string pd_inf = testing::shared_data_file("presto-golden/pd_DM56.00.inf");
  if (fft.empty() || inf.empty() || pd_dat.empty() || pd_inf.empty()) return {};
  const std::string spectrum = testing::read_whole_file(fft);
  const std::string header = testing::read_whole_file(inf);
  testing::write_whole_file(dir.file("a_DM1.00.fft"), spectrum);
  testing::write_whole_file(dir.file("a_DM1.00.inf"), header);
  testing::write_whole_file(dir.file("b_DM2.00.fft"), spectrum);
  testing::write_whole_file(dir.file("b_DM2.00.inf"), header);
  testing::write_whole_file(dir.file("c_DM3.00.dat"), testing::read_whole_file(pd_dat));
  testing::write_whole_file(dir.file("c_DM3.00.inf"), testing::read_whole_file(pd_inf));
  return {dir.file("a_DM1.00.fft"), dir.file("b_DM2.00.fft"), dir.file("c_DM3.00.dat")};
}

// Every file in `dir` that is not an input, by name, with its bytes.
std::map<std::string, std::string> outputs(const testing::ScratchDir& dir) {
  std::map<std::string, std::string> found;
  DIR* d = opendir(dir.path().c_str());
  if (!d) return found;
  while (const dirent* entry = readdir(d)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (name.size() > 4 && (name.rfind(".fft") == name.size() - 4 ||
                            name.rfind(".dat") == name.size() - 4 ||
                            name.rfind(".inf") == name.size() - 4))
      continue;
    found[name] = testing::read_whole_file(dir.file(name));
  }
  closedir(d);
  return found;
}

std::map<std::string, std::string> run_and_collect(const testing::ScratchDir& dir,
                                                   std::vector<std::string> words,
                                                   const Files& inputs,
                                                   bool with_acceleration = true,
                                                   const AccelInputHook& hook = {}) {
  words.insert(words.end(), {"-q", "--force", "--threads", "2"});
  words.insert(words.end(), inputs.begin(), inputs.end());
  AccelCommand command = parse_accel(words, with_acceleration);
  run_accel_inputs(command.run, command.args, hook);
  return outputs(dir);
}

// On the CPU: the parts of a job write exactly the files one run over all the inputs writes.
TEST(AccelPart, PartsTogetherWriteTheFilesOfOneWholeRun) {
  testing::ScratchDir dir;
  const Files inputs = make_inputs(dir);
  if (inputs.empty()) GTEST_SKIP() << "shared data not found (presto-golden)";
  const auto first = run_and_collect(dir, {"--device", "cpu", "-zmax", "0", "--part", "1/2"},
                                     inputs);
  EXPECT_EQ(first.count("a_DM1.00_ACCEL_0"), 1u);
  EXPECT_EQ(first.count("b_DM2.00_ACCEL_0"), 1u);
  EXPECT_EQ(first.count("c_DM3.00_ACCEL_0"), 0u) << "part 1/2 searched the third input";
  const auto both = run_and_collect(dir, {"--device", "cpu", "-zmax", "0", "--part", "2/2"},
                                    inputs);
  EXPECT_EQ(both.count("c_DM3.00_ACCEL_0"), 1u);
  const auto whole = run_and_collect(dir, {"--device", "cpu", "-zmax", "0"}, inputs);
  EXPECT_EQ(whole, both);
}

#define RAPT_REQUIRE_GPU() \
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU: the device split is not tested here"

void expect_same_outputs(const std::map<std::string, std::string>& one,
                         const std::map<std::string, std::string>& split,
                         const std::string& what) {
  ASSERT_EQ(one.size(), split.size()) << what;
  for (const auto& [name, bytes] : one) {
    const auto other = split.find(name);
    ASSERT_NE(other, split.end()) << what << ": no " << name;
    EXPECT_TRUE(other->second == bytes) << what << ": " << name << " differs";
  }
}

TEST(AccelDevicesGpu, TwoPartsOnOneGpuWriteTheSameFilesAsOneGpu) {
  RAPT_REQUIRE_GPU();
  testing::ScratchDir dir;
  const Files inputs = make_inputs(dir);
  if (inputs.empty()) GTEST_SKIP() << "shared data not found (presto-golden)";
  const auto one = run_and_collect(dir, {"--device", "gpu:0", "-zmax", "50"}, inputs);
  ASSERT_EQ(one.count("c_DM3.00_ACCEL_50"), 1u);
  ASSERT_EQ(one.count("a_DM1.00_ACCEL_50.txtcand"), 1u);
  for (const char* device : {"gpu:0,0", "gpu:0,0,0", "gpu:0,0,0,0"}) {
    const auto split = run_and_collect(dir, {"--device", device, "-zmax", "50"}, inputs);
    expect_same_outputs(one, split, device);
  }
}

TEST(AccelDevicesGpu, HarmsumOnTwoPartsOfOneGpuWritesTheSameFilesAsOneGpu) {
  RAPT_REQUIRE_GPU();
  testing::ScratchDir dir;
  const Files inputs = make_inputs(dir);
  if (inputs.empty()) GTEST_SKIP() << "shared data not found (presto-golden)";
  const auto one = run_and_collect(dir, {"--device", "gpu:0", "-numharm", "16"}, inputs, false);
  ASSERT_EQ(one.count("b_DM2.00_ACCEL_0"), 1u);
  const auto split =
      run_and_collect(dir, {"--device", "gpu:0,0", "-numharm", "16"}, inputs, false);
  expect_same_outputs(one, split, "harmsum gpu:0,0");
  // With --part on top: part 1/2's files split again over the two parts of the GPU.
  testing::ScratchDir part_dir;
  const Files part_inputs = make_inputs(part_dir);
  const auto part = run_and_collect(part_dir,
                                    {"--device", "gpu:0,0", "-numharm", "16", "--part", "1/2"},
                                    part_inputs, false);
  EXPECT_EQ(part.count("a_DM1.00_ACCEL_0"), 1u);
  EXPECT_EQ(part.count("b_DM2.00_ACCEL_0"), 1u);
  EXPECT_EQ(part.count("c_DM3.00_ACCEL_0"), 0u);
}

TEST(AccelDevicesGpu, AFailingInputStopsTheRunWithItsErrorAndLeavesNoTemporaries) {
  RAPT_REQUIRE_GPU();
  testing::ScratchDir dir;
  Files inputs = make_inputs(dir);
  if (inputs.empty()) GTEST_SKIP() << "shared data not found (presto-golden)";
  // The second input has no .inf.
  testing::write_whole_file(dir.file("bad_DM9.00.fft"), testing::read_whole_file(inputs[0]));
  inputs.insert(inputs.begin() + 1, dir.file("bad_DM9.00.fft"));
  AccelCommand command = parse_accel(
      {"-q", "--device", "gpu:0,0", "-zmax", "50", inputs[0], inputs[1], inputs[2], inputs[3]});
  try {
    run_accel_inputs(command.run, command.args);
    ADD_FAILURE() << "a missing .inf was not reported";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("bad_DM9.00"), std::string::npos) << e.what();
  }
  for (const auto& [name, bytes] : outputs(dir)) {
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << "left a temporary: " << name;
    EXPECT_EQ(name.find("bad_DM9.00_ACCEL"), std::string::npos) << "wrote " << name;
  }
}

}  // namespace
}  // namespace rapt
