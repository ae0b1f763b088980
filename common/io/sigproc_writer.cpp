// Writes a SIGPROC filterbank or .tim: header, then quantised samples, through an atomic
// output file (or stdout for "-").
#include <algorithm>
#include <cstdio>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"

namespace rapt {

namespace {
constexpr size_t kPackValues = size_t(1) << 20;  // samples quantised per chunk in write()
}

SigprocWriter::SigprocWriter(const std::string& path, const SigprocHeader& header,
                             bool overwrite)
    : path_(path), header_(header) {
  validate_sigproc_header(header_, path_);
  if (path_ != "-") out_.emplace(path_, overwrite);
  const std::vector<uint8_t> bytes = encode_sigproc_header(header_);
  write_bytes(bytes.data(), bytes.size());
}

void SigprocWriter::write_bytes(const void* data, size_t nbytes) {
  if (out_) {
    out_->write(data, nbytes);
  } else if (nbytes > 0 && std::fwrite(data, 1, nbytes, stdout) != nbytes) {
    throw file_error(path_, "write failed: " + errno_text());
  }
}

void SigprocWriter::write(const float* samples, size_t nspectra) {
  const size_t values_per_spectrum = size_t(header_.nifs) * size_t(header_.nchans);
  // Chunks hold whole spectra, so packed sub-byte samples never straddle two chunks.
  const size_t chunk_spectra = std::max<size_t>(1, kPackValues / values_per_spectrum);
  for (size_t done = 0; done < nspectra;) {
    const size_t n = std::min(chunk_spectra, nspectra - done);
    const size_t nvalues = n * values_per_spectrum;
    packed_.resize(nvalues * size_t(header_.nbits) / 8);
    pack_sigproc_samples(samples + done * values_per_spectrum, nvalues, header_, packed_.data());
    write_bytes(packed_.data(), packed_.size());
    done += n;
  }
}

void SigprocWriter::write_raw(const uint8_t* bytes, size_t nbytes) { write_bytes(bytes, nbytes); }

void SigprocWriter::commit() {
  if (out_) {
    out_->commit();
    return;
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw file_error(path_, "write failed: " + errno_text());
}

}  // namespace rapt
