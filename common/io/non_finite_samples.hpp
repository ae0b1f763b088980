// Float samples that are NaN or infinite (a recorder's dropped packets, a pipeline's flagged
// data) would spread through every sum that takes them: a dedispersed series, a boxcar, a
// spectrum. Readers of float data (SIGPROC, PSRFITS, PRESTO .dat) replace each by its
// channel's recent level: an average over about the last kLevelSpectra finite samples of the
// channel, started from the mean of the first kLevelSpectra spectra read (so that samples before
// the first finite one get the level that follows them), or 0 in a channel that has had no
// finite sample yet. A gap then reads as the channel's level, not as a held sample or a step
// to 0, and the result depends only on the data (not on how they are read in blocks).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rapt {

class NonFiniteSamples {
 public:
  // Spectra (rows of `nchans` values) averaged into a channel's level.
  static constexpr size_t kLevelSpectra = 4096;

  // `path` names the data in the warning; `what` the thing a row is ("spectrum" or "sample").
  NonFiniteSamples(std::string path, int nchans, std::string what = "spectrum");

  // Starts each channel's level from the mean of its finite values in `spectra` (the first
  // spectra of the data, up to kLevelSpectra of them, about to be read again). Optional: without
  // it a channel's level starts at its first finite value.
  void start_levels(const float* spectra, size_t nspectra);

  // Replaces, in place, the values of `nspectra` spectra that are not finite; `first_spectrum`
  // is the first one's index in the data (for the warning).
  void replace(float* spectra, size_t nspectra, int64_t first_spectrum);

  int64_t count() const { return count_; }
  // One line naming the file, the count and the first, or "" when there were none.
  std::string warning() const;

 private:
  void replace_slowly(float* spectra, size_t nspectra, int64_t first_spectrum);

  std::string path_;
  size_t nchans_;
  std::string what_;
  std::vector<float> level_;
  std::vector<uint8_t> has_level_;
  size_t channels_without_level_;
  int64_t count_ = 0;
  int64_t first_spectrum_ = -1;
  size_t first_channel_ = 0;
};

}  // namespace rapt
