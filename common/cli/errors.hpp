// Exceptions that library code throws; only a program's main turns them into an exit status.
//   DataError  -> exit 1: bad input data, unreadable or unwritable files.
//   UsageError -> exit 2: bad options or option values.
// Messages name the file and the problem, without the program name (main adds it):
//   "obs.fil: header says nbits=3; supported: 1, 2, 4, 8, 16, 32"
#pragma once
#include <stdexcept>
#include <string>

namespace rapt {

class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "path: message" — the one shape every file-related error takes.
inline DataError file_error(const std::string& path, const std::string& message) {
  return DataError(path + ": " + message);
}

// strerror(errno) as a std::string, for messages about failed system calls.
std::string errno_text();

}  // namespace rapt
