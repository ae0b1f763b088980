#include "dedisp/spectra_input.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "dedisp/channel_rows.hpp"
#include "io/sigproc.hpp"

namespace rapt {

SpectraInput::SpectraInput(SpectraSource& source, SigprocReader* raw) : source_(source) {
  if (raw == nullptr) return;
  const SigprocHeader& header = raw->header();
  const int nbits = header.nbits;
  if (header.nifs == 1 && !header.samples_signed() &&
      (nbits == 1 || nbits == 2 || nbits == 4 || nbits == 8)) {
    raw_ = raw;
    nbits_ = nbits;
  }
}

size_t SpectraInput::spectrum_bytes() const {
  return nbits_ == 32 ? size_t(info().nchans) * sizeof(float)
                      : packed_spectrum_bytes(info().nchans, nbits_);
}

size_t SpectraInput::read(uint8_t* out, size_t max_spectra) {
  if (nbits_ == 32) return source_.read(reinterpret_cast<float*>(out), max_spectra);
  return raw_->read_raw(out, max_spectra);
}

SpectraBuffer::SpectraBuffer(SpectraInput& input, size_t capacity, bool channel_sums)
    : input_(input),
      nchans_(input.info().nchans),
      nbits_(input.nbits()),
      capacity_(capacity),
      spectrum_bytes_(input.spectrum_bytes()),
      data_(capacity * spectrum_bytes_),
      channel_sums_(channel_sums),
      sums_(size_t(nchans_), 0.0),
      integer_sums_(size_t(nchans_), 0) {}

size_t SpectraBuffer::fill() {
  add_pending_sums();
  while (filled_ < capacity_) {
    uint8_t* at = data_.data() + filled_ * spectrum_bytes_;
    const size_t got = input_.read(at, capacity_ - filled_);
    if (got == 0) break;
    if (channel_sums_ && !defer_sums_) add_to_sums(at, got);
    filled_ += got;
    spectra_read_ += int64_t(got);
  }
  return filled_;
}

void SpectraBuffer::defer_sums() {
  defer_sums_ = true;
  pending_from_ = filled_;
}

void SpectraBuffer::add_pending_sums() {
  if (!defer_sums_ || pending_from_ >= filled_) return;
  if (channel_sums_)
    add_to_sums(data_.data() + pending_from_ * spectrum_bytes_, filled_ - pending_from_);
  pending_from_ = filled_;
}

// Float samples are summed spectrum by spectrum, so the order (and so the float result) is the
// same whatever the gulp size. Packed samples are integers and their sums exact in any order:
// they go into integer sums (32-bit lanes for 8-bit data), far cheaper than a double add per
// sample. The dedispersion runner takes them on a thread of its own while a block is processed.
void SpectraBuffer::add_to_sums(const uint8_t* spectra, size_t n) {
  if (nbits_ == 32) {
    const float* values = reinterpret_cast<const float*>(spectra);
    for (size_t t = 0; t < n; ++t)
      for (int c = 0; c < nchans_; ++c) sums_[c] += values[t * nchans_ + c];
  } else if (nbits_ == 8) {
    // 32-bit lanes hold 2^24 spectra of 255 exactly; they are added up once per run of them.
    std::vector<uint32_t> lanes(static_cast<size_t>(nchans_), 0u);
    for (size_t first = 0; first < n; first += size_t(1) << 24) {
      std::fill(lanes.begin(), lanes.end(), 0u);
      const size_t last = std::min(n, first + (size_t(1) << 24));
      for (size_t t = first; t < last; ++t) {
        const uint8_t* spectrum = spectra + t * size_t(nchans_);
        for (int c = 0; c < nchans_; ++c) lanes[size_t(c)] += spectrum[c];
      }
      for (int c = 0; c < nchans_; ++c) integer_sums_[size_t(c)] += lanes[size_t(c)];
    }
  } else {
    for (size_t t = 0; t < n; ++t)
      for (int c = 0; c < nchans_; ++c)
        integer_sums_[size_t(c)] += packed_sample(spectra, spectrum_bytes_, nbits_, t, c);
  }
}

void SpectraBuffer::shift(size_t n) {
  add_pending_sums();
  if (n >= filled_) {
    filled_ = 0;
    pending_from_ = 0;
    return;
  }
  std::memmove(data_.data(), data_.data() + n * spectrum_bytes_, (filled_ - n) * spectrum_bytes_);
  filled_ -= n;
  pending_from_ = filled_;
}

void SpectraBuffer::switch_to_float() {
  add_pending_sums();
  if (nbits_ == 32) return;
  LargeBuffer floats(capacity_ * nchans_ * sizeof(float));
  float* out = reinterpret_cast<float*>(floats.data());
  for (size_t t = 0; t < filled_; ++t)
    for (int c = 0; c < nchans_; ++c)
      out[t * nchans_ + c] = float(packed_sample(data_.data(), spectrum_bytes_, nbits_, t, c));
  data_ = std::move(floats);
  nbits_ = 32;
  spectrum_bytes_ = nchans_ * sizeof(float);
}

std::vector<double> SpectraBuffer::channel_means() const {
  if (!channel_sums_) throw std::logic_error("spectra buffer: channel sums were not kept");
  if (defer_sums_ && pending_from_ < filled_)
    throw std::logic_error("spectra buffer: channel means asked for before the pending sums");
  std::vector<double> means(sums_);
  for (size_t c = 0; c < means.size(); ++c) {
    means[c] += double(integer_sums_[c]);
    means[c] = spectra_read_ > 0 ? means[c] / double(spectra_read_) : 0.0;
  }
  return means;
}

void SpectraBuffer::pad_with_means() {
  switch_to_float();
  const std::vector<double> means = channel_means();
  float* out = reinterpret_cast<float*>(data_.data());
  for (; filled_ < capacity_; ++filled_)
    for (int c = 0; c < nchans_; ++c) out[filled_ * nchans_ + c] = float(means[c]);
  pending_from_ = filled_;  // padding is not data: never summed
}

void SpectraBuffer::pad_with_zeros() {
  add_pending_sums();
  std::fill(data_.data() + filled_ * spectrum_bytes_, data_.data() + capacity_ * spectrum_bytes_,
            uint8_t(0));
  filled_ = capacity_;
  pending_from_ = filled_;  // padding is not data: never summed
}

}  // namespace rapt
