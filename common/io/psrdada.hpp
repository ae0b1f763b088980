// PSRDADA files: an ASCII header of exactly HDR_SIZE bytes ("KEY value" lines, NUL padded),
// then the payload to the end of the file. rapt's native multi-antenna voltage format is a
// PSRDADA file with the keys of formats-interferometry.md section 4.
//
// Payload orders read (ORDER key; axes slowest first, T time, F channel, A antenna, P pol):
//   TFATP  rapt native: blocks of INNER_T samples, each [chan][ant][time][pol][re,im]
//   TAFTP  MeerKAT F-engine style: blocks of INNER_T samples, each [ant][chan][time][pol][re,im]
//   TFP    [time][chan][pol][re,im]   (the default when ORDER is absent)
//   TPF    [time][pol][chan][re,im]
//   FTP    [chan][time][pol][re,im] over the whole file (NCHAN > 1 needs a regular file)
// The last three are single-antenna orders. NBIT 8 and 16 are two's-complement integers,
// NBIT 32 IEEE float; NDIM 1 real, 2 complex.
//
// Block files end with at most one short block: when the samples do not fill the last
// INNER_T block, the writer writes a block of the same order whose time axis is as long as
// the samples left, and a reader takes the length of that block from the bytes left at the
// end of the stream. No header key has to be known in advance, so a file can be written to a
// pipe; every block but the last is exactly RESOLUTION bytes.
// Trailing bytes that are not a whole time sample are ignored with a warning.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_stream.hpp"
#include "io/voltage_stream.hpp"

namespace rapt {

struct DadaHeader {
  VoltageHeader voltage;
  int64_t hdr_size = 4096;        // bytes before the payload
  std::string order = "TFP";      // one of the orders above
  int64_t inner_t = 0;            // samples per block (TFATP, TAFTP)
  int64_t obs_offset_bytes = 0;   // bytes of the stream before this file's payload
  std::vector<std::string> warnings;

  // Bytes of one time sample of every channel, antenna and polarisation.
  int64_t bytes_per_sample() const {
    const VoltageHeader& v = voltage;
    return int64_t(v.nchan) * v.nant * v.npol * v.values_per_sample() * v.nbits / 8;
  }
  bool block_order() const { return order == "TFATP" || order == "TAFTP"; }
};

// Parses the header text (the first HDR_SIZE bytes of a file or any prefix holding the whole
// text; reading stops at the first NUL). Throws DataError "name: DADA header has no NCHAN"
// and the like for a missing or bad required key (HDR_SIZE, NCHAN, NPOL, NBIT, TSAMP; NANT
// and INNER_T for the block orders).
DadaHeader parse_dada_header(std::string_view text, const std::string& name);

// The native header text for `header` (NUL padded to HDR_SIZE, a multiple of 4096 bytes),
// ORDER TFATP with `inner_t` samples per block. Throws DataError naming `name` if the header cannot be
// written (nbits not 8, 16 or 32-float; antenna list not matching nant).
std::string format_dada_header(const VoltageHeader& header, int64_t inner_t,
                               const std::string& name);

// Time samples per block that the native writer uses: 256, or fewer (a power of two, at least
// one) where a block of 256 would pass kDadaMostBlockBytes, as with many channels (channelize
// --nchan 8192 of 64 channels), since the writer holds a block in memory.
constexpr int64_t kDadaInnerT = 256;
constexpr int64_t kDadaMostBlockBytes = int64_t(64) << 20;
int64_t dada_inner_t(const VoltageHeader& header);

class PsrdadaReader : public VoltageReader {
 public:
  explicit PsrdadaReader(const std::string& path);  // "-" reads standard input
  // Reads `file` under `name` (closed at the end unless stdin), whose first bytes, `consumed`,
  // were read already to tell its format: a pipe's cannot be read again.
  PsrdadaReader(const std::string& name, FILE* file, std::vector<uint8_t> consumed);
  explicit PsrdadaReader(std::unique_ptr<ByteStream> in);
  ~PsrdadaReader() override;
  PsrdadaReader(const PsrdadaReader&) = delete;
  PsrdadaReader& operator=(const PsrdadaReader&) = delete;

  const VoltageHeader& header() const override { return dada_.voltage; }
  const DadaHeader& dada_header() const { return dada_; }
  [[nodiscard]] int64_t read(int64_t nsamples, VoltageBlock& block) override;
  const std::vector<std::string>& warnings() const override { return dada_.warnings; }

 private:
  void read_header();
  // Whether read() decodes rows straight from raw_ (ORDER TFATP).
  bool raw_rows() const;
  bool load_chunk();
  void load_ftp_chunk(int64_t ntime);
  void note_partial(size_t bytes);
  void refuse_joined_header(const uint8_t* data, size_t bytes, int64_t offset, std::string& tail);

  std::unique_ptr<ByteStream> in_;
  std::string path_;
  DadaHeader dada_;
  std::vector<uint8_t> raw_;
  std::vector<float> values_;
  std::vector<float> samples_;    // current chunk in canonical order
  int64_t chunk_ntime_ = 0;
  int64_t chunk_pos_ = 0;
  int64_t next_sample_ = 0;
  int64_t samples_loaded_ = 0;    // FTP: samples of each channel loaded so far
  bool at_end_ = false;
  int64_t payload_read_ = 0;      // payload bytes read so far (time-major orders)
  std::string payload_tail_;      // the last bytes read, for a key cut between two reads
  std::vector<std::string> channel_tails_;  // ORDER FTP: the same for each channel's reads
};

}  // namespace rapt
