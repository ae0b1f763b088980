// The SIGPROC stream target's check, shared by the fuzzer and the corpus replay: a whole
// filterbank (header and samples) read by SigprocReader in blocks of several sizes, opened with
// its first bytes read already and handed over (as format sniffing does), from the file and
// through a pipe. The reader promises the same samples and warnings whatever the blocks and the
// source (NaNs and infinities in float data replaced, IFs summed, a partial last spectrum left
// out; a file names that last in its header check, a pipe at its end, so the warnings are
// compared as sets): all reads must agree, or all refuse the file with DataError.
#pragma once
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"

namespace rapt::fuzzing {

struct SigprocStreamRead {
  bool refused = false;
  bool too_big = false;             // a block of this file's spectra would pass what a check holds
  std::vector<uint8_t> values;      // the floats read, as bytes (so NaNs compare too)
  std::vector<std::string> warnings;
};

// Opens `path`'s bytes (from the file, or written into a pipe by a thread of its own when
// `through_pipe`), hands the first `handed_over` of them to the reader and reads in blocks of
// `block` spectra.
inline SigprocStreamRead read_sigproc_stream(const std::string& path, size_t handed_over,
                                             size_t block, bool through_pipe) {
  SigprocStreamRead out;
  std::thread writer;
  FILE* file = nullptr;
  if (through_pipe) {
    std::signal(SIGPIPE, SIG_IGN);  // the reader may stop before the writer is done
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    int fds[2];
    if (::pipe(fds) != 0) return out;
    writer = std::thread([fd = fds[1], bytes = std::move(bytes)] {
      for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) break;
        done += size_t(n);
      }
      ::close(fd);
    });
    file = ::fdopen(fds[0], "rb");
  } else {
    file = std::fopen(path.c_str(), "rb");
  }
  if (file) {
    try {
      std::vector<uint8_t> first(handed_over);
      first.resize(std::fread(first.data(), 1, first.size(), file));
      FILE* handed = file;
      file = nullptr;  // the reader owns it from here, and closes it if it refuses the header
      SigprocReader reader(path, handed, std::move(first));
      // The same limits for every block size and source, so that all reads agree on them.
      constexpr size_t kMostValues = size_t(1) << 22, kMostSpectra = 20000, kLargestBlock = 4096;
      const size_t nchans = size_t(reader.info().nchans);
      if (nchans * kLargestBlock > kMostValues ||
          reader.header().bytes_per_spectrum() * 2 * kLargestBlock > kMostValues * 4) {
        out.too_big = true;
      } else {
        std::vector<float> spectra(nchans * block);
        for (size_t total = 0, got = 0; total < kMostSpectra; total += got) {
          got = reader.read(spectra.data(), std::min(block, kMostSpectra - total));
          if (got == 0) break;
          const auto* bytes = reinterpret_cast<const uint8_t*>(spectra.data());
          out.values.insert(out.values.end(), bytes, bytes + got * nchans * sizeof(float));
        }
        out.warnings = reader.warnings();
        std::sort(out.warnings.begin(), out.warnings.end());
      }
    } catch (const DataError&) {
      out.refused = true;
    }
    if (file) std::fclose(file);
  }
  if (writer.joinable()) writer.join();
  return out;
}

// A refusal ends the read, whatever came before it (with small blocks, the spectra before a
// joined header's key is complete have been returned already).
inline bool same_reads(const SigprocStreamRead& a, const SigprocStreamRead& b) {
  if (a.too_big || b.too_big) return a.too_big == b.too_big;
  if (a.refused || b.refused) return a.refused == b.refused;
  return a.values == b.values && a.warnings == b.warnings;
}

// The input: byte 0 says how many bytes (8 x it) are handed over, the rest is the file,
// written at `path`. False where two of the reads disagree.
inline bool sigproc_stream_agrees(const uint8_t* data, size_t size, const std::string& path) {
  if (size == 0) return true;
  const size_t handed_over = size_t(data[0]) * 8;
  const SigprocStreamRead whole = read_sigproc_stream(path, 0, 4096, false);
  return same_reads(whole, read_sigproc_stream(path, 0, 37, false)) &&
         same_reads(whole, read_sigproc_stream(path, handed_over, 1, false)) &&
         same_reads(whole, read_sigproc_stream(path, handed_over, 4096, true)) &&
         same_reads(whole, read_sigproc_stream(path, 0, 3, true));
}

}  // namespace rapt::fuzzing
