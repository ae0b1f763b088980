#include "io/uvfits_cfitsio.hpp"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "io/fits_header_value.hpp"
#include "io/header_validation.hpp"

namespace rapt {

void throw_fits_error(const std::string& path, const std::string& what, int status) {
  char text[FLEN_STATUS] = {0};
  fits_get_errstatus(status, text);
  fits_clear_errmsg();  // CFITSIO keeps a message stack; ours is the exception
  throw file_error(path, what + ": " + text);
}

FitsHandle::~FitsHandle() {
  if (!fits_) return;
  int status = 0;
  fits_close_file(fits_, &status);
}

namespace {

// The header starting `offset` bytes into a FITS file held in memory, checked as
// require_ascii_fits_header checks one on disk. A header cut short is left for CFITSIO.
void require_ascii_memory_header(const char* data, size_t size, const std::string& name,
                                 size_t offset, int hdu) {
  constexpr size_t kCard = 80;
  for (size_t card = offset; card + kCard <= size; card += kCard) {
    for (size_t i = 0; i < kCard; ++i) {
      const unsigned char c = static_cast<unsigned char>(data[card + i]);
      if (c < 0x20 || c > 0x7e)
        throw file_error(name, "header of HDU " + std::to_string(hdu) +
                                   " holds a byte that is not printable ASCII (not FITS)");
    }
    if (std::memcmp(data + card, "END     ", 8) == 0) return;
  }
}

// CFITSIO copies some header values into fixed buffers without checking their length once
// they hold bytes that are not printable ASCII (an abort, not an error status). So every HDU
// header is checked before CFITSIO first moves to it: `check(offset, hdu)` throws for a bad
// one. The walk stops quietly where CFITSIO cannot go on (a cut or damaged file), leaving that
// for the reader to report, and ends back at the primary HDU.
template <typename Check>
void check_every_header(fitsfile* fits, const std::string& name, long long file_bytes,
                        const Check& check) {
  for (int hdu = 1;; ++hdu) {
    LONGLONG header_start = 0, data_start = 0, data_end = 0;
    int status = 0;
    if (fits_get_hduaddrll(fits, &header_start, &data_start, &data_end, &status) != 0 ||
        data_end >= file_bytes)
      break;
    check(data_end, hdu + 1);
    if (fits_movabs_hdu(fits, hdu + 1, nullptr, &status) != 0) break;
  }
  fits_clear_errmsg();
  int status = 0;
  if (fits_movabs_hdu(fits, 1, nullptr, &status) != 0)
    throw_fits_error(name, "cannot return to the primary HDU", status);
}

// A primary header begins "SIMPLE  "; anything else CFITSIO refuses at its first card, and
// says so ("cannot open as FITS").
bool starts_as_fits(const char* start, size_t size) {
  return size >= 8 && std::memcmp(start, "SIMPLE  ", 8) == 0;
}

// The size of the file at `path`; `start` receives its first 8 bytes (fewer for a tiny file).
long long disk_file_bytes(const std::string& path, std::string& start) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw file_error(path, "cannot open: " + errno_text());
  char head[8];
  start.assign(head, std::fread(head, 1, sizeof head, file));
  const bool ok = ::fseeko(file, 0, SEEK_END) == 0;
  const long long bytes = ok ? static_cast<long long>(::ftello(file)) : -1;
  std::fclose(file);
  if (bytes < 0) throw file_error(path, "cannot read the file size: " + errno_text());
  return bytes;
}

}  // namespace

FitsHandle open_fits_readonly(const std::string& path) {
  std::string start;
  const long long file_bytes = disk_file_bytes(path, start);
  if (starts_as_fits(start.data(), start.size())) require_ascii_fits_header(path, 0, 1);
  fitsfile* fits = nullptr;
  int status = 0;
  // The disk-file entry point takes the name literally: no '!' or '[...]' CFITSIO syntax.
  if (fits_open_diskfile(&fits, path.c_str(), READONLY, &status) != 0)
    throw_fits_error(path, "cannot open as FITS", status);
  FitsHandle handle(fits);
  check_every_header(fits, path, file_bytes, [&](long long offset, int hdu) {
    require_ascii_fits_header(path, offset, hdu);
  });
  return handle;
}

FitsHandle open_fits_memory(const void* data, size_t size, const std::string& name) {
  FitsHandle handle;
  handle.memory_ = std::make_unique<FitsHandle::MemoryFile>();
  handle.memory_->data = const_cast<void*>(data);  // READONLY: never written or reallocated
  handle.memory_->size = size;
  if (starts_as_fits(static_cast<const char*>(data), size))
    require_ascii_memory_header(static_cast<const char*>(data), size, name, 0, 1);
  int status = 0;
  if (fits_open_memfile(&handle.fits_, name.c_str(), READONLY, &handle.memory_->data,
                        &handle.memory_->size, 0, nullptr, &status) != 0) {
    handle.fits_ = nullptr;
    throw_fits_error(name, "cannot open as FITS", status);
  }
  check_every_header(handle.fits_, name, static_cast<long long>(size),
                     [&](long long offset, int hdu) {
                       require_ascii_memory_header(static_cast<const char*>(data), size, name,
                                                   size_t(offset), hdu);
                     });
  return handle;
}

std::vector<char> fits_padded_copy(const void* data, size_t size) {
  constexpr size_t kRecord = 2880;
  std::vector<char> copy((size + kRecord - 1) / kRecord * kRecord, '\0');
  if (size > 0) std::memcpy(copy.data(), data, size);
  return copy;
}

std::optional<std::string> fits_string_key(fitsfile* fits, const char* key) {
  char value[FLEN_VALUE] = {0};
  int status = 0;
  if (fits_read_key(fits, TSTRING, key, value, nullptr, &status) != 0) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  std::string text(value);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

std::optional<double> fits_double_key(fitsfile* fits, const char* key) {
  double value = 0;
  int status = 0;
  if (fits_read_key(fits, TDOUBLE, key, &value, nullptr, &status) != 0) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  return value;
}

// Converted by fits_integer_value, not by CFITSIO (io/fits_header_value.hpp says why).
std::optional<long long> fits_int_key(fitsfile* fits, const char* key) {
  char raw[FLEN_VALUE] = {0};
  int status = 0;
  if (fits_read_keyword(fits, key, raw, nullptr, &status) != 0) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  return fits_integer_value(raw);
}

std::string fits_normalised_name(const std::string& text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

namespace {
// Same shape as AtomicOutputFile's temporaries; the counter lives in the object that needs
// distinct names, so no function-static state is involved.
std::string fits_temporary_name(const std::string& path, const void* owner) {
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  char tag[32];
  std::snprintf(tag, sizeof tag, "%zx", reinterpret_cast<size_t>(owner) & 0xffffff);
  return dir + "." + base + ".tmp." + std::to_string(::getpid()) + "." + tag;
}
}  // namespace

FitsOutputFile::FitsOutputFile(std::string path, bool overwrite) : path_(std::move(path)) {
  if (path_ == "-") {
    // Standard output: FITS headers are finished last (NAXIS, GCOUNT), so the file is made in
    // the temporary directory and copied out whole at commit().
    const char* dir = std::getenv("TMPDIR");
    temp_path_ = fits_temporary_name(std::string(dir && *dir ? dir : "/tmp") + "/rapt-stdout.fits", this);
  } else {
    check_replaceable_output(path_, overwrite);
    temp_path_ = fits_temporary_name(path_, this);
  }
  std::remove(temp_path_.c_str());  // a stale temporary of a crashed run with our pid
  pending_slot_ = enter_pending_temporary(temp_path_);  // before it exists: never unprotected
  int status = 0;
  if (fits_create_diskfile(&fits_, temp_path_.c_str(), &status) != 0) {
    fits_ = nullptr;
    // CFITSIO says only "couldn't create the named file": the system's reason, where making
    // the file again gives one.
    const std::string cause = creation_failure(temp_path_, false);
    leave_pending_temporary(pending_slot_);
    // Standard output is made in $TMPDIR first: name the file that could not be made.
    const std::string name =
        path_ == "-" ? temp_path_ + " (standard output's temporary, in $TMPDIR)" : path_;
    if (!cause.empty()) throw file_error(name, "cannot create: " + cause);
    throw_fits_error(name, "cannot create", status);
  }
}

FitsOutputFile::~FitsOutputFile() {
  if (fits_) {
    int status = 0;
    fits_close_file(fits_, &status);
  }
  if (!temporary_gone_) std::remove(temp_path_.c_str());
  leave_pending_temporary(pending_slot_);
}

void FitsOutputFile::check(int status, const std::string& what) const {
  if (status != 0) throw_fits_error(path_, what, status);
}

void FitsOutputFile::close() {
  if (!fits_) return;
  int status = 0;
  fits_close_file(fits_, &status);
  fits_ = nullptr;
  if (status != 0) throw_fits_error(path_, "write failed", status);  // the destructor removes it
}

void FitsOutputFile::commit() {
  close();
  if (path_ == "-") {
    copy_to_standard_output();
    return;
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const std::string reason = errno_text();
    throw file_error(path_, "cannot rename temporary file into place: " + reason);
  }
  temporary_gone_ = true;
  leave_pending_temporary(pending_slot_);  // after the rename: the file is complete
  pending_slot_ = -1;
}

void FitsOutputFile::copy_to_standard_output() {
  FILE* in = std::fopen(temp_path_.c_str(), "rb");
  bool ok = in != nullptr;
  std::vector<char> buffer(size_t(1) << 20);
  for (size_t got; ok && (got = std::fread(buffer.data(), 1, buffer.size(), in)) > 0;)
    ok = std::fwrite(buffer.data(), 1, got, stdout) == got;
  ok = ok && !std::ferror(in) && std::fflush(stdout) == 0;
  const std::string reason = errno_text();
  if (in) std::fclose(in);
  std::remove(temp_path_.c_str());
  temporary_gone_ = true;
  leave_pending_temporary(pending_slot_);
  pending_slot_ = -1;
  if (!ok) throw file_error("standard output", "write failed: " + reason);
}

}  // namespace rapt
