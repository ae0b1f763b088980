// Cleaning applied to spectra before dedispersion, interval by interval (fixed intervals of the
// input, so the result never depends on how the data are later cut into gulps), in this order:
//   1. mask: samples an rfifind-style mask flags in an interval are replaced by the channel's
//      mean over that interval's unflagged samples (or, if none, its last such mean);
//   2. normalisation: each channel becomes (x - median) / (1.4826 MAD) over the interval;
//   3. clipping: spectra whose channel mean strays more than clip_sigma robust sigmas from the
//      interval's median are replaced by the channels' medians (broadband bursts of RFI);
//   4. zero-DM: each spectrum's sum over the channels, less one level for the whole input (the
//      first interval's mean sum), is subtracted from the channels in proportion to the
//      bandpass (the interval's channel means), as PRESTO's -zerodm does (removes broadband,
//      undispersed signal, also where it passes through the receiver's gain); in equal shares
//      after normalisation or for data of negative means.
// Channels in `zapped` take part in none of the statistics (they are left out downstream).
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "io/spectra_source.hpp"

namespace rapt {

struct SpectraPreparation {
  size_t interval_spectra = 4096;  // statistics interval (a mask's own interval when masking)
  // Per interval, the channels (file order) to replace; empty = no mask. Intervals past the
  // last use the last list.
  std::vector<std::vector<int>> masked_channels;
  bool normalise = false;
  double clip_sigma = 0.0;         // 0 = no clipping
  bool zerodm = false;
  std::vector<bool> zapped;        // per channel; empty = none

  bool any() const { return !masked_channels.empty() || normalise || clip_sigma > 0.0 || zerodm; }
};

// A SpectraSource that reads another one and cleans what it reads. Float32 out.
class PreparedSpectra : public SpectraSource {
 public:
  // Throws UsageError for an interval of 0 spectra or a zapped vector of the wrong size.
  PreparedSpectra(SpectraSource& source, SpectraPreparation preparation);
  const ObservationInfo& info() const override { return source_.info(); }
  [[nodiscard]] size_t read(float* out, size_t max_spectra) override;

 private:
  bool load_interval();
  void apply_mask(size_t n);
  void normalise(size_t n);
  void clip(size_t n);
  void zerodm(size_t n);
  bool used(int c) const { return prep_.zapped.empty() || !prep_.zapped[c]; }

  SpectraSource& source_;
  SpectraPreparation prep_;
  int nchans_;
  std::vector<float> interval_;       // current interval, time-major
  size_t interval_filled_ = 0;
  size_t served_ = 0;
  size_t interval_index_ = 0;
  std::vector<double> last_good_mean_;  // per channel, for channels masked a whole interval
  std::vector<bool> has_good_mean_;
  double zerodm_level_ = 0.0;  // the spectra's total power after zero-DM (the first interval's)
  bool zerodm_level_known_ = false;
};

}  // namespace rapt
