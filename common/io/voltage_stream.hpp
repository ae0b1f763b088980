// Channelised (or real-sampled) station voltages, whatever file they came from: PSRDADA
// (rapt's native multi-antenna format), GUPPI RAW, VDIF. Readers turn each format into one
// header and blocks of float samples in one canonical order; writers take the same.
//
// Canonical block order, slowest first: [channel][antenna][time][polarisation][re, im]
// (real-sampled data: [channel][antenna][time][polarisation], one float each). That is the
// native PSRDADA ORDER TFATP within one time block: per channel, a contiguous antenna x time
// matrix per polarisation, ready for beam forming and correlation.
// Format facts: shared reference formats-interferometry.md sections 1-4.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "geometry/array_layout.hpp"
#include "io/byte_stream.hpp"
#include "io/vdif_read_options.hpp"

namespace rapt {

struct VoltageHeader {
  std::string format;      // "PSRDADA", "GUPPI RAW", "VDIF"
  std::string telescope;
  std::string instrument;
  std::string source;
  double ra_deg = 0;       // J2000 pointing / phase centre
  double dec_deg = 0;
  bool pointing_known = true;  // false: the file names no RA and DEC (VDIF, a header without them)
  int nant = 1;
  int nchan = 1;
  int npol = 1;
  bool complex_samples = true;  // false: real samples (one float per value)
  int nbits = 8;                // bits per real component as stored: 2, 4, 8, 16 or 32
  bool float_samples = false;   // nbits 32: IEEE float; otherwise two's-complement integers
  double centre_freq_mhz = 0;   // centre of the band
  double bandwidth_mhz = 0;     // signed: < 0 means channel 0 is the highest frequency
  double tsamp_s = 0;           // seconds per sample of one channel
  int start_mjd_day = 0;        // first sample: UTC MJD day ...
  double start_mjd_seconds = 0; // ... plus seconds into that day (kept apart for precision)
  int64_t nsamples = -1;        // time samples in the file; -1 = unknown (a pipe)
  std::string pol_basis = "LIN";  // "LIN" (X, Y) or "CIRC" (R, L)
  ArrayLayout array;            // antenna names and positions when the file carries them
  // Why the header's antenna positions were set aside ("ANT_NAMES lists 9 antennas, NANT is
  // 10"), for the message of a program that needs them; empty where it gives none or they hold.
  std::string positions_set_aside;

  int values_per_sample() const { return complex_samples ? 2 : 1; }
  // Floats in one canonical block of `nsamples` time samples.
  size_t block_values(int64_t nsamples) const {
    return size_t(nchan) * nant * size_t(nsamples) * npol * values_per_sample();
  }
  // Centre frequency of channel c, MHz: centre - bw/2 + (c + 0.5) * bw/nchan (bw signed).
  double channel_freq_mhz(int c) const {
    return centre_freq_mhz - bandwidth_mhz / 2 + (c + 0.5) * bandwidth_mhz / nchan;
  }
  double start_mjd() const { return start_mjd_day + start_mjd_seconds / 86400.0; }
  // MJD 0 (1858) is a reader's "no start time" (a PSRDADA header without UTC_START or MJD_START).
  bool start_known() const { return start_mjd_day != 0; }
};

// A stretch of samples in canonical order; `data` holds header.block_values(nsamples) floats.
struct VoltageBlock {
  int64_t first_sample = 0;  // index of the first time sample since the start of the file
  int64_t nsamples = 0;
  std::vector<float> data;
};

class VoltageReader {
 public:
  virtual ~VoltageReader() = default;
  virtual const VoltageHeader& header() const = 0;
  // Reads up to `nsamples` time samples into `block` (resized to fit). Returns the number read:
  // 0 at the clean end of the data. Throws DataError naming the file on a short or bad read.
  [[nodiscard]] virtual int64_t read(int64_t nsamples, VoltageBlock& block) = 0;
  // What the reader noticed in the file and worked around, in the order met: the header's
  // from the start ("DADA header has no ORDER; assumed TFP"), the data's as reading reaches
  // them (a last sample cut short). Some name the file, some do not (voltage_warnings below).
  virtual const std::vector<std::string>& warnings() const = 0;
};

// The reader's warnings from number `from` on, each naming the file `path` once.
std::vector<std::string> voltage_warnings(const VoltageReader& reader, const std::string& path,
                                          size_t from = 0);

struct Messages;
// Prints those as warnings; returns the number the reader has now, the `from` of the next call
// (a program calls it when it opens the file, for the header's, and after reading, for the
// data's).
size_t show_voltage_warnings(const VoltageReader& reader, const std::string& path,
                             const Messages& messages, size_t from = 0);

// Opens a voltage file, recognising the format from its first bytes (GUPPI cards, a DADA
// header, VDIF frame words). "-" reads standard input, a pipe or redirected from a file, in any
// of the three formats. `vdif` says what VDIF's frames do not (vdif_read_options.hpp). Throws
// DataError "path: problem".
std::unique_ptr<VoltageReader> open_voltage_file(const std::string& path,
                                                 const VdifReadOptions& vdif = {});
// The same for a stream already open (its first bytes perhaps read already: ByteStream).
std::unique_ptr<VoltageReader> open_voltage_stream(std::unique_ptr<ByteStream> in,
                                                   const VdifReadOptions& vdif = {});
// Which voltage format a stream holds, from its first bytes (read, and left to be read again):
// "GUPPI RAW", "PSRDADA", "VDIF", or "" for none of them.
std::string voltage_format_of(ByteStream& in);

// A program whose output needs the sky frequency refuses a file whose band is not known
// (centre 0): VDIF given no --vdif-freq (its frames never carry it), a UsageError; a PSRDADA
// header without FREQ or BW, a GUPPI one without OBSFREQ or CHAN_BW, a DataError. Both name
// the file and what needs it (`needed_by`: "a filterbank needs", "visibilities need").
void require_sky_frequency(const VoltageHeader& header, const std::string& path,
                           const char* needed_by);

// A file that names no pointing (VDIF frames, a PSRDADA or GUPPI header without RA or DEC) is
// refused by a program that would otherwise steer or phase towards RA 0, Dec 0, with a
// UsageError naming the file and the options that give the direction (`remedy`).
void require_pointing(const VoltageHeader& header, const std::string& path, const char* remedy);

// The header keys that give a file's start time, for messages: "UTC_START or MJD_START"
// (PSRDADA), "STT_IMJD" (GUPPI RAW). VDIF frames always carry theirs.
const char* start_time_keys(const VoltageHeader& header);

// A file without a start time (start_known) is refused by a program whose geometry needs one,
// with a DataError "path: carries no start time (KEYS); <needed>".
void require_start_time(const VoltageHeader& header, const std::string& path,
                        const std::string& needed);

// Writes blocks in the order given; the file appears under its final name only at commit().
// Float samples are rounded to the nearest integer and clipped to the header's nbits range
// (clipped_values() counts them); nbits 32 with float_samples writes IEEE floats unchanged.
class VoltageWriter {
 public:
  virtual ~VoltageWriter() = default;
  virtual void write(const VoltageBlock& block) = 0;
  virtual void commit() = 0;
  virtual int64_t clipped_values() const = 0;
};

// rapt's native PSRDADA file (ORDER TFATP, INNER_T samples per time block; "-" = stdout).
std::unique_ptr<VoltageWriter> make_psrdada_writer(const std::string& path,
                                                   const VoltageHeader& header, bool overwrite);
// GUPPI RAW blocks (one antenna, 8-bit complex, channel-major payload).
std::unique_ptr<VoltageWriter> make_guppi_writer(const std::string& path,
                                                 const VoltageHeader& header, bool overwrite);

}  // namespace rapt
