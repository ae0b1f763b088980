// Float samples that are NaN or infinite (a recorder's dropped packets, a pipeline's flagged
// data) would spread through every sum that takes them: a dedispersed series, a boxcar, a
// spectrum. Readers of float data (SIGPROC, PSRFITS, PRESTO .dat) replace each by its
// channel's level: the mean of the channel's finite samples in the previous interval of
// kLevelSpectra spectra (intervals counted from the start of the data), or, in the first
// interval, in the first spectra read ahead (start_levels); a channel without finite samples
// keeps its last level (0 at first). A gap then reads as the channel's level, not as a held
// sample or a step to 0, and the result depends only on the data, not on how they are read in
// blocks.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rapt {

class NonFiniteSamples {
 public:
  // Spectra in an interval, and the most a reader reads ahead for start_levels.
  static constexpr size_t kLevelSpectra = 4096;

  // `path` names the data in the warning; `what` the thing a row is ("spectrum" or "sample").
  // With `nifs` > 1 a spectrum holds nifs x nchans values, IF by IF (as SIGPROC stores them),
  // each value a channel of its own here.
  NonFiniteSamples(std::string path, int nchans, std::string what = "spectrum", int nifs = 1);

  // The levels of the first interval: the mean of each channel's finite values in `spectra`
  // (the first spectra of the data, up to kLevelSpectra of them, about to be read again).
  void start_levels(const float* spectra, size_t nspectra);

  // Replaces, in place, the values of `nspectra` spectra that are not finite; `first_spectrum`
  // is the first one's index in the data (intervals and the warning count from it).
  void replace(float* spectra, size_t nspectra, int64_t first_spectrum);

  int64_t count() const { return count_; }
  // One line naming the file, the count and the first, or "" when there were none.
  std::string warning() const;
  // Puts that line into a reader's `warnings` once there is one, and keeps it up to date there
  // (the same list, call after call).
  void note_in(std::vector<std::string>& warnings);

 private:
  void close_interval();

  std::string path_;
  size_t nchans_;  // values per spectrum (channels x IFs)
  size_t nifs_;
  std::string what_;
  std::vector<float> level_;     // what a value that is not finite becomes, per channel
  std::vector<float> sum_;       // finite values of the current interval
  std::vector<uint32_t> finite_; // and their number
  int64_t interval_ = -1;        // the current interval
  int64_t count_ = 0;
  int64_t first_spectrum_ = -1;
  size_t first_channel_ = 0;
  size_t noted_at_ = SIZE_MAX;   // the warning's index in the list note_in() keeps it in
};

// A whole series (a .dat) read at once: its NaNs and infinities replaced in place, the first
// interval's level from its own first samples. Returns the warning, or "".
std::string replace_non_finite_in_series(std::vector<float>& samples, const std::string& path);

}  // namespace rapt
