// GUPPI RAW baseband files (GBT/Arecibo PUPPI, Breakthrough Listen, VEGAS): a sequence of
// blocks, each an ASCII header of 80-byte cards ending in END (padded with NULs to a multiple
// of 512 bytes when DIRECTIO is set) followed by BLOCSIZE payload bytes.
//
// Reading: blocks are read in order, from a file or a pipe, until the data end or a block is
// short (a file cut mid-block); the first OVERLAP samples of every block but the first repeat
// earlier data and are dropped.
// Payload order: channel-major [ant][chan][time][pol][re,im] unless PKTFMT is 'SIMPLE'
// ([time][chan][pol][re,im]); NBITS 4, 8 or 16 two's complement (4-bit: one byte per complex
// value, real in the high nibble). With NANTS > 1, OBSNCHAN counts the channels of all
// antennas together (NANTS x channels per antenna).
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_stream.hpp"
#include "io/voltage_stream.hpp"

namespace rapt {

struct GuppiBlockHeader {
  std::map<std::string, std::string> cards;  // keyword -> raw value text (quotes kept off)
  size_t header_bytes = 0;   // cards incl. END, plus DIRECTIO padding: payload offset
  int64_t blocsize = 0;      // payload bytes
  int obsnchan = 0;          // channels of all antennas
  int nants = 1;
  int npol_field = 0;        // NPOL as written: 4 = dual-pol complex
  int nbits = 8;
  int overlap = 0;           // samples repeating the previous block's end
  bool channel_major = true; // PKTFMT != 'SIMPLE'
  double obsfreq_mhz = 0;
  double obsbw_mhz = 0;
  double chan_bw_mhz = 0;    // signed: < 0 means descending channels
  double tbin_s = 0;
  int stt_imjd = 0;
  double stt_smjd_s = 0;
  double stt_offs_s = 0;
  int64_t pktidx = 0;
  int64_t pktsize = 0;       // 0 when absent

  int nchan_per_ant() const { return obsnchan / nants; }
  int npol() const { return npol_field >= 2 ? npol_field / 2 : 1; }
  // Time samples in the payload.
  int64_t ntime() const {
    return blocsize * 8 / (int64_t(obsnchan) * (npol_field >= 2 ? npol_field : 2) * nbits);
  }
};

// Parses one block header from `data` (cards from the first byte). Throws DataError
// "name: ..." when there is no END card within `data`, a required card (BLOCSIZE, OBSNCHAN,
// NPOL, NBITS, TBIN) is missing or a value is malformed or out of range.
GuppiBlockHeader parse_guppi_header(std::string_view data, const std::string& name);

// The VoltageHeader a GUPPI file with this first block header describes (complex samples).
// Notes oddities (TBIN disagreeing with CHAN_BW) in `warnings`.
VoltageHeader guppi_voltage_header(const GuppiBlockHeader& block,
                                   std::vector<std::string>& warnings);

class GuppiRawReader : public VoltageReader {
 public:
  explicit GuppiRawReader(const std::string& path);
  // Reads `file` under `name` (closed at the end unless stdin), whose first bytes, `consumed`,
  // were read already to tell its format: a pipe's cannot be read again.
  GuppiRawReader(const std::string& name, FILE* file, std::vector<uint8_t> consumed);
  explicit GuppiRawReader(std::unique_ptr<ByteStream> in);
  ~GuppiRawReader() override;
  GuppiRawReader(const GuppiRawReader&) = delete;
  GuppiRawReader& operator=(const GuppiRawReader&) = delete;

  const VoltageHeader& header() const override { return header_; }
  [[nodiscard]] int64_t read(int64_t nsamples, VoltageBlock& block) override;
  // Oddities met so far (inconsistent TBIN, PKTIDX gaps, a short final block).
  const std::vector<std::string>& warnings() const override { return warnings_; }

 private:
  bool read_block_header(GuppiBlockHeader& block);  // false at a clean end of file
  bool load_next_block();
  void unpack_block(const GuppiBlockHeader& block, const std::vector<uint8_t>& raw);

  std::unique_ptr<ByteStream> in_;
  std::string path_;
  VoltageHeader header_;
  GuppiBlockHeader first_;
  std::vector<std::string> warnings_;
  std::vector<float> samples_;   // current block, canonical order, overlap dropped
  int64_t block_ntime_ = 0;      // samples in samples_
  int64_t block_pos_ = 0;        // next sample of samples_ to return
  int64_t next_sample_ = 0;      // index of the next sample returned
  int64_t blocks_read_ = 0;
  int64_t expected_pktidx_ = 0;
  bool at_end_ = false;
};

}  // namespace rapt
