// Which station samples count, and how many each baseline had (rapt(7), CORRELATION).
//
// A station's sample is invalid when the flags file covers it, when every value it has in the
// block (all channels, polarisations, real and imaginary parts) is exactly 0 (how recorders mark
// lost packets), or when one of them is NaN or infinite. Invalid samples are zeroed before correlating, so they add nothing to any sum, and
// a baseline's visibility is its sum divided by the samples valid at both of its stations. The
// validity is one bit per station per sample; a baseline's count is the popcount of the AND of
// its stations' bits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rapt {

class StationSampleMask {
 public:
  // Every sample of `nant` stations valid.
  void reset(int nant, int64_t nsamples);
  int nant() const { return nant_; }
  int64_t nsamples() const { return nsamples_; }
  // Marks samples [first, end) of station `ant` invalid (clipped to the block).
  void invalidate(int ant, int64_t first, int64_t end);
  bool valid(int ant, int64_t t) const {
    return (bits_[size_t(ant) * nwords_ + size_t(t >> 6)] >> (t & 63)) & 1u;
  }
  // Invalid samples of a station, and of all stations together.
  int64_t invalid_count(int ant) const { return invalid_[size_t(ant)]; }
  int64_t invalid_count() const;
  // Samples valid at both stations (a1 == a2: at that station).
  int64_t valid_count(int a1, int a2) const;

 private:
  int nant_ = 0;
  int64_t nsamples_ = 0;
  size_t nwords_ = 0;
  std::vector<uint64_t> bits_;     // [ant][word]: bit t % 64 of word t / 64 = sample t valid
  std::vector<int64_t> invalid_;   // [ant]
};

// Marks the samples of a canonical block ([chan][ant][time][pol][re, im], npol 1 or 2) whose
// every value of a station is exactly 0. Returns how many station samples that marked newly.
// Stations are shared out among `threads` threads.
int64_t mark_lost_samples(const float* block, int nchan, int nant, int64_t nsamples, int npol,
                          StationSampleMask& mask, int threads = 1);

// Marks the samples of such a block with a NaN or infinite value (float input: a recorder's
// or a converter's mark for bad data), which would make every sum they enter NaN. Returns how
// many station samples that marked newly.
int64_t mark_non_finite_samples(const float* block, int nchan, int nant, int64_t nsamples,
                                int npol, StationSampleMask& mask, int threads = 1);

// The same without a mask kept: sets every value of those station samples to 0 and returns how
// many there were (bf's blocks, channelize's output).
int64_t zero_non_finite_samples(float* block, int nchan, int nant, int64_t nsamples, int npol,
                                int threads = 1);

// Sets every value of the invalid station samples to 0.
void zero_invalid_samples(float* block, int nchan, int nant, int64_t nsamples, int npol,
                          const StationSampleMask& mask, int threads = 1);

// Adds each baseline's valid samples to counts[baseline_index(a1, a2)] (nant (nant + 1) / 2).
void add_baseline_valid_counts(const StationSampleMask& mask, std::vector<int64_t>& counts);

}  // namespace rapt
