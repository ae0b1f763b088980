// Small CFITSIO helpers shared by the UVFITS and FITS image readers and writers: an owning
// handle, status-to-text errors, optional header keys, and an output written under a temporary
// name in the destination directory and renamed into place only when complete.
#pragma once
#include <fitsio.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rapt {

// "path: <what>: <CFITSIO's text for status>" as a DataError.
[[noreturn]] void throw_fits_error(const std::string& path, const std::string& what, int status);

// Owns an open fitsfile; closing never throws.
class FitsHandle {
 public:
  FitsHandle() = default;
  explicit FitsHandle(fitsfile* fits) : fits_(fits) {}
  ~FitsHandle();
  FitsHandle(const FitsHandle&) = delete;
  FitsHandle& operator=(const FitsHandle&) = delete;
  FitsHandle(FitsHandle&& other) noexcept
      : fits_(other.fits_), memory_(std::move(other.memory_)) {
    other.fits_ = nullptr;
  }
  FitsHandle& operator=(FitsHandle&&) = delete;
  fitsfile* get() const { return fits_; }

 private:
  friend FitsHandle open_fits_memory(const void*, size_t, const std::string&);
  // CFITSIO keeps pointers to a memory file's address and size for the file's whole life, so
  // both live here, on the heap, where a move does not shift them.
  struct MemoryFile {
    void* data = nullptr;
    size_t size = 0;
  };
  fitsfile* fits_ = nullptr;
  std::unique_ptr<MemoryFile> memory_;
};

// Opens `path` read-only; DataError naming the file when it cannot.
FitsHandle open_fits_readonly(const std::string& path);
// Opens a FITS file held in memory (which must outlive the handle); `name` is used in errors.
// CFITSIO reads whole 2880-byte records, so pass a buffer from fits_padded_copy().
FitsHandle open_fits_memory(const void* data, size_t size, const std::string& name);
// A copy of `size` bytes padded with zeros to a whole number of FITS records.
std::vector<char> fits_padded_copy(const void* data, size_t size);

// Header keys of the current HDU; nullopt when absent (or of the wrong type). An integer may be
// quoted ('42') or written as a real (55000.0, 5.5D4: truncated); any other value, however long,
// is nullopt rather than handed to CFITSIO's conversion.
std::optional<std::string> fits_string_key(fitsfile* fits, const char* key);
std::optional<double> fits_double_key(fitsfile* fits, const char* key);
std::optional<long long> fits_int_key(fitsfile* fits, const char* key);

// Upper case, trailing blanks removed ("UU---SIN " -> "UU---SIN").
std::string fits_normalised_name(const std::string& text);

// A FITS file created under "<dir>/.<name>.tmp.<pid>.<n>" and renamed to its final name by
// commit(); if the object dies first, the temporary is closed and removed.
class FitsOutputFile {
 public:
  // DataError when `path` exists and !overwrite, or the temporary cannot be created. Path "-"
  // is standard output: the file is made in $TMPDIR (or /tmp) and written out at commit().
  FitsOutputFile(std::string path, bool overwrite);
  ~FitsOutputFile();
  FitsOutputFile(const FitsOutputFile&) = delete;
  FitsOutputFile& operator=(const FitsOutputFile&) = delete;

  fitsfile* get() const { return fits_; }
  const std::string& path() const { return path_; }
  // Throws DataError "path: <what>: <CFITSIO text>" when status is non-zero.
  void check(int status, const std::string& what) const;
  // Closes the temporary (flushing it) without renaming it, so that several files can be
  // written first and renamed together; DataError on failure.
  void close();
  void commit();  // closes (flushing), if not yet closed, and renames; DataError on failure

 private:
  void copy_to_standard_output();
  std::string path_;
  std::string temp_path_;
  fitsfile* fits_ = nullptr;
  int pending_slot_ = -1;  // the temporary in the table a signal handler cleans up
  bool temporary_gone_ = false;  // renamed into place or copied out and removed
};

}  // namespace rapt
