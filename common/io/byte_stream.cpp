#include "io/byte_stream.hpp"

#include <sys/stat.h>

#include <algorithm>

#include "cli/errors.hpp"

namespace rapt {

ByteStream::ByteStream(std::string name, std::FILE* file, std::vector<uint8_t> consumed)
    : name_(std::move(name)), file_(file), owns_file_(file != stdin),
      pending_(std::move(consumed)) {
  // Standard input redirected from a file need not start at the file's start: the stream
  // starts where the bytes handed over were read from.
  struct stat st {};
  const off_t now = ftello(file_);
  if (now >= off_t(pending_.size()) && ::fstat(fileno(file_), &st) == 0 && S_ISREG(st.st_mode)) {
    start_ = int64_t(now) - int64_t(pending_.size());
    size_ = std::max<int64_t>(0, int64_t(st.st_size) - start_);
  }
}

ByteStream::ByteStream(const std::string& path) : name_(path) {
  file_ = std::fopen(path.c_str(), "rb");
  if (!file_) throw file_error(path, "cannot open: " + errno_text());
  owns_file_ = true;
  struct stat st {};
  if (::fstat(fileno(file_), &st) == 0 && S_ISREG(st.st_mode)) {
    start_ = 0;
    size_ = int64_t(st.st_size);
  }
}

ByteStream::~ByteStream() {
  if (owns_file_) std::fclose(file_);
}

size_t ByteStream::read(uint8_t* out, size_t wanted) {
  size_t got = std::min(wanted, pending_.size() - pending_pos_);
  std::copy(pending_.begin() + long(pending_pos_), pending_.begin() + long(pending_pos_ + got), out);
  pending_pos_ += got;
  return got + read_file(out + got, wanted - got);
}

size_t ByteStream::read_file(uint8_t* out, size_t wanted) {
  size_t got = 0;
  while (got < wanted) {
    const size_t n = std::fread(out + got, 1, wanted - got, file_);
    if (n == 0) {
      if (std::ferror(file_)) throw file_error(name_, "read failed: " + errno_text());
      break;
    }
    got += n;
  }
  return got;
}

void ByteStream::unread(std::vector<uint8_t> bytes) {
  bytes.insert(bytes.end(), pending_.begin() + long(pending_pos_), pending_.end());
  pending_ = std::move(bytes);
  pending_pos_ = 0;
}

std::string_view ByteStream::peek(size_t count) {
  const size_t have = pending_.size() - pending_pos_;
  if (have < count) {
    std::vector<uint8_t> more(count - have);
    const size_t got = read_file(more.data(), more.size());
    pending_.insert(pending_.end(), more.begin(), more.begin() + long(got));
  }
  const size_t n = std::min(count, pending_.size() - pending_pos_);
  return std::string_view(reinterpret_cast<const char*>(pending_.data() + pending_pos_), n);
}

void ByteStream::seek(int64_t offset) {
  if (!seekable() || fseeko(file_, off_t(start_ + offset), SEEK_SET) != 0)
    throw file_error(name_, "cannot seek to byte " + std::to_string(offset));
  pending_.clear();
  pending_pos_ = 0;
}

}  // namespace rapt
