#include "cli/atomic_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

bool same_existing_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

void check_output_directory(const std::string& path) {
  // A trailing slash ("dir/out.ms/") still names out.ms in dir.
  const size_t end = path.find_last_not_of('/');
  const size_t slash = end == std::string::npos ? 0 : path.find_last_of('/', end);
  const std::string parent = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::access(parent.c_str(), W_OK | X_OK) != 0)
    throw file_error(path, "cannot create: " + errno_text());
}

std::string creation_failure(const std::string& temporary, bool directory) {
  if (directory) {
    if (::mkdir(temporary.c_str(), 0755) != 0) return errno_text();
    ::rmdir(temporary.c_str());
    return "";
  }
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return errno_text();
  ::close(fd);
  ::unlink(temporary.c_str());
  return "";
}

void refuse_input_as_output(const std::string& output, const std::string& input,
                            const std::string& remedy) {
  if (input != "-" && same_existing_file(output, input))
    throw UsageError("-o " + output + " is the input itself: " + remedy);
}

void check_replaceable_output(const std::string& path, bool overwrite) {
  // A directory that does not exist or cannot be written in is found now, before the work,
  // not when the output is opened at the end of it.
  check_output_directory(path);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return;
  if (!overwrite) throw file_error(path, "already exists (use --force to overwrite)");
  // The rename would put a plain file where a device, pipe or directory was (/dev/null, say).
  if (!S_ISREG(st.st_mode))
    throw file_error(path, "exists and is not a regular file; it is not replaced");
}

namespace {

// A signal handler can reach only global state, so the table of pending temporaries is the one
// mutable global: fixed-size arrays, no allocation, slots claimed and freed with atomics.
constexpr int kMaxPendingTemporaries = 4096;
constexpr size_t kMaxPendingPathBytes = 1024;
enum SlotState : int { kSlotFree = 0, kSlotFilling = 1, kSlotLive = 2 };
static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need lock-free atomics");
std::atomic<int> g_pending_state[kMaxPendingTemporaries];
char g_pending_path[kMaxPendingTemporaries][kMaxPendingPathBytes];

}  // namespace

int enter_pending_temporary(const std::string& temp_path) {
  if (temp_path.empty() || temp_path.size() >= kMaxPendingPathBytes) return -1;
  for (int slot = 0; slot < kMaxPendingTemporaries; ++slot) {
    int expected = kSlotFree;
    if (!g_pending_state[slot].compare_exchange_strong(expected, kSlotFilling)) continue;
    std::memcpy(g_pending_path[slot], temp_path.c_str(), temp_path.size() + 1);
    g_pending_state[slot].store(kSlotLive);
    return slot;
  }
  return -1;
}

void leave_pending_temporary(int slot) {
  if (slot >= 0 && slot < kMaxPendingTemporaries) g_pending_state[slot].store(kSlotFree);
}

namespace {

// Removes `name` (relative to the directory `parent_fd`), a file or a whole directory tree (a
// Measurement Set being written), with system calls only, so a signal handler may call it.
// Entries are removed while the directory is read, which may hide some from that reading, so a
// directory is read again until it can be removed (a few passes at most).
void remove_tree_at(int parent_fd, const char* name, int depth) noexcept {
  if (::unlinkat(parent_fd, name, 0) == 0 || errno == ENOENT) return;
  if (depth > 32) return;
  const int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  struct DirectoryEntry {  // the kernel's linux_dirent64
    uint64_t inode;
    int64_t offset;
    unsigned short length;
    unsigned char type;
    char name[1];
  };
  alignas(8) char buffer[2048];
  for (int pass = 0; pass < 4; ++pass) {
    ::lseek(fd, 0, SEEK_SET);
    long bytes;
    while ((bytes = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0)
      for (long at = 0; at < bytes;) {
        const DirectoryEntry* entry = reinterpret_cast<const DirectoryEntry*>(buffer + at);
        const char* n = entry->name;
        if (!(n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0))))
          remove_tree_at(fd, n, depth + 1);
        at += entry->length;
      }
    if (::unlinkat(parent_fd, name, AT_REMOVEDIR) == 0) break;
  }
  ::close(fd);
}

}  // namespace

void remove_pending_temporaries() noexcept {
  for (int slot = 0; slot < kMaxPendingTemporaries; ++slot)
    if (g_pending_state[slot].load() == kSlotLive) remove_tree_at(AT_FDCWD, g_pending_path[slot], 0);
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
  check_replaceable_output(path_, overwrite);
  temp_path_ = temporary_name_for(path_);
  // Entered before it exists, so that no moment leaves a file the signal handler cannot see.
  pending_slot_ = enter_pending_temporary(temp_path_);
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (!file_) {
    const std::string reason = errno_text();
    leave_pending_temporary(pending_slot_);
    throw file_error(path_, "cannot create: " + reason);
  }
}

AtomicOutputFile::AtomicOutputFile(AtomicOutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      file_(other.file_),
      committed_(other.committed_),
      pending_slot_(other.pending_slot_) {
  other.file_ = nullptr;
  other.committed_ = true;
  other.pending_slot_ = -1;
}

AtomicOutputFile::~AtomicOutputFile() {
  if (!committed_) {
    if (file_) std::fclose(file_);
    if (!temp_path_.empty()) std::remove(temp_path_.c_str());
  }
  leave_pending_temporary(pending_slot_);  // after the removal: no moment unprotected
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
  leave_pending_temporary(pending_slot_);  // after the rename: the file is complete
  pending_slot_ = -1;
}

void write_file_atomically(const std::string& path, const std::string& contents,
                           bool overwrite) {
  AtomicOutputFile out(path, overwrite);
  out.write(contents);
  out.commit();
}

}  // namespace rapt
