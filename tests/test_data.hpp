// Test helpers: paths to the shared validation data and scratch directories.
#pragma once
#include <gtest/gtest.h>

#include <string>

namespace rapt::testing {

// Directory of the shared validation data: $RAPT_SHARED_DATA, else ../shared/data relative to
// the repository root. Empty if it is not there.
std::string shared_data_dir();

// Full path of a file under the shared data directory, or "" if it is missing.
std::string shared_data_file(const std::string& relative);

// A fresh empty directory for one test, removed when the object dies.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string read_whole_file(const std::string& path);
void write_whole_file(const std::string& path, const std::string& contents);

}  // namespace rapt::testing

// Skips the current test with a message when a shared data file is missing.
#define RAPT_REQUIRE_SHARED_FILE(var, relative)                                      \
  const std::string var = ::rapt::testing::shared_data_file(relative);               \
  if (var.empty()) GTEST_SKIP() << "shared data not found: " << (relative)           \
                                << " (set RAPT_SHARED_DATA or place ../shared/data)"
