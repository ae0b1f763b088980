#include <gtest/gtest.h>

#include <filesystem>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/program.hpp"
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

TEST(AtomicOutputFile, NamesTheFileWhenTheDirectoryIsMissing) {
  try {
    rapt::AtomicOutputFile out("/nonexistent-dir/x.dat", false);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent-dir/x.dat: cannot create:", 0), 0u) << e.what();
  }
}
