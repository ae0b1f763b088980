// What channelize writes: the channelised voltages as rapt's PSRDADA (floats, or integers
// scaled to a stated noise level), or their Stokes I as a SIGPROC filterbank. Both appear under
// their names only at commit().
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/voltage_stream.hpp"

namespace rapt {

class ChannelizedOutput {
 public:
  virtual ~ChannelizedOutput() = default;
  // Takes `nsamples` channelised samples in canonical order (channelised_header's layout);
  // may change `samples` (scaling in place). The caller hands whole integrations (--tavg).
  virtual void write(std::vector<float>& samples, int64_t nsamples) = 0;
  virtual void commit() = 0;
  // A line on the scaling chosen ("" when there is none to report), once data was written.
  virtual std::string scaling_note() const = 0;
  // Values clipped to the integer range so far.
  virtual int64_t clipped_values() const = 0;
};

struct ChannelizedOutputSettings {
  std::string path;           // "-" = standard output
  int nbits = 32;             // voltages 8, 16, 32; filterbank 8, 32
  double scale = 0;           // voltages: factor; 0 = automatic for integers (1 for floats)
  int warmup_samples = 0;     // leading output samples the filter was still filling (ntaps - 1):
                              // left out of the automatic scaling when the data have more
  bool overwrite = false;
  std::string input_name;     // for the filterbank's rawdatafile
};

// Voltages: `header` is channelised_header's (its nbits is replaced by settings.nbits).
// Automatic scale: noise rms 16 (8 bits) or 4096 (16 bits) per real or imaginary part, over
// the first blocks until they hold 4096 samples past the filter's warm-up (held until then).
std::unique_ptr<ChannelizedOutput> make_voltage_output(const VoltageHeader& header,
                                                       const ChannelizedOutputSettings& settings);

// Stokes I (|X|^2 + |Y|^2, or |X|^2 for one polarisation) summed over the antennas, or of
// antenna `antenna` alone (>= 0), averaged over `tavg` samples; channels top first (foff < 0).
// 8 bits: stored = 64 + 16 (I - mean) / rms, mean and rms per channel from the first blocks,
// held until they hold 4096 spectra past the filter's warm-up.
std::unique_ptr<ChannelizedOutput> make_detected_output(const VoltageHeader& header, int antenna,
                                                        int tavg,
                                                        const ChannelizedOutputSettings& settings);

}  // namespace rapt
