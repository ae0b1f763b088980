// A stream of spectra (filterbank data) from any supported file: SIGPROC filterbank or PSRFITS
// search mode. Programs open inputs through open_spectra_source() and never look at suffixes:
// the format is recognised from the first bytes.
#pragma once
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rapt {

// What a program needs to know about an observation, whatever the file format.
struct ObservationInfo {
  std::string path;          // as given ("-" for stdin)
  std::string format;        // "SIGPROC filterbank", "PSRFITS search"
  std::string source_name;
  std::string telescope;     // name, e.g. "Parkes", "GBT"; "Unknown" if not known
  std::string instrument;    // backend name; "Unknown" if not known
  int telescope_id = -1;     // SIGPROC id where known, else -1
  int machine_id = -1;
  double ra_deg = 0.0;       // J2000
  double dec_deg = 0.0;
  double az_start_deg = 0.0;
  double za_start_deg = 0.0;
  double tstart_mjd = 0.0;   // UTC MJD of the first sample
  double tsamp_s = 0.0;
  double fch1_mhz = 0.0;     // centre frequency of channel 0 as stored in the file
  double foff_mhz = 0.0;     // channel step; < 0 means channel 0 is the highest frequency
  int nchans = 0;
  int nbits = 0;             // bits per stored sample
  int npol_summed = 1;       // polarisation products summed into total intensity
  bool barycentric = false;
  int64_t nspectra = -1;     // total spectra in the input; -1 if unknown (a pipe)

  double channel_freq_mhz(int c) const { return fch1_mhz + c * foff_mhz; }
  double lowest_freq_mhz() const;   // centre of the lowest channel
  double highest_freq_mhz() const;  // centre of the highest channel
  double duration_s() const { return nspectra < 0 ? -1.0 : nspectra * tsamp_s; }
};

class SpectraSource {
 public:
  virtual ~SpectraSource() = default;
  virtual const ObservationInfo& info() const = 0;

  // Reads up to `max_spectra` spectra as float32, time-major: out[s * nchans + c], channel c at
  // info().channel_freq_mhz(c). Returns the number read; 0 only at the end of the data.
  // Throws DataError on a read error. A truncated final spectrum is dropped with a warning.
  [[nodiscard]] virtual size_t read(float* out, size_t max_spectra) = 0;

  // Skips spectra (seeks where possible). Returns the number skipped.
  virtual size_t skip(size_t spectra);

  // Float samples that are NaN or infinite are replaced by their channel's mean and
  // counted in warnings() (NonFiniteSamples); after this call they are read as they are (for
  // inspect, which counts them itself). Call before the first read().
  virtual void keep_non_finite_samples() {}

  // What the reader let pass, one line each naming the file: header values it replaced, bytes
  // after the last whole spectrum (found only at the end of a pipe, so programs report these
  // once the data are read).
  virtual const std::vector<std::string>& warnings() const;
};

// Opens `path` ("-" = stdin), recognising the format from its first bytes. Throws DataError
// naming the file when it is missing, unreadable, or in no supported format.
std::unique_ptr<SpectraSource> open_spectra_source(const std::string& path);
// The same for `file` (closed at the end unless stdin) whose first bytes, `first`, were read
// already to tell its format (a pipe's cannot be read again): they are handed to the reader.
std::unique_ptr<SpectraSource> open_spectra_source(const std::string& path, FILE* file,
                                                   std::vector<uint8_t> first);

}  // namespace rapt
