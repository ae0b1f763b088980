// Small CFITSIO helpers shared by the UVFITS and FITS image readers and writers: an owning
// handle, status-to-text errors, optional header keys, and an output written under a temporary
// name in the destination directory and renamed into place only when complete.
#pragma once
#include <fitsio.h>

#include <cstddef>
#include <optional>
#include <string>

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
  FitsHandle(FitsHandle&& other) noexcept : fits_(other.fits_) { other.fits_ = nullptr; }
  FitsHandle& operator=(FitsHandle&&) = delete;
  fitsfile* get() const { return fits_; }
  fitsfile* release() {
    fitsfile* f = fits_;
    fits_ = nullptr;
    return f;
  }

 private:
  fitsfile* fits_ = nullptr;
};

// Opens `path` read-only; DataError naming the file when it cannot.
FitsHandle open_fits_readonly(const std::string& path);
// Opens a FITS file held in memory (which must outlive the handle); `name` is used in errors.
FitsHandle open_fits_memory(const void* data, size_t size, const std::string& name);

// Header keys of the current HDU; nullopt when absent (or of the wrong type).
std::optional<std::string> fits_string_key(fitsfile* fits, const char* key);
std::optional<double> fits_double_key(fitsfile* fits, const char* key);
std::optional<long long> fits_int_key(fitsfile* fits, const char* key);

// Upper case, trailing blanks removed ("UU---SIN " -> "UU---SIN").
std::string fits_normalised_name(const std::string& text);

// A FITS file created under "<dir>/.<name>.tmp.<pid>.<n>" and renamed to its final name by
// commit(); if the object dies first, the temporary is closed and removed.
class FitsOutputFile {
 public:
  // DataError when `path` exists and !overwrite, or the temporary cannot be created.
  FitsOutputFile(std::string path, bool overwrite);
  ~FitsOutputFile();
  FitsOutputFile(const FitsOutputFile&) = delete;
  FitsOutputFile& operator=(const FitsOutputFile&) = delete;

  fitsfile* get() const { return fits_; }
  const std::string& path() const { return path_; }
  // Throws DataError "path: <what>: <CFITSIO text>" when status is non-zero.
  void check(int status, const std::string& what) const;
  void commit();  // closes (flushing) and renames; DataError on failure

 private:
  std::string path_;
  std::string temp_path_;
  fitsfile* fits_ = nullptr;
};

}  // namespace rapt
