// Small helpers every format module needs: a whole file as bytes, and printf into a string.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace rapt {

// The whole file as bytes; throws DataError "path: cannot open: <reason>" or "read failed".
std::string read_file_contents(const std::string& path);

// Up to `count` bytes from `file` (fewer where it ends), as a format is told from a stream's
// first bytes; throws DataError "name: cannot read: <reason>" on a read error.
std::vector<uint8_t> read_up_to(std::FILE* file, size_t count, const std::string& name);

// Whether standard input is a regular file (redirected with <), which can be opened again from
// its start as /dev/stdin, rather than a pipe or a terminal, read once.
bool standard_input_is_file();

// Throws DataError "path: is a directory, not a file" if it is one (a directory opens and
// reads as an empty file, which would hide the mistake).
void refuse_directory(const std::string& path);

// printf-style formatting into a std::string, of any length.
std::string format_string(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace rapt
