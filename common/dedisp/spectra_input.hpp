// The dedispersion runner's view of its input: spectra read either as float32 (any source) or
// as the stored packed bytes (a SIGPROC reader with 1/2/4/8-bit unsigned samples and one IF),
// kept in a buffer that slides by whole gulps and remembers each channel's running sum.
#pragma once
#include <cstdint>
#include <vector>

#include "dedisp/dedisp_engine.hpp"
#include "io/large_buffer.hpp"
#include "io/spectra_source.hpp"

namespace rapt {

class SigprocReader;

class SpectraInput {
 public:
  // `raw` may be null; if given it must be `source` itself, and is used only when its samples
  // can go to an engine packed.
  SpectraInput(SpectraSource& source, SigprocReader* raw);
  const ObservationInfo& info() const { return source_.info(); }
  int nbits() const { return nbits_; }         // 1, 2, 4, 8 (packed) or 32 (float)
  void use_float() { nbits_ = 32; }            // before the first read
  size_t spectrum_bytes() const;
  size_t read(uint8_t* out, size_t max_spectra);

 private:
  SpectraSource& source_;
  SigprocReader* raw_ = nullptr;
  int nbits_ = 32;
};

class SpectraBuffer {
 public:
  // Without `channel_sums` the buffer skips the running sums (a pass over every sample) and
  // can pad only with zeros: for searches that never use samples computed from padding.
  SpectraBuffer(SpectraInput& input, size_t capacity, bool channel_sums = true);
  // Reads until the buffer holds `capacity` spectra or the input ends; returns filled().
  size_t fill();
  size_t filled() const { return filled_; }
  int64_t spectra_read() const { return spectra_read_; }
  SpectraBlock block() const { return {data_.data(), nbits_, filled_}; }
  // Drops the first n spectra (all of them if n >= filled()).
  void shift(size_t n);
  // Converts what is buffered to float32; later spectra are float32 too (for padding).
  void switch_to_float();
  // Fills the buffer up to `capacity` spectra with each channel's mean over all spectra read.
  void pad_with_means();
  // Fills the buffer up to `capacity` spectra with zeros, in the buffer's sample format.
  void pad_with_zeros();
  std::vector<double> channel_means() const;

  // From now on fill() leaves the sums of the spectra it reads to add_pending_sums(), which may
  // run on another thread while the block is processed (both only read the buffer); shift(),
  // fill() and switch_to_float() add whatever is still pending first, so it cannot be missed.
  void defer_sums();
  void add_pending_sums();

 private:
  void add_to_sums(const uint8_t* spectra, size_t n);

  SpectraInput& input_;
  int nchans_;
  int nbits_;
  size_t capacity_;
  size_t spectrum_bytes_;
  LargeBuffer data_;  // capacity_ spectra; only the first filled_ hold data
  size_t filled_ = 0;
  int64_t spectra_read_ = 0;
  bool channel_sums_;
  std::vector<double> sums_;            // per channel, of float samples
  std::vector<uint64_t> integer_sums_;  // per channel, of packed (integer) samples: exact
  bool defer_sums_ = false;
  size_t pending_from_ = 0;             // spectra [pending_from_, filled_) are not summed yet
};

}  // namespace rapt
