// For fuzz targets whose reader takes a path (CFITSIO's disk driver): the input is written to
// a temporary file, read(path) runs on it, and the file is removed. Inputs that cannot be
// written are skipped.
#pragma once
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace rapt::fuzzing {

template <typename Read>
void with_temp_file(const uint8_t* data, size_t size, Read&& read) {
  char path[] = "/tmp/rapt_fuzz_XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return;
  const bool written = ::write(fd, data, size) == static_cast<ssize_t>(size);
  ::close(fd);
  if (written) read(std::string(path));
  ::unlink(path);
}

}  // namespace rapt::fuzzing
