// Helpers shared by the SIGPROC tests: example headers, hand-made files, whole-input reads,
// pipes and a replaced stdin.
#pragma once
#include <gtest/gtest.h>
#include <signal.h>
#include <stdio_ext.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"
#include "test_data.hpp"

namespace rapt::testing {

inline rapt::SigprocHeader header_for(int nbits, int nchans, int nifs = 1) {
  rapt::SigprocHeader h;
  h.source_name = "TEST";
  h.telescope_id = 6;
  h.tsamp = 1e-3;
  h.nbits = nbits;
  h.nchans = nchans;
  h.nifs = nifs;
  h.fch1 = 1500.0;
  h.foff = -1.0;
  return h;
}

inline std::string file_bytes(const rapt::SigprocHeader& h, const std::vector<uint8_t>& data) {
  const std::vector<uint8_t> header = rapt::encode_sigproc_header(h);
  return std::string(header.begin(), header.end()) + std::string(data.begin(), data.end());
}

inline std::string make_file(const ScratchDir& dir, const rapt::SigprocHeader& h,
                      const std::vector<uint8_t>& data) {
  const std::string path = dir.file("made.fil");
  rapt::testing::write_whole_file(path, file_bytes(h, data));
  return path;
}

// Every spectrum of `source`, read `block` spectra at a time.
inline std::vector<float> read_all(rapt::SpectraSource& source, size_t block) {
  const size_t nchans = size_t(source.info().nchans);
  std::vector<float> all;
  std::vector<float> buffer(block * nchans);
  for (;;) {
    const size_t got = source.read(buffer.data(), block);
    if (got == 0) break;
    all.insert(all.end(), buffer.begin(), buffer.begin() + long(got * nchans));
  }
  return all;
}

inline std::vector<float> read_file(const std::string& path, size_t block = 4096) {
  rapt::SigprocReader reader(path);
  return read_all(reader, block);
}

inline std::string error_text(const std::function<void()>& action) {
  try {
    action();
  } catch (const rapt::DataError& e) {
    return e.what();
  }
  return "(no error)";
}

class PipeFeeder {
 public:
  explicit PipeFeeder(std::string bytes) {
    ::signal(SIGPIPE, SIG_IGN);  // a reader that stops early must not kill the test run
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    read_fd_ = fds[0];
    writer_ = std::thread([fd = fds[1], bytes = std::move(bytes)] {
      size_t done = 0;
      while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) break;
        done += size_t(n);
      }
      ::close(fd);
    });
  }
  ~PipeFeeder() {
    ::close(read_fd_);
    writer_.join();
  }
  int fd() const { return read_fd_; }
  std::string path() const { return "/dev/fd/" + std::to_string(read_fd_); }

 private:
  int read_fd_ = -1;
  std::thread writer_;
};

// Puts `fd` in place of the process's stdin for the object's lifetime. Whatever stdin's buffer
// held is dropped both ways, so one test's leftovers never reach the next.
class StdinReplacement {
 public:
  explicit StdinReplacement(int fd) : saved_(::dup(0)) {
    __fpurge(stdin);
    ::dup2(fd, 0);
    std::clearerr(stdin);
  }
  ~StdinReplacement() {
    __fpurge(stdin);
    ::dup2(saved_, 0);
    ::close(saved_);
    std::clearerr(stdin);
  }

 private:
  int saved_;
};

// A header with every field PRESTO reads set to something distinctive.
inline rapt::SigprocHeader example_header() {
  rapt::SigprocHeader h;
  h.rawdatafile = "obs_0001.raw";
  h.source_name = "PSR J1748-2446A";
  h.telescope_id = 6;
  h.machine_id = 7;
  h.data_type = 1;
  h.barycentric = true;
  h.src_raj = 174804.123;
  h.src_dej = -244611.5;
  h.az_start = 180.25;
  h.za_start = 30.5;
  h.tstart = 54721.123456789;
  h.tsamp = 81.92e-6;
  h.nbits = 8;
  h.fch1 = 2100.0;
  h.foff = -0.78125;
  h.nchans = 1024;
  h.nifs = 1;
  h.nbeams = 13;
  h.ibeam = 2;
  h.refdm = 238.3;
  h.signed_byte = -1;
  return h;
}

}  // namespace rapt::testing
