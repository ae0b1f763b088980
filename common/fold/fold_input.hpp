// fold's input: a PRESTO time series (.dat float32 or .sdat int16, with its .inf), folded as
// one series, or raw filterbank data (SIGPROC or PSRFITS, recognised from its first bytes),
// dedispersed at one DM into subbands that are folded one by one so the DM can still be
// searched afterwards.
//
// Subbands are formed as prepsubband does: channels in ascending frequency, nchans / nsub per
// subband, each channel delayed to its subband's highest channel at the DM (rounded to whole
// samples, PRESTO's constant 1/2.41e-4). Every spectrum gives one subband sample; where a
// channel's delayed sample lies past the end of the data, the channel's mean over the data read
// so far stands in, so nothing is dropped.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rapt {

struct FoldObservation {
  std::string path;          // as given
  std::string filenm;        // file name without directories (the .pfd's "filenm")
  std::string root;          // path without its suffix: default output root
  bool raw = false;          // filterbank data (subbands), else a time series
  int64_t nsamples = 0;
  double dt_s = 0.0;
  std::string telescope = "Unknown";
  double epoch_mjd = 0.0;    // of the first sample; 0 = unknown
  bool barycentric = false;
  double ra_deg = 0.0, dec_deg = 0.0;
  int numchan = 1;
  double lofreq_mhz = 0.0;   // centre of the lowest channel
  double chan_wid_mhz = 0.0; // positive
  double dm = 0.0;           // of a time series (its .inf)
};

class FoldInput {
 public:
  virtual ~FoldInput() = default;
  const FoldObservation& observation() const { return observation_; }
  // Raw data only: the subbands and the DM to form them at (before the first read). Throws
  // UsageError if nsub does not divide the channels, or for nsub != 1 on a time series.
  virtual void set_subbands(int nsub, double dm) = 0;
  virtual int nsub() const = 0;
  // Up to max_samples samples of every subband: out[sub * stride + k]. Returns how many; 0 at
  // the end. Throws DataError naming the file on a read error.
  [[nodiscard]] virtual size_t read(float* out, size_t stride, size_t max_samples) = 0;
  // What its reader let pass (SpectraSource::warnings; a .dat's NaNs), complete once it is read.
  virtual std::vector<std::string> warnings() const { return {}; }

 protected:
  FoldObservation observation_;
};

// ".dat" and ".sdat" are time series (their .inf beside them); anything else must be raw data.
// Throws DataError naming the file.
std::unique_ptr<FoldInput> open_fold_input(const std::string& path);

// prepfold's default number of subbands for `nchans` channels; 0 if it has none.
int default_subbands(int nchans);

}  // namespace rapt
