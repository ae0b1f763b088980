#include "cli/atomic_output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "cli/errors.hpp"

namespace rapt {

std::string errno_text() { return std::strerror(errno); }

bool path_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

namespace {
std::string temporary_name_for(const std::string& path) {
  static std::atomic<unsigned> counter{0};  // distinct names for outputs open at once
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return dir + "." + base + ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(counter++);
}
}  // namespace

AtomicOutputFile::AtomicOutputFile(std::string path, bool overwrite) : path_(std::move(path)) {
  if (!overwrite && path_exists(path_))
    throw file_error(path_, "already exists (use --force to overwrite)");
  temp_path_ = temporary_name_for(path_);
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (!file_) throw file_error(path_, "cannot create: " + errno_text());
}

AtomicOutputFile::AtomicOutputFile(AtomicOutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      file_(other.file_),
      committed_(other.committed_) {
  other.file_ = nullptr;
  other.committed_ = true;
}

AtomicOutputFile::~AtomicOutputFile() {
  if (committed_) return;
  if (file_) std::fclose(file_);
  if (!temp_path_.empty()) std::remove(temp_path_.c_str());
}

void AtomicOutputFile::write(const void* data, size_t bytes) {
  if (bytes == 0) return;
  if (std::fwrite(data, 1, bytes, file_) != bytes)
    throw file_error(path_, "write failed: " + errno_text());
}

void AtomicOutputFile::commit() {
  const bool write_error = std::ferror(file_) != 0;
  const bool close_error = std::fclose(file_) != 0;
  file_ = nullptr;
  if (write_error || close_error) throw file_error(path_, "write failed: " + errno_text());
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw file_error(path_, "cannot rename temporary file into place: " + errno_text());
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& contents,
                           bool overwrite) {
  AtomicOutputFile out(path, overwrite);
  out.write(contents);
  out.commit();
}

}  // namespace rapt
