#include "test_data.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rapt::testing {

namespace fs = std::filesystem;

std::string shared_data_dir() {
  if (const char* env = std::getenv("RAPT_SHARED_DATA")) {
    if (fs::is_directory(env)) return env;
  }
  // Tests run from the repository root (make test) or from inside the build tree.
  for (const char* candidate : {"../shared/data", "../../shared/data", "../../../shared/data"}) {
    if (fs::is_directory(candidate)) return fs::absolute(candidate).lexically_normal().string();
  }
  return "";
}

std::string shared_data_file(const std::string& relative) {
  const std::string dir = shared_data_dir();
  if (dir.empty()) return "";
  const std::string path = dir + "/" + relative;
  return fs::exists(path) ? path : "";
}

ScratchDir::ScratchDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base ? base : "/tmp") + "/rapt-test-XXXXXX";
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create scratch directory");
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_whole_file(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary);
  out << contents;
}

}  // namespace rapt::testing
