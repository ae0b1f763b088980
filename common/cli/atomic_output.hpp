// An output file that appears under its final name only when complete.
//
// Data goes to "<dir>/.<name>.tmp.<pid>.<n>" in the destination directory; commit() flushes,
// closes and renames it to the final name. If the object dies without commit() (an exception,
// an early return), the temporary is deleted and nothing the user had is touched.
// An existing destination is refused unless `overwrite` is set (the programs' --force, or a
// program whose PRESTO twin overwrites).
// Every temporary is also entered in a table of pending temporaries that the handler
// run_program() installs for SIGINT, SIGTERM and SIGHUP removes before the program dies, so an
// interrupted program leaves neither a partial file nor a temporary behind.
#pragma once
#include <cstdio>
#include <string>

namespace rapt {

// Whether two paths name one existing file or directory (the same device and inode).
bool same_existing_file(const std::string& a, const std::string& b);

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
  int pending_slot_ = -1;  // entry in the table of pending temporaries, -1 if none
};

// The table of pending temporaries, for writers that cannot go through AtomicOutputFile (a
// library that writes to a file name itself). Entering a path returns its slot, or -1 when the
// table is full or the path too long (the file is then only removed by its owner's cleanup).
int enter_pending_temporary(const std::string& temp_path);
void leave_pending_temporary(int slot);  // -1 is ignored
// Removes every pending temporary, file or directory tree. Async-signal-safe: for signal
// handlers.
void remove_pending_temporaries() noexcept;

// Enters a temporary for its lifetime: create before the file is opened, destroy (or release())
// after it was renamed into place or removed.
class PendingTemporary {
 public:
  explicit PendingTemporary(const std::string& temp_path)
      : slot_(enter_pending_temporary(temp_path)) {}
  ~PendingTemporary() { release(); }
  PendingTemporary(const PendingTemporary&) = delete;
  PendingTemporary& operator=(const PendingTemporary&) = delete;
  void release() {
    leave_pending_temporary(slot_);
    slot_ = -1;
  }

 private:
  int slot_;
};

// Writes `contents` to `path` atomically (convenience for small text outputs).
void write_file_atomically(const std::string& path, const std::string& contents, bool overwrite);

// Throws DataError naming `path` when its directory does not exist or cannot be written in.
void check_output_directory(const std::string& path);

// Why a file (or a directory) cannot be made at `temporary`, as the system says it ("No such
// file or directory" in /proc, where the directory's permissions allow it); empty where one
// can, which the probe then removes. For libraries whose own message gives no cause.
std::string creation_failure(const std::string& temporary, bool directory);

// Throws UsageError when `output` names the file `input` (not "-"), which --force would
// otherwise replace while it is read: "-o OUT is the input itself: <remedy>".
void refuse_input_as_output(const std::string& output, const std::string& input,
                            const std::string& remedy);

// Throws DataError naming `path` when its directory does not exist or cannot be written in,
// when it exists and !overwrite, or when it exists and is not a regular file (a device, a pipe,
// a directory), which an output renamed into place would replace.
void check_replaceable_output(const std::string& path, bool overwrite);

// True if `path` names an existing file or directory.
bool path_exists(const std::string& path);

}  // namespace rapt
