// Streams a SIGPROC filterbank or .tim from a file or a pipe: the header is parsed from the
// first bytes (reading more only while it is incomplete), then spectra are read block by block.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cli/errors.hpp"
#include "cli/stop_request.hpp"
#include "io/sigproc.hpp"

namespace rapt {

namespace {

constexpr size_t kFirstHeaderRead = 64 * 1024;
constexpr size_t kMaxHeaderBytes = size_t(16) << 20;  // a 4096-entry frequency table is 80 KiB
constexpr size_t kBlockBytes = size_t(4) << 20;       // read() converts this much at a time

// fread until `n` bytes or the end of the stream; a short count with ferror set is an error,
// but for a wait for data that a stop woke (StopWakesReads): that is the end of the data.
size_t read_fully(FILE* file, uint8_t* out, size_t n, const std::string& path) {
  size_t done = 0;
  while (done < n) {
    done += std::fread(out + done, 1, n - done, file);
    if (done == n || !std::ferror(file)) break;  // all read, or the end of the stream
    if (errno != EINTR) break;                    // an error: said below
    std::clearerr(file);
    if (stop_requested()) return done;
  }
  if (done < n && std::ferror(file)) throw file_error(path, "read error: " + errno_text());
  return done;
}

}  // namespace

SigprocReader::SigprocReader(const std::string& path) : path_(path) {
  if (path == "-") {
    file_ = stdin;
  } else {
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_) throw file_error(path, "cannot open: " + errno_text());
    owns_file_ = true;
  }
  open({});
}

SigprocReader::SigprocReader(const std::string& path, FILE* file, std::vector<uint8_t> consumed)
    : path_(path), file_(file), owns_file_(file != stdin) {
  open(std::move(consumed));
}

SigprocReader::~SigprocReader() {
  if (owns_file_ && file_) std::fclose(file_);
}

void SigprocReader::open(std::vector<uint8_t> consumed) {
  try {
    struct stat st;
    seekable_ = ::fstat(fileno(file_), &st) == 0 && S_ISREG(st.st_mode);
    // Where the stream started: stdin redirected from a file need not start at offset 0.
    const off_t position = seekable_ ? ::ftello(file_) : off_t(-1);
    if (position < 0) seekable_ = false;
    const off_t start = position - off_t(consumed.size());
    read_header(std::move(consumed));
    info_ = observation_from_sigproc(header_, path_);
    const size_t spectrum_bytes = header_.bytes_per_spectrum();
    if (seekable_) {
      const off_t data_bytes = std::max<off_t>(0, st.st_size - start - off_t(header_.header_bytes));
      spectra_left_ = int64_t(data_bytes / off_t(spectrum_bytes));
      info_.nspectra = spectra_left_;
      if (spectra_left_ == 0) throw file_error(path_, "no complete spectrum after the header");
      if (data_bytes % off_t(spectrum_bytes) != 0)
        note_partial_spectrum(size_t(data_bytes % off_t(spectrum_bytes)));
    } else {
      // A pipe: wait for the first spectrum so that an empty stream fails here, not later.
      const size_t have = pending_.size() - pending_pos_;
      if (have < spectrum_bytes) {
        pending_.resize(pending_pos_ + spectrum_bytes);
        const size_t got = read_fully(file_, pending_.data() + pending_pos_ + have,
                                      spectrum_bytes - have, path_);
        pending_.resize(pending_pos_ + have + got);
        if (have + got < spectrum_bytes)
          throw file_error(path_, "no complete spectrum after the header");
      }
    }
    raw_.resize(std::max<size_t>(1, kBlockBytes / spectrum_bytes) * spectrum_bytes);
  } catch (...) {
    if (owns_file_) std::fclose(file_);
    file_ = nullptr;
    throw;
  }
}

void SigprocReader::read_header(std::vector<uint8_t> bytes) {
  size_t target = std::max(bytes.size(), kFirstHeaderRead);
  for (;;) {
    const size_t old_size = bytes.size();
    bytes.resize(target);
    const size_t got = read_fully(file_, bytes.data() + old_size, target - old_size, path_);
    bytes.resize(old_size + got);
    const bool stream_ended = old_size + got < target;
    std::optional<SigprocHeader> header =
        parse_sigproc_header_prefix(bytes.data(), bytes.size(), path_, &warnings_);
    if (header) {
      header_ = std::move(*header);
      pending_.assign(bytes.begin() + long(header_.header_bytes), bytes.end());
      pending_pos_ = 0;
      return;
    }
    if (stream_ended) throw file_error(path_, "header is truncated (no HEADER_END)");
    if (target >= kMaxHeaderBytes)
      throw file_error(path_, "no HEADER_END in the first 16 MiB; not a SIGPROC header");
    target *= 2;
  }
}

size_t SigprocReader::read_bytes(uint8_t* out, size_t wanted) {
  const size_t from_pending = std::min(wanted, pending_.size() - pending_pos_);
  if (from_pending > 0) std::memcpy(out, pending_.data() + pending_pos_, from_pending);
  pending_pos_ += from_pending;
  if (pending_pos_ == pending_.size()) {
    pending_.clear();
    pending_.shrink_to_fit();
    pending_pos_ = 0;
  }
  if (from_pending == wanted) return wanted;
  return from_pending + read_fully(file_, out + from_pending, wanted - from_pending, path_);
}

void SigprocReader::note_partial_spectrum(size_t bytes) {
  if (partial_noted_) return;
  partial_noted_ = true;
  warnings_.push_back(path_ + ": ignored " + std::to_string(bytes) +
                      " bytes at the end (less than one spectrum of " +
                      std::to_string(header_.bytes_per_spectrum()) + " bytes)");
}

// Files joined end to end (cat a.fil b.fil, a recorder restarted into one pipe) put the second
// one's header where a spectrum would start: its first 16 bytes, the length 12 and HEADER_START,
// are looked for at every spectrum's start, so that they are not read as samples. (Random data
// give them once in 2^128 spectra.)
void SigprocReader::refuse_joined_header(const uint8_t* data, size_t bytes) {
  static constexpr uint8_t kStart[16] = {12,  0,   0,   0,   'H', 'E', 'A', 'D',
                                          'E', 'R', '_', 'S', 'T', 'A', 'R', 'T'};
  constexpr size_t kKey = sizeof kStart;
  const size_t spectrum_bytes = header_.bytes_per_spectrum();
  auto refuse = [&](int64_t at) {
    throw file_error(path_, "another SIGPROC header starts at byte " + std::to_string(at) +
                                " of the data (files joined end to end?): read them one by one");
  };
  // A header may start at any spectrum's first byte. Where spectra are shorter than the key,
  // that may be in the bytes of earlier reads (a key cut between reads, or spread over several
  // small ones): those starts are looked at with the last bytes kept from before (seam_) and
  // the first of these.
  if (!seam_.empty()) {
    uint8_t joined[2 * kKey];
    std::memcpy(joined, seam_.data(), seam_.size());
    const size_t more = std::min(bytes, kKey - 1), size = seam_.size() + more;
    std::memcpy(joined + seam_.size(), data, more);
    const int64_t joined_start = data_bytes_ - int64_t(seam_.size());
    const int64_t sb = int64_t(spectrum_bytes);
    for (int64_t at = (joined_start + sb - 1) / sb * sb - joined_start;
         at < int64_t(seam_.size()); at += sb)
      if (size_t(at) + kKey <= size && std::memcmp(joined + at, kStart, kKey) == 0)
        refuse(joined_start + at);
  }
  for (size_t at = 0; at + kKey <= bytes; at += spectrum_bytes)
    if (std::memcmp(data + at, kStart, kKey) == 0) refuse(data_bytes_ + int64_t(at));
  data_bytes_ += int64_t(bytes);
  // The last kKey - 1 bytes read, for the next read's check (a spectrum of kKey bytes or more
  // holds any key that starts it, and reads are of whole spectra).
  if (spectrum_bytes >= kKey) return;
  if (bytes >= kKey - 1) {
    seam_.assign(data + bytes - (kKey - 1), data + bytes);
  } else {
    seam_.insert(seam_.end(), data, data + bytes);
    if (seam_.size() > kKey - 1) seam_.erase(seam_.begin(), seam_.end() - long(kKey - 1));
  }
}

size_t SigprocReader::read_raw(uint8_t* out, size_t max_spectra) {
  if (at_end_ || max_spectra == 0) return 0;
  const size_t spectrum_bytes = header_.bytes_per_spectrum();
  size_t wanted = max_spectra;
  if (seekable_) wanted = size_t(std::min<int64_t>(int64_t(wanted), spectra_left_));
  if (wanted == 0) {
    at_end_ = true;
    return 0;
  }
  const size_t bytes = read_bytes(out, wanted * spectrum_bytes);
  const size_t got = bytes / spectrum_bytes;
  refuse_joined_header(out, got * spectrum_bytes);
  if (seekable_) {
    spectra_left_ -= int64_t(got);
    if (got < wanted) throw file_error(path_, "file ended early (truncated while being read?)");
  } else if (got < wanted) {
    at_end_ = true;
    // (A stop that ended the wait for data may cut a spectrum: that is no damage to note.)
    if (bytes % spectrum_bytes != 0 && !stop_requested())
      note_partial_spectrum(bytes % spectrum_bytes);
  }
  return got;
}

// Float data: the levels that replace NaNs and infinities in the first interval come from the
// first spectra the next read() returns (NonFiniteSamples::kLevelSpectra of them, at most 16
// MiB), read ahead and put back in front of the bytes still to come.
// Each IF's samples are replaced before the IFs are summed, so that a NaN in one IF takes that
// IF's level and the other IFs keep their own samples.
void SigprocReader::start_non_finite_levels() {
  non_finite_.emplace(path_, header_.nchans, header_.nchans == 1 ? "sample" : "spectrum",
                      header_.nifs);
  const size_t spectrum_bytes = header_.bytes_per_spectrum();
  size_t wanted = std::min(NonFiniteSamples::kLevelSpectra,
                           std::max<size_t>(1, (size_t(16) << 20) / spectrum_bytes));
  if (seekable_) wanted = size_t(std::min<int64_t>(int64_t(wanted), spectra_left_));
  std::vector<uint8_t> ahead(wanted * spectrum_bytes);
  ahead.resize(read_bytes(ahead.data(), ahead.size()));
  const size_t whole = ahead.size() / spectrum_bytes;
  std::vector<float> values(whole * spectrum_bytes / sizeof(float));  // every IF's floats
  std::memcpy(values.data(), ahead.data(), values.size() * sizeof(float));
  non_finite_->start_levels(values.data(), whole);
  ahead.insert(ahead.end(), pending_.begin() + long(pending_pos_), pending_.end());
  pending_ = std::move(ahead);
  pending_pos_ = 0;
}

void SigprocReader::replace_non_finite(float* values, size_t nspectra) {
  const int64_t first_spectrum =
      data_bytes_ / int64_t(header_.bytes_per_spectrum()) - int64_t(nspectra);
  non_finite_->replace(values, nspectra, first_spectrum);
  non_finite_->note_in(warnings_);
}

size_t SigprocReader::read(float* out, size_t max_spectra) {
  const size_t spectrum_bytes = header_.bytes_per_spectrum();
  const size_t block_spectra = raw_.size() / spectrum_bytes;
  const size_t values_per_spectrum = size_t(header_.nchans);
  if (header_.nbits == 32 && replace_non_finite_ && !non_finite_ && max_spectra > 0)
    start_non_finite_levels();
  size_t done = 0;
  while (done < max_spectra) {
    const size_t got = read_raw(raw_.data(), std::min(block_spectra, max_spectra - done));
    if (got == 0) break;
    float* spectra = out + done * values_per_spectrum;
    if (non_finite_ && header_.nifs > 1) {
      // Replaced IF by IF (start_non_finite_levels), then summed as unpacking sums them.
      if_values_.resize(got * spectrum_bytes / sizeof(float));
      std::memcpy(if_values_.data(), raw_.data(), if_values_.size() * sizeof(float));
      replace_non_finite(if_values_.data(), got);
      unpack_sigproc_samples(reinterpret_cast<const uint8_t*>(if_values_.data()), got, header_,
                             spectra);
    } else {
      unpack_sigproc_samples(raw_.data(), got, header_, spectra);
      if (non_finite_) replace_non_finite(spectra, got);
    }
    done += got;
  }
  return done;
}

size_t SigprocReader::skip(size_t spectra) {
  if (!seekable_) {
    size_t done = 0;
    const size_t block_spectra = raw_.size() / header_.bytes_per_spectrum();
    while (done < spectra) {
      const size_t got = read_raw(raw_.data(), std::min(block_spectra, spectra - done));
      if (got == 0) break;
      done += got;
    }
    return done;
  }
  const size_t n = size_t(std::min<int64_t>(int64_t(spectra), spectra_left_));
  const size_t bytes = n * header_.bytes_per_spectrum();
  const size_t from_pending = std::min(bytes, pending_.size() - pending_pos_);
  pending_pos_ += from_pending;
  if (bytes > from_pending && ::fseeko(file_, off_t(bytes - from_pending), SEEK_CUR) != 0)
    throw file_error(path_, "cannot seek: " + errno_text());
  spectra_left_ -= int64_t(n);
  data_bytes_ += int64_t(bytes);
  if (bytes > 0) seam_.clear();  // the bytes read before are no longer next to what comes
  return n;
}

}  // namespace rapt
