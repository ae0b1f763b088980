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
#include "io/non_finite_samples.hpp"
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
// token, unsupported nbits, nchans <= 0, nifs <= 0, tsamp absent or outside any instrument's
// range, nchans*nbits not a multiple of 8, a band (fch1, foff) that is not finite or reaches
// 0 MHz, a zero foff with several channels, a non-finite tstart or position (see
// io/header_validation.hpp for the messages). An unknown keyword is skipped when what follows shows its size (no value, or a
// 4-, 8- or 1-byte value followed by a known keyword); otherwise it is an error. `warnings`
// receives a line ("name: ...") per keyword skipped or value repaired.
SigprocHeader parse_sigproc_header(const uint8_t* data, size_t size, const std::string& name,
                                   std::vector<std::string>* warnings = nullptr);

// As parse_sigproc_header, but returns nothing when `data` ends before the header does (and
// nothing else is wrong so far): a stream reader then reads more bytes and tries again.
std::optional<SigprocHeader> parse_sigproc_header_prefix(const uint8_t* data, size_t size,
                                                         const std::string& name,
                                                         std::vector<std::string>* warnings);

// The checks parse_sigproc_header applies to the values it read (nbits, nchans, nifs, tsamp,
// sizes, band, epoch, position); throws DataError "name: header says ..." or
// "name: header field foff = 0 MHz; must be non-zero".
void validate_sigproc_header(const SigprocHeader& header, const std::string& name);

// Encodes a header for writing: only keywords PRESTO's reader accepts, strings clipped to
// 79 bytes, `signed` written only for int8 data.
std::vector<uint8_t> encode_sigproc_header(const SigprocHeader& header);

// Reads a filterbank (or .tim: nchans = 1) from a file or stdin ("-"), streaming: the file is
// read block by block, never whole. Regular files give nspectra from their size and seek in
// skip(); pipes give nspectra = -1. A trailing partial spectrum is ignored with a warning.
// Float (32-bit) samples that are NaN or infinite are replaced in read() (NonFiniteSamples;
// each IF's before the IFs are summed), counted in one warning, unless
// keep_non_finite_samples() was called.
class SigprocReader : public SpectraSource {
 public:
  explicit SigprocReader(const std::string& path);
  // Continues a stream whose first bytes were already read (format sniffing): `file` is open
  // and positioned just after `consumed`. Takes ownership of `file` unless it is stdin.
  SigprocReader(const std::string& path, FILE* file, std::vector<uint8_t> consumed);
  ~SigprocReader() override;
  SigprocReader(const SigprocReader&) = delete;
  SigprocReader& operator=(const SigprocReader&) = delete;

  const ObservationInfo& info() const override { return info_; }
  const SigprocHeader& header() const { return header_; }
  const std::vector<std::string>& warnings() const override { return warnings_; }
  [[nodiscard]] size_t read(float* out, size_t max_spectra) override;  // IFs are summed
  // The stored bytes of up to max_spectra spectra (bytes_per_spectrum() each), unconverted.
  [[nodiscard]] size_t read_raw(uint8_t* out, size_t max_spectra);
  size_t skip(size_t spectra) override;
  void keep_non_finite_samples() override { replace_non_finite_ = false; }

 private:
  void open(std::vector<uint8_t> consumed);
  void read_header(std::vector<uint8_t> bytes);
  size_t read_bytes(uint8_t* out, size_t wanted);  // pending bytes first, then the stream
  void note_partial_spectrum(size_t bytes);
  void refuse_joined_header(const uint8_t* data, size_t bytes);
  void replace_non_finite(float* values, size_t nspectra);
  void start_non_finite_levels();

  std::string path_;
  FILE* file_ = nullptr;
  bool owns_file_ = false;
  bool seekable_ = false;          // a regular file: size known, skip() seeks
  SigprocHeader header_;
  ObservationInfo info_;
  std::vector<std::string> warnings_;
  std::vector<uint8_t> raw_;       // one block of stored spectra for read()
  std::vector<uint8_t> pending_;   // bytes read past the header while parsing it
  size_t pending_pos_ = 0;
  int64_t spectra_left_ = -1;      // regular files: whole spectra not yet returned
  bool at_end_ = false;
  bool partial_noted_ = false;
  int64_t data_bytes_ = 0;         // bytes of spectra read or skipped so far
  std::vector<uint8_t> seam_;      // the last bytes read (up to 15), for refuse_joined_header
  bool replace_non_finite_ = true;
  std::optional<NonFiniteSamples> non_finite_;  // float data, once read() starts
  std::vector<float> if_values_;   // a block's floats IF by IF, where several IFs are summed
};

// Unpacks `nspectra` stored spectra (bytes as in the file) to float, summing IFs.
void unpack_sigproc_samples(const uint8_t* raw, size_t nspectra, const SigprocHeader& header,
                            float* out);

// Writes a filterbank or .tim atomically: header first, then samples appended in blocks.
// `path` "-" writes to stdout instead (no temporary file; commit() flushes).
class SigprocWriter {
 public:
  // Throws DataError naming `path` if the header cannot describe a valid file (see
  // parse_sigproc_header) or the output cannot be created.
  SigprocWriter(const std::string& path, const SigprocHeader& header, bool overwrite);
  // Quantises float samples to header.nbits (clipped to the representable range, rounded to
  // nearest) and appends them: nspectra * nifs * nchans values, time-major.
  void write(const float* samples, size_t nspectra);
  void write_raw(const uint8_t* bytes, size_t nbytes);  // already packed
  void commit();

 private:
  void write_bytes(const void* data, size_t nbytes);

  std::string path_;
  std::optional<AtomicOutputFile> out_;  // empty when writing to stdout
  SigprocHeader header_;
  std::vector<uint8_t> packed_;
};

// Quantises and packs `nvalues` samples as stored with header.nbits (and signedness); `out`
// receives nvalues * nbits / 8 bytes. nvalues * nbits must be a multiple of 8.
void pack_sigproc_samples(const float* in, size_t nvalues, const SigprocHeader& header,
                          uint8_t* out);

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
