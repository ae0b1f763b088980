// An output file that appears under its final name only when complete.
//
// Data goes to "<dir>/.<name>.tmp.<pid>.<n>" in the destination directory; commit() flushes,
// closes and renames it to the final name. If the object dies without commit() (an exception,
// an early return), the temporary is deleted and nothing the user had is touched.
// An existing destination is refused unless `overwrite` is set (the programs' --force, or a
// program whose PRESTO twin overwrites).
#pragma once
#include <cstdio>
#include <string>

namespace rapt {

class AtomicOutputFile {
 public:
  // Opens the temporary file; throws DataError naming `path` if it cannot (directory missing or
  // not writable), or if `path` exists and !overwrite.
  AtomicOutputFile(std::string path, bool overwrite);
  ~AtomicOutputFile();  // never throws: removes the temporary if not committed
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;
  AtomicOutputFile(AtomicOutputFile&& other) noexcept;
  AtomicOutputFile& operator=(AtomicOutputFile&&) = delete;

  void write(const void* data, size_t bytes);  // throws DataError on a short write (disk full)
  void write(const std::string& text) { write(text.data(), text.size()); }
  FILE* stream() { return file_; }             // for fprintf-style writers; errors caught at commit
  void commit();                                // flush, fsync-free close, rename; throws DataError
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string temp_path_;
  FILE* file_ = nullptr;
  bool committed_ = false;
};

// Writes `contents` to `path` atomically (convenience for small text outputs).
void write_file_atomically(const std::string& path, const std::string& contents, bool overwrite);

// True if `path` names an existing file or directory.
bool path_exists(const std::string& path);

}  // namespace rapt
