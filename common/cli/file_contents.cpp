#include "cli/file_contents.hpp"

#include <sys/stat.h>

#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/errors.hpp"

namespace rapt {

void refuse_directory(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw file_error(path, "is a directory, not a file");
}

bool standard_input_is_file() {
  struct stat st {};
  return ::fstat(0, &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<uint8_t> read_up_to(std::FILE* file, size_t count, const std::string& name) {
  std::vector<uint8_t> bytes(count);
  size_t done = 0;
  while (done < bytes.size()) {
    const size_t got = std::fread(bytes.data() + done, 1, bytes.size() - done, file);
    if (got == 0) break;
    done += got;
  }
  if (done < bytes.size() && std::ferror(file)) throw file_error(name, "cannot read: " + errno_text());
  bytes.resize(done);
  return bytes;
}

std::string read_file_contents(const std::string& path) {
  refuse_directory(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw file_error(path, "cannot open: " + errno_text());
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) throw file_error(path, "read failed: " + errno_text());
  return contents.str();
}

std::string format_string(const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  const int length = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (length < 0) return "";
  if (length < static_cast<int>(sizeof buffer)) return std::string(buffer, length);
  std::string big(static_cast<size_t>(length) + 1, '\0');
  va_start(args, format);
  std::vsnprintf(big.data(), big.size(), format, args);
  va_end(args);
  big.resize(static_cast<size_t>(length));
  return big;
}

}  // namespace rapt
