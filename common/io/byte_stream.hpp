// A file or stream read from the front, after the bytes already read from it to tell its format
// (a pipe's cannot be read again): those come first, then the rest of the file. The voltage
// readers read through it, so that a file by name, standard input redirected from a file and a
// pipe are read by the same code, each named as the user gave it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace rapt {

class ByteStream {
 public:
  // Reads FILE (closed at the end unless it is stdin) under NAME, the first bytes of which,
  // CONSUMED, were read from it already.
  ByteStream(std::string name, std::FILE* file, std::vector<uint8_t> consumed);
  // Opens PATH; DataError "path: cannot open: <reason>".
  explicit ByteStream(const std::string& path);
  ~ByteStream();
  ByteStream(const ByteStream&) = delete;
  ByteStream& operator=(const ByteStream&) = delete;

  const std::string& name() const { return name_; }
  // Up to WANTED bytes into OUT: fewer only where the data end. DataError "name: read failed:
  // <reason>" on a read error.
  size_t read(uint8_t* out, size_t wanted);
  // Puts BYTES back in front of what read() gives next.
  void unread(std::vector<uint8_t> bytes);
  // Up to COUNT bytes from the front (fewer only where the data end), left to be read again.
  std::string_view peek(size_t count);

  // A regular file (standard input redirected from one included) can be read at any offset:
  // size() is its length from the stream's first byte. A pipe: not seekable, size() -1.
  bool seekable() const { return size_ >= 0; }
  int64_t size() const { return size_; }
  // Seekable streams only: the next read starts OFFSET bytes after the stream's first byte.
  // DataError "name: cannot seek to byte N".
  void seek(int64_t offset);

 private:
  size_t read_file(uint8_t* out, size_t wanted);  // from file_ alone

  std::string name_;
  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  std::vector<uint8_t> pending_;  // bytes to give before reading file_ again
  size_t pending_pos_ = 0;
  int64_t start_ = -1;            // the stream's first byte in file_; -1 for a pipe
  int64_t size_ = -1;
};

}  // namespace rapt
