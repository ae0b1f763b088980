#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/program.hpp"
#include "cli/vdif_options.hpp"
#include "test_data.hpp"

using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;

TEST(PrestoStyleArguments, RewritesKnownSingleDashNames) {
  const auto out = rapt::presto_style_arguments({"-zmax", "200", "-numharm=16", "-v", "-x", "f.fft"},
                                                {"zmax", "numharm"});
  const std::vector<std::string> expected{"--zmax", "200", "--numharm=16", "-v", "-x", "f.fft"};
  EXPECT_EQ(out, expected);
}

TEST(PrestoStyleArguments, LeavesNegativeNumbersAndDoubleDashAlone) {
  const auto out = rapt::presto_style_arguments({"--zmax", "-5", "-", "-2.5"}, {"zmax"});
  const std::vector<std::string> expected{"--zmax", "-5", "-", "-2.5"};
  EXPECT_EQ(out, expected);
}

TEST(FileContents, RefusesADirectoryByName) {
  ScratchDir dir;
  try {
    rapt::read_file_contents(dir.path());
    FAIL() << "a directory was read as a file";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), dir.path() + ": is a directory, not a file");
  }
}

// The VDIF options as a program parses them.
rapt::VdifReadOptions parsed_vdif_options(std::vector<std::string> args) {
  cxxopts::Options options("prog", "");
  rapt::add_vdif_options(options, "VDIF");
  args.insert(args.begin(), "prog");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return rapt::vdif_options_from(options.parse(int(argv.size()), argv.data()));
}

TEST(VdifOptions, SayWhatTheFramesDoNot) {
  const rapt::VdifReadOptions none = parsed_vdif_options({});
  EXPECT_EQ(none.sample_rate_hz, 0);
  EXPECT_EQ(none.centre_freq_mhz, 0);
  EXPECT_FALSE(none.lower_sideband);
  EXPECT_FALSE(none.twos_complement);
  const rapt::VdifReadOptions all = parsed_vdif_options(
      {"--vdif-rate", "1.28e6", "--vdif-freq", "184.96", "--vdif-lsb", "--vdif-signed"});
  EXPECT_EQ(all.sample_rate_hz, 1.28e6);
  EXPECT_EQ(all.centre_freq_mhz, 184.96);
  EXPECT_TRUE(all.lower_sideband);
  EXPECT_TRUE(all.twos_complement);
  EXPECT_THROW(parsed_vdif_options({"--vdif-freq", "-5"}), rapt::UsageError);
  EXPECT_THROW(parsed_vdif_options({"--vdif-rate", "-1"}), rapt::UsageError);
}

TEST(RunProgram, NamesTheOptionWhoseValueFailsToParse) {
  std::vector<std::string> args = {"prog", "--count", "abc"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  ::testing::internal::CaptureStderr();
  const int status = rapt::run_program("prog", [&] {
    cxxopts::Options options = rapt::program_options("prog", "a test");
    options.add_options()("count", "a number", cxxopts::value<int>()->default_value("1"));
    const rapt::ParsedOptions parsed = rapt::parse_options(options, int(argv.size()), argv.data());
    return parsed.result["count"].as<int>();
  });
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("prog: --count: Argument ", 0), 0u) << err;
  EXPECT_NE(err.find("abc"), std::string::npos) << err;
  // "--seed -8" failed, not "--count 8", whose value is the end of the other's.
  std::vector<std::string> args2 = {"prog", "--count", "8", "--seed", "-8"};
  std::vector<char*> argv2;
  for (std::string& a : args2) argv2.push_back(a.data());
  ::testing::internal::CaptureStderr();
  rapt::run_program("prog", [&] {
    cxxopts::Options options = rapt::program_options("prog", "a test");
    options.add_options()("count", "a number", cxxopts::value<int>()->default_value("1"))(
        "seed", "a seed", cxxopts::value<unsigned>()->default_value("1"));
    return rapt::parse_options(options, int(argv2.size()), argv2.data()).result["count"].as<int>();
  });
  const std::string err2 = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err2.rfind("prog: --seed: Argument ", 0), 0u) << err2;
}

// A word given one dash is read by cxxopts as one-letter options: the error names the word,
// and says where it is a long option given one dash, whether its first letter is no option
// (-zmax) or one that takes a value (-threads as -t "hreads").
TEST(RunProgram, NamesALongOptionGivenOneDashAndShortOptionsWhoseValueFails) {
  auto run = [](const std::vector<std::string>& given) {
    std::vector<std::string> args = {"prog"};
    args.insert(args.end(), given.begin(), given.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    ::testing::internal::CaptureStderr();
    const int status = rapt::run_program("prog", [&] {
      cxxopts::Options options = rapt::program_options("prog", "a test");
      options.add_options()("t,threshold", "sigma", cxxopts::value<double>()->default_value("6"))(
          "threads", "CPU threads", cxxopts::value<int>()->default_value("0"));
      const rapt::ParsedOptions parsed = rapt::parse_options(options, int(argv.size()), argv.data());
      return int(parsed.result["threshold"].as<double>());
    });
    return std::make_pair(status, ::testing::internal::GetCapturedStderr());
  };
  auto [status, err] = run({"-threads", "2"});
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("prog: -threads: long options take two dashes (--threads)\n", 0), 0u) << err;
  std::tie(status, err) = run({"-threads=2"});
  EXPECT_EQ(err.rfind("prog: -threads=2: long options take two dashes (--threads=2)\n", 0), 0u)
      << err;
  std::tie(status, err) = run({"-zmax", "0"});
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("prog: -zmax: no such option\n", 0), 0u) << err;
  std::tie(status, err) = run({"-thx"});  // -t with the value "hx"
  EXPECT_EQ(err.rfind("prog: -thx: no such option\n", 0), 0u) << err;
  // A letter and a number are that option and its value; a bad one is put down to it.
  std::tie(status, err) = run({"-t4x"});
  EXPECT_EQ(err.rfind("prog: --threshold: '4x' is not a number\n", 0), 0u) << err;
  // A bad value of another option is put down to it, not to the good "-t4" beside it.
  std::tie(status, err) = run({"-t4", "--threads", "x"});
  EXPECT_EQ(err.rfind("prog: --threads: Argument ", 0), 0u) << err;
  std::tie(status, err) = run({"-t", "abc"});
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("prog: -t: Argument ", 0), 0u) << err;
  std::tie(status, err) = run({"-t", "7", "--threads", "2"});
  EXPECT_EQ(status, 7) << err;
}

TEST(RunProgram, RefusesAFloatingPointValueWithJunkAfterTheNumber) {
  // cxxopts alone would read "10mJy" as 10 and "1,5" as 1.
  auto run = [](const std::vector<std::string>& given, double* value) {
    std::vector<std::string> args = {"prog"};
    args.insert(args.end(), given.begin(), given.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    ::testing::internal::CaptureStderr();
    const int status = rapt::run_program("prog", [&] {
      cxxopts::Options options = rapt::program_options("prog", "a test");
      options.add_options()("threshold", "Jy", cxxopts::value<double>()->default_value("0"))(
          "gain", "loop gain", cxxopts::value<float>()->default_value("0.1"))(
          "scale", "an angle with its unit", cxxopts::value<std::string>());
      const rapt::ParsedOptions parsed = rapt::parse_options(options, int(argv.size()), argv.data());
      *value = parsed.result["threshold"].as<double>();
      return 0;
    });
    return std::make_pair(status, ::testing::internal::GetCapturedStderr());
  };
  double value = -1;
  auto [status, err] = run({"--threshold", "10mJy"}, &value);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("prog: --threshold: '10mJy' is not a number\n", 0), 0u) << err;
  std::tie(status, err) = run({"--gain=1,5"}, &value);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("prog: --gain: '1,5' is not a number\n", 0), 0u) << err;
  // Whole numbers in any strtod form pass, as do strings with units.
  std::tie(status, err) = run({"--threshold", "2.5e-3", "--gain", "0.2", "--scale", "20asec"}, &value);
  EXPECT_EQ(status, 0) << err;
  EXPECT_DOUBLE_EQ(value, 2.5e-3);
  // Quiet and verbose at once ask for two things.
  std::tie(status, err) = run({"-q", "-v"}, &value);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("prog: give -q (--quiet) or -v (--verbose), not both\n", 0), 0u) << err;
}

TEST(AtomicOutputFile, AppearsOnlyAfterCommit) {
  ScratchDir dir;
  const std::string path = dir.file("out.txt");
  {
    rapt::AtomicOutputFile out(path, false);
    out.write("hello");
    EXPECT_FALSE(rapt::path_exists(path));
    out.commit();
  }
  EXPECT_EQ(read_whole_file(path), "hello");
}

TEST(AtomicOutputFile, LeavesNothingWhenAbandoned) {
  ScratchDir dir;
  const std::string path = dir.file("out.txt");
  { rapt::AtomicOutputFile out(path, false); out.write("partial"); }
  EXPECT_FALSE(rapt::path_exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(AtomicOutputFile, RefusesToOverwriteWithoutForce) {
  ScratchDir dir;
  const std::string path = dir.file("keep.txt");
  rapt::write_file_atomically(path, "precious", false);
  try {
    rapt::AtomicOutputFile out(path, false);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": already exists (use --force to overwrite)");
  }
  rapt::write_file_atomically(path, "replaced", true);
  EXPECT_EQ(read_whole_file(path), "replaced");
}

// The system's reason a file or directory cannot be made, for libraries that give none; where
// one can be made, nothing is said and nothing is left.
TEST(AtomicOutputFile, CreationFailureGivesTheSystemsReason) {
  EXPECT_EQ(rapt::creation_failure("/nonexistent-dir/x.tmp", false), "No such file or directory");
  EXPECT_EQ(rapt::creation_failure("/nonexistent-dir/x.tmp", true), "No such file or directory");
  ScratchDir dir;
  EXPECT_EQ(rapt::creation_failure(dir.file("x.tmp"), false), "");
  EXPECT_EQ(rapt::creation_failure(dir.file("y.tmp"), true), "");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  rapt::write_file_atomically(dir.file("taken"), "kept", false);
  EXPECT_EQ(rapt::creation_failure(dir.file("taken"), false), "File exists");
  EXPECT_EQ(read_whole_file(dir.file("taken")), "kept");
}

TEST(AtomicOutputFile, NamesTheFileWhenTheDirectoryIsMissing) {
  try {
    rapt::AtomicOutputFile out("/nonexistent-dir/x.dat", false);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent-dir/x.dat: cannot create:", 0), 0u) << e.what();
  }
}
