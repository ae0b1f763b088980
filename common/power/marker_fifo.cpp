#include "power/marker_fifo.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "cli/errors.hpp"

namespace rapt {

MarkerFifo::MarkerFifo(const std::string& path, std::function<void(const std::string&)> on_line)
    : path_(path), on_line_(std::move(on_line)) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (!S_ISFIFO(info.st_mode)) throw file_error(path, "exists and is not a FIFO");
  } else {
    if (::mkfifo(path.c_str(), 0600) != 0) {
      throw file_error(path, "cannot create FIFO: " + errno_text());
    }
    created_ = true;
  }
  fd_ = ::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    const std::string reason = errno_text();
    if (created_) ::unlink(path.c_str());
    throw file_error(path, "cannot open FIFO: " + reason);
  }
  thread_ = std::thread(&MarkerFifo::loop, this);
}

MarkerFifo::~MarkerFifo() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  ::close(fd_);
  if (created_) ::unlink(path_.c_str());
}

void MarkerFifo::drain() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  read_available();
  if (!partial_.empty()) on_line_(partial_);
  partial_.clear();
}

void MarkerFifo::loop() {
  while (!stop_) {
    pollfd pfd{fd_, POLLIN, 0};
    if (poll(&pfd, 1, 50) > 0) read_available();
  }
}

void MarkerFifo::read_available() {
  char buffer[1024];
  while (true) {
    const ssize_t got = ::read(fd_, buffer, sizeof buffer);
    if (got <= 0) return;
    partial_.append(buffer, static_cast<size_t>(got));
    size_t newline;
    while ((newline = partial_.find('\n')) != std::string::npos) {
      std::string line = partial_.substr(0, newline);
      partial_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) on_line_(line);
    }
  }
}

}  // namespace rapt
