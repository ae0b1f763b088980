// SIGPROC filterbank (.fil) and time-series (.tim) files: header parsing and writing, streamed
// sample reading and writing. Layout facts: shared reference formats.md section 1.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/atomic_output.hpp"
#include "io/spectra_source.hpp"

namespace rapt {

struct SigprocHeader {
  std::string rawdatafile;
  std::string source_name;
  int telescope_id = -1;  // -1 = keyword absent
  int machine_id = -1;
  int data_type = 1;      // 1 filterbank, 2 time series, 6 dedispersed subbands
  bool barycentric = false;
  bool pulsarcentric = false;
  double az_start = 0.0;
  double za_start = 0.0;
  double src_raj = 0.0;   // hhmmss.s packed into a double
  double src_dej = 0.0;   // +-ddmmss.s packed into a double
  double tstart = 0.0;    // MJD
  double tsamp = 0.0;     // s
  int nbits = 8;
  double fch1 = 0.0;      // MHz, channel 0
  double foff = 0.0;      // MHz
  int nchans = 1;
  int nifs = 1;
  int nbeams = 0;         // 0 = keyword absent
  int ibeam = 0;
  std::optional<double> refdm;
  // The `signed` byte: absent, or its value. PRESTO reads any non-zero as int8; SIGPROC reads
  // +1 as unsigned. We treat -1 as int8 and anything else as unsigned, and write -1 or nothing.
  std::optional<int8_t> signed_byte;
  std::optional<double> period;     // folded-profile keywords: read, never written
  std::optional<int> nbins;
  std::optional<int64_t> npuls;
  std::vector<double> channel_freqs;  // FREQUENCY_START ... FREQUENCY_END table, if any
  size_t header_bytes = 0;            // bytes up to and including HEADER_END (set by the parser)

  bool samples_signed() const { return nbits == 8 && signed_byte && *signed_byte == -1; }
  size_t bytes_per_spectrum() const;  // nifs * nchans * nbits / 8
};

// Parses a header from memory (so tests and fuzzers can reach it). `name` is used in messages.
// Throws DataError naming `name`: truncated header, missing HEADER_START/HEADER_END, bad string
// token, unsupported nbits, nchans <= 0, tsamp <= 0. Unknown keywords whose value size cannot be
// known are errors; `warnings` receives a line per keyword skipped or value repaired.
SigprocHeader parse_sigproc_header(const uint8_t* data, size_t size, const std::string& name,
                                   std::vector<std::string>* warnings = nullptr);

// Encodes a header for writing: only keywords PRESTO's reader accepts, strings clipped to
// 79 bytes, `signed` written only for int8 data.
std::vector<uint8_t> encode_sigproc_header(const SigprocHeader& header);

// Reads a filterbank (or .tim: nchans = 1) from a file or stdin ("-"), streaming.
class SigprocReader : public SpectraSource {
 public:
  explicit SigprocReader(const std::string& path);
  ~SigprocReader() override;
  const ObservationInfo& info() const override { return info_; }
  const SigprocHeader& header() const { return header_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  [[nodiscard]] size_t read(float* out, size_t max_spectra) override;  // IFs are summed
  // The stored bytes of up to max_spectra spectra (bytes_per_spectrum() each), unconverted.
  [[nodiscard]] size_t read_raw(uint8_t* out, size_t max_spectra);
  size_t skip(size_t spectra) override;

 private:
  std::string path_;
  FILE* file_ = nullptr;
  bool owns_file_ = false;
  SigprocHeader header_;
  ObservationInfo info_;
  std::vector<std::string> warnings_;
  std::vector<uint8_t> raw_;
};

// Unpacks `nspectra` stored spectra (bytes as in the file) to float, summing IFs.
void unpack_sigproc_samples(const uint8_t* raw, size_t nspectra, const SigprocHeader& header,
                            float* out);

// Writes a filterbank or .tim atomically: header first, then samples appended in blocks.
class SigprocWriter {
 public:
  SigprocWriter(const std::string& path, const SigprocHeader& header, bool overwrite);
  // Quantises float samples to header.nbits (clipped to the representable range, rounded to
  // nearest) and appends them: nspectra * nchans values, time-major.
  void write(const float* samples, size_t nspectra);
  void write_raw(const uint8_t* bytes, size_t nbytes);  // already packed
  void commit();

 private:
  AtomicOutputFile out_;
  SigprocHeader header_;
  std::vector<uint8_t> packed_;
};

// Conversions between SIGPROC's packed sexagesimal doubles and degrees.
double sigproc_ra_to_deg(double hhmmss);
double sigproc_dec_to_deg(double ddmmss);
double deg_to_sigproc_ra(double ra_deg);
double deg_to_sigproc_dec(double dec_deg);

// Telescope / backend names for SIGPROC ids (PRESTO's table); "Unknown" otherwise.
std::string sigproc_telescope_name(int telescope_id);
std::string sigproc_machine_name(int machine_id);
int sigproc_telescope_id(const std::string& name);  // -1 if unknown

ObservationInfo observation_from_sigproc(const SigprocHeader& header, const std::string& path);

}  // namespace rapt
